"""The whole game as a page and as a file: the game sheet (a line a move, a column a player) and the game document
a game file holds (duplicate.games)."""

from dataclasses import dataclass

from scoring.engine.ranking import (
    MovePoints,
    RankingRow,
    move_points,
    rank_points,
)

from .. import games
from ..games import GameRound
from ..models import Player, Result, Round, Session
from .rankings import ranking_input, results_readable


def game_document(session: Session) -> dict:
    """The session's game as a game file holds it (duplicate.games): every move whose top is placed, in order. A
    simultané's room gives the moves it has played only: the rest of the game stays sealed."""
    rounds = session.rounds.exclude(top_score=None).order_by("number")
    played = [GameRound(r.number, r.draw, r.top, r.top_score) for r in rounds]
    about = {"name": session.name, "date": session.date.isoformat(), "rules": session.rule_set.code}
    return games.document(session.edition.code, played, **about)


@dataclass
class SheetColumn:
    """A player on the game's sheet: his ranking row, and on each move his result (None where none) with what the
    move brought him as the ranking counts it (None before its top is placed)."""

    player: Player
    row: RankingRow
    cells: list[tuple[Round, Result | None, MovePoints | None]]  # one per move

    @property
    def solo_numbers(self) -> set[int]:
        return {round_.number for round_, _result, points in self.cells if points and points.solo}


@dataclass
class GameSheet:
    """The whole game as seed 000's duplicate sheet: a line a move (draw, top, square, points), a column a
    player, then each player's total, gap, solos and place."""

    rounds: list[Round]
    columns: list[SheetColumn]  # in the order of the tables
    ranked: list[SheetColumn]  # best first
    tops_total: int


def game_sheet(session: Session, *, reader) -> GameSheet:
    """The sheet as `reader` may read it (`results_readable`), in six queries whatever the number of players and
    moves."""
    figures = ranking_input(session)
    points = move_points(**figures.engine_arguments())
    rows = rank_points(points, tops=figures.tops)
    rounds = list(session.rounds.all())
    index = {round_.pk: i for i, round_ in enumerate(rounds)}
    results = {pk: [None] * len(rounds) for pk in figures.players}
    for result in results_readable(session, reader):
        results[result.player_id][index[result.round_id]] = result
    counted = {pk: [None] * len(rounds) for pk in figures.players}
    for pk, moves in points.items():
        for (round_pk, _top), move in zip(figures.rounds, moves, strict=True):
            counted[pk][index[round_pk]] = move
    columns = {
        row.player: SheetColumn(
            figures.players[row.player], row, list(zip(rounds, results[row.player], counted[row.player], strict=True))
        )
        for row in rows
    }
    ordered = [columns[player.pk] for player in sorted(figures.players.values(), key=_table_order)]
    return GameSheet(rounds, ordered, [columns[row.player] for row in rows], sum(figures.tops))


def _table_order(player: Player):
    """The order of `Player.Meta.ordering`: tables first, then players without one by name."""
    return (player.table is None, player.table or 0, player.name, player.pk)
