"""One player's recap of a duplicate session: each move's top beside what he played, with his running total and
percentage of the tops; the board replayed move by move; a chart of his percentage beside the room's.

The figures come from the ranking's own input and engine (`rankings.ranking_input`, `move_points`, `rank_points`),
so that his last running total is his total in the ranking, solos, penalties and avertissements included. Like the
room's screens, a session still being played counts its moves closed only (`rankings.closed_move`).
"""

import math
from dataclasses import asdict, dataclass

from django.utils.translation import gettext as _

from clubsite.charts import ChartBox
from scoring.boards import board_rows_marking
from scoring.engine.draw import bag_after, parse_draw
from scoring.engine.moves import Board, Move
from scoring.engine.ranking import RankingRow, move_points, percent_of, rank_points

from .charts import percent_frame
from .games import reliquat_after, written_play
from .models import Player, Result, Round, Session
from .services.rankings import closed_move, ranking_input


@dataclass(frozen=True)
class RecapRow:
    """One move seen by the player: the top, his result, and where he stands once it is counted."""

    round: Round
    result: Result | None
    score: int | None  # his bulletin's score, None without one (counted 0)
    gap: int  # score − top, on this move
    solo: bool
    solo_points: int
    warning: bool
    penalty_points: int  # what the move's penalty and its avertissement's cost took (FISF §5: at most his score)
    total: int  # running: what counts for the ranking after this move
    tops_total: int  # running
    percent: float  # running, of the tops

    @property
    def move(self) -> str:
        return self.result.move if self.result else ""


@dataclass(frozen=True)
class ReplayStep:
    """The board at one move: the top laid on it (its tiles marked), the player's own move laid on the same board
    when he wrote a different one that the board takes, and the letters still to come once the top is laid."""

    row: RecapRow
    top_board: list
    own_board: list | None
    own_is_top: bool
    reliquat: str
    bag: list[str]

    @property
    def bag_groups(self) -> list[str]:
        """The bag's letters grouped ("AAA", "B", "CC"), to read at a glance."""
        groups: list[str] = []
        for letter in self.bag:
            if groups and groups[-1][0] == letter:
                groups[-1] += letter
            else:
                groups.append(letter)
        return groups


@dataclass(frozen=True)
class ChartSeries:
    css: str
    label: str
    points: str  # the polyline's "x,y x,y"
    dots: list[tuple[float, float]]
    last: float


@dataclass(frozen=True)
class PercentChart(ChartBox):
    """A line chart drawn on the server (inline SVG): the running percentage of the tops move by move."""

    series: list[ChartSeries]
    y_ticks: list[tuple[float, int]]  # (y, percent)
    x_ticks: list[tuple[float, int]]  # (x, move number)

    @property
    def x_label_y(self) -> int:
        return self.height - self.bottom + 16

    @property
    def axis_label_y(self) -> int:
        return self.height - 4


@dataclass(frozen=True)
class PlayerRecap:
    session: Session
    player: Player
    row: RankingRow  # his line in the ranking over the moves counted
    players: int
    rows: list[RecapRow]
    steps: list[ReplayStep]
    chart: PercentChart | None
    closed: int | None  # the last move counted while the session is played; None once finished

    @property
    def place(self) -> int:
        return self.row.place

    @property
    def tops_total(self) -> int:
        return self.rows[-1].tops_total if self.rows else 0


