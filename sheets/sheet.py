"""The score sheet as the page shows it, computed from the lines each time: cumulative totals, whose turn it
is, the passed-turn note, the game's board and tile tracking, and the results once the game is over."""

from dataclasses import dataclass

from django.utils.translation import gettext

from scoring.engine.editions import BLANK
from scoring.engine.endgame import FinalScore, end_of_game
from scoring.engine.moves import Board, Tile, replay
from scoring.engine.tracking import Tracking, track

from .models import Game, Line, Player


@dataclass
class SheetRow:
    number: int
    line: Line
    cumulative: int  # the line's player's total after it
    off_board: str = ""  # why the line's move no longer fits the board (a line deleted under it), if it does not


@dataclass
class Sheet:
    game: Game
    players: list[Player]
    rows: list[SheetRow]
    totals: list[int]
    turn: Player | None
    pass_limit_reached: bool
    board: Board
    tracking: Tracking
    bag: int | None  # tiles in the bag with every rack full; None when some play's tiles are unknown
    typed_tiles: list[Tile]  # the new tiles of the moves counted in typed mode, on no board
    results: list[tuple[Player, FinalScore]] | None

    @property
    def turn_position(self) -> int | None:
        return self.turn.position if self.turn else None

    @property
    def standings(self) -> list[tuple[Player, int]]:
        """Each player's total: the final score once the game is over."""
        if self.results:
            return [(player, final.final) for player, final in self.results]
        return list(zip(self.players, self.totals, strict=True))

    @property
    def last_line_pk(self) -> int:
        """The sheet's version as its forms saw it (0 while empty): each line has a greater pk than every line
        written before it, deleted or not, so a form sent twice, or from a stale tab, carries an older one."""
        return max((row.line.pk for row in self.rows), default=0)

    @property
    def tiles_played(self) -> int:
        """On the board, and counted in typed mode."""
        return self.board.tile_count + len(self.typed_tiles)

    @property
    def exportable(self) -> bool:
        """Whether GCG can describe the game: every play laid on the board, and each still fitting it."""
        return not any((row.line.kind == Line.Kind.PLAY and not row.line.move) or row.off_board for row in self.rows)

    def results_text(self) -> str:
        """The final ranking as text, for "Copier le classement"."""
        lines = []
        for player, final in self.results or []:
            sign = "+" if final.adjustment >= 0 else ""
            lines.append(
                f"{final.place}. {player.display_name} : {final.final} ({final.before} {sign}{final.adjustment})"
            )
        return "\n".join(lines)


def build_sheet(game: Game) -> Sheet:
    players = list(game.players.select_related("member"))
    lines = list(game.lines.all())
    by_id = {player.pk: player for player in players}
    totals = [0] * len(players)
    rows = []
    next_turn = 0
    for number, line in enumerate(lines, start=1):
        line.player = by_id[line.player_id]  # the page names each line's player: no query per line
        position = line.player.position
        totals[position] += line.points
        rows.append(SheetRow(number, line, totals[position]))
        if line.uses_turn:
            next_turn = (position + 1) % len(players)
    edition = game.engine_edition()
    rules = game.engine_rules()
    # A move that no longer fits (a line deleted before it) leaves the board; its points still count.
    laid_lines = [row for row in rows if row.line.move]
    replayed = replay([row.line.move for row in laid_lines], edition, rules)
    for refusal in replayed.refused:
        laid_lines[refusal.params["number"] - 1].off_board = refusal.error.translated(gettext)
    board = replayed.board
    typed = [Tile(letter, letter == BLANK) for line in lines if not line.move for letter in line.tiles]
    tracking = track(edition, [tile for _, tile in board.tiles()] + typed)
    plays = [line for line in lines if line.kind == Line.Kind.PLAY]
    bag_known = all(line.move or line.tiles for line in plays)
    results = None
    if game.is_finished:
        finals = end_of_game(totals, [player.rack_value for player in players], rules.end_of_game)
        # Best first: equal places keep the seats' order.
        results = sorted(zip(players, finals, strict=True), key=lambda pair: pair[1].place)
    return Sheet(
        game=game,
        players=players,
        rows=rows,
        totals=totals,
        turn=None if game.is_finished else players[next_turn],
        pass_limit_reached=rules.pass_limit_reached(_pass_run(lines, by_id), len(players)),
        board=board,
        tracking=tracking,
        bag=tracking.in_bag(len(players), rules.rack_size) if bag_known else None,
        typed_tiles=typed,
        results=results,
    )


def _pass_run(lines, by_id) -> list[int]:
    """The players of the trailing run of turns that scored nothing (pass, exchange, withdrawn word, 0)."""
    run: list[int] = []
    for line in reversed(lines):
        if not line.uses_turn:
            continue
        if line.points != 0:
            break
        run.append(by_id[line.player_id].position)
    return run[::-1]