def player_recap(session: Session, player: Player) -> PlayerRecap:
    """The recap of `player` (one of the session's) in a handful of queries, whatever the number of players."""
    closed = closed_move(session)
    figures = ranking_input(session, up_to=closed)
    points = move_points(**figures.engine_arguments())
    ranked = rank_points(points, tops=figures.tops)
    rounds = list(session.rounds.filter(pk__in=[pk for pk, _top in figures.rounds]).order_by("number"))
    results = {result.round_id: result for result in Result.objects.filter(player=player, round__in=rounds)}

    rows, total, tops_total = [], 0, 0
    for round_, move in zip(rounds, points[player.pk], strict=True):
        result = results.get(round_.pk)
        total += move.points
        tops_total += round_.top_score
        score = result.score if result else None
        rows.append(
            RecapRow(
                round=round_,
                result=result,
                score=score,
                gap=(score or 0) - round_.top_score,
                solo=move.solo,
                solo_points=move.solo_points,
                warning=move.warning,
                penalty_points=move.penalty_points,
                total=total,
                tops_total=tops_total,
                percent=percent_of(total, tops_total),
            )
        )
    row = next(row for row in ranked if row.player == player.pk)
    return PlayerRecap(
        session=session,
        player=player,
        row=row,
        players=len(figures.players),
        rows=rows,
        steps=_replay(session, rows),
        chart=_chart(player, rows, points, ranked, figures.players, finished=closed is None) if rows else None,
        closed=closed,
    )


def _replay(session: Session, rows: list[RecapRow]) -> list[ReplayStep]:
    """Each move's board: the tops before it, then its top laid; the player's move laid on the same board."""
    edition, rules = session.edition_engine, session.rules_engine
    board = Board()
    steps = []
    for row in rows:
        before = board.copy()
        # Each top was checked when it was placed: a board refusing one now is a bug, not a case to skip.
        play = board.play(Move.parse(row.round.top, edition), edition, rules)
        own = written_play(before, row.result, edition, rules)
        own_is_top = own is not None and own.move.notation == play.move.notation
        letters = list(parse_draw(row.round.draw, edition, rules.rack_size).letters)
        reliquat = reliquat_after(letters, play)
        steps.append(
            ReplayStep(
                row=row,
                top_board=board_rows_marking(before, play),
                own_board=board_rows_marking(before, own) if own and not own_is_top else None,
                own_is_top=own_is_top,
                reliquat="".join(reliquat),
                bag=bag_after(edition, [tile for _index, tile in board.tiles()], reliquat),
            )
        )
    return steps


# The chart, in the SVG's own units: 360 wide, so that its text reads at its size on a 390 px phone.
BOX = ChartBox(width=360, height=220, left=44, right=12, top=12, bottom=40)


def _chart(player, rows, points, ranked, players, *, finished: bool) -> PercentChart:
    """The player's running percentage, the room's average (the players present) and the winner's (the leader's
    while the session is played)."""
    present = [pk for pk, seat in players.items() if not seat.absent] or list(players)
    tops = [row.tops_total for row in rows]
    running = [_running(points[pk]) for pk in present]
    average = [100 * sum(line[i] for line in running) / len(running) / (tops[i] or 1) for i in range(len(rows))]
    leader = ranked[0].player
    lines = [
        ("chart-player", player.name, [row.percent for row in rows]),
        ("chart-average", _("Moyenne de la salle"), [round(value, 1) for value in average]),
        (
            "chart-winner",
            (_("Vainqueur : %(name)s") if finished else _("En tête : %(name)s")) % {"name": players[leader].name},
            [percent_of(total, tops[i]) for i, total in enumerate(_running(points[leader]))],
        ),
    ]
    frame = percent_frame([value for _css, _label, line in lines for value in line], len(rows), BOX)
    x, y = frame.x, frame.y
    series = [
        ChartSeries(
            css=css,
            label=label,
            points=" ".join(f"{x(i)},{y(value)}" for i, value in enumerate(line)),
            dots=[(x(i), y(value)) for i, value in enumerate(line)] if css == "chart-player" else [],
            last=line[-1],
        )
        for css, label, line in lines
    ]
    every = max(1, math.ceil(len(rows) / 10))
    x_ticks = [(x(i), row.round.number) for i, row in enumerate(rows) if i == 0 or (i + 1) % every == 0]
    return PercentChart(**asdict(BOX), series=series, y_ticks=frame.y_ticks, x_ticks=x_ticks)


def _running(moves) -> list[int]:
    totals, total = [], 0
    for move in moves:
        total += move.points
        totals.append(total)
    return totals
