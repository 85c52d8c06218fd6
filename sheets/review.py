"""A classic game seen again (issue 15): the board after each turn whose placement is known, each player's score
over the sheet's lines, the end-of-game adjustments, and, for each turn whose rack is known, the best moves the
top finder finds for that rack on the board it was played on, with the points left on the table.

The best moves come from the edition's default word list (the free list, never the ODS). A search is cheap for a
rack of seven tiles (hundredths of a second) but two blanks can take seconds, so each result is kept in the shared
cache under what decides it (the board, the rack, the edition, the rules, the word list's version), and the
searches of one page view together run at most `SEARCH_TIME_LIMIT` seconds: a page cut short says so and the next
view goes on from the cache.
"""

import hashlib
import math
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from time import monotonic

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext as _

from clubsite.charts import ChartBox
from scoring.boards import board_rows, board_rows_marking
from scoring.engine.errors import ScoringError
from scoring.engine.movegen import OutOfTime, best_moves
from scoring.engine.moves import Board, Move, Play
from scoring.engine.ranking import above_top
from scoring.models import Lexicon, move_index

from .models import Game, Line, Player
from .sheet import Sheet, SheetRow, build_sheet

TOPS_SHOWN = 5
TOPS_KEPT_SECONDS = 30 * 24 * 3600  # a complete search never changes: only a new word list, in the key, does
PARTIAL_TOPS_KEPT_SECONDS = 600  # a search cut short at its full time: not tried again on every view


@dataclass
class Tops:
    moves: list[tuple[str, int]]  # (notation, score), best first
    count: int  # legal moves found in all
    complete: bool

    @property
    def best(self) -> int | None:
        return self.moves[0][1] if self.moves else None


@dataclass
class Step:
    """One turn on the board: a move laid (its new tiles marked), or a pass, an exchange, a withdrawn word on the
    board as it stood."""

    index: int  # 1, 2, … among the steps
    row: SheetRow
    play: Play | None
    board_before: Board
    moves_before: tuple[str, ...]
    board_known: bool  # every play before it was laid on the board
    scores: list[tuple[Player, int]]  # each player's total after the line
    tops: Tops | None = None
    tops_note: str = ""  # why a known rack has no best moves (yet)
    cells: list = field(default_factory=list)

    @property
    def line(self) -> Line:
        return self.row.line

    @property
    def points_left(self) -> int | None:
        """The best score found minus the score played; 0 when the move played is worth as much or more (its word
        may be missing from the free list)."""
        if not self.tops or self.tops.best is None:
            return None
        return max(0, self.tops.best - self.line.points)

    @property
    def played_beats_list(self) -> bool:
        tops = self.tops
        return bool(tops and tops.complete and above_top(self.line.points, tops.best))


@dataclass
class Series:
    name: str
    number: int  # the seat, for the line's colour
    points: str  # the polyline's "x,y x,y …"
    last: int


@dataclass(frozen=True)
class Chart(ChartBox):
    """Each player's total after every line of the sheet (and after the end-of-game adjustments), drawn as an SVG
    in its box."""

    series: list[Series]
    x_ticks: list[tuple[str, str]]  # (position, label)
    y_ticks: list[tuple[str, int]]

    @property
    def plot_right(self) -> int:
        """The review's template's name for the box's `plot_end`."""
        return self.plot_end


@dataclass
class ReviewLine:
    """A line of the sheet in the list of every move: its step, if it has one."""

    row: SheetRow
    step: Step | None
    unplaced: bool  # a play typed as points, or no longer fitting the board


@dataclass
class Review:
    sheet: Sheet
    steps: list[Step]
    lines: list[ReviewLine]
    final_cells: list
    chart: Chart
    end_rule: str
    lexicon_name: str = ""

    @property
    def unplaced(self) -> list[ReviewLine]:
        return [line for line in self.lines if line.unplaced]


def build_review(game: Game) -> Review:
    """The review without its best moves (`find_tops` adds them)."""
    sheet = build_sheet(game)
    edition, rules = game.engine_edition(), game.engine_rules()
    board = Board()
    laid: list[str] = []
    board_known = True
    totals = [0] * len(sheet.players)
    positions = {player.pk: player.position for player in sheet.players}
    steps: list[Step] = []
    lines: list[ReviewLine] = []
    for row in sheet.rows:
        line = row.line
        totals[positions[line.player_id]] += line.points
        before, moves_before = board.copy(), tuple(laid)
        play = None
        if line.move and not row.off_board:
            play = board.play(Move.parse(line.move, edition), edition, rules)
            laid.append(line.move)
        step = None
        if play or (line.uses_turn and line.kind != Line.Kind.PLAY):
            scores = list(zip(sheet.players, totals, strict=True))
            step = Step(len(steps) + 1, row, play, before, moves_before, board_known, scores)
            step.cells = board_rows_marking(before, play)
            steps.append(step)
        unplaced = line.kind == Line.Kind.PLAY and play is None
        board_known = board_known and not unplaced
        lines.append(ReviewLine(row, step, unplaced))
    return Review(
        sheet=sheet,
        steps=steps,
        lines=lines,
        final_cells=board_rows(board),
        chart=_chart(sheet),
        end_rule=game.rule_set.get_end_of_game_display(),
    )


def find_tops(review: Review, game: Game, *, refusal: Callable[[], str]) -> None:
    """The best moves of each step whose rack and board are known: from the shared cache, else searched while
    the page's time lasts. `refusal()` is asked once, before the first search: the rate limit's French sentence,
    or "" to go on."""
    lexicons = Lexicon.objects.filter(edition__code=game.edition.code, is_default=True)
    lexicon = lexicons.values("pk", "updated_at", "name").first()
    review.lexicon_name = lexicon["name"] if lexicon else ""
    edition, rules = game.engine_edition(), game.engine_rules()
    deadline = monotonic() + settings.SEARCH_TIME_LIMIT
    refused = None
    for step in review.steps:
        rack = step.line.rack
        if not rack:
            continue
        if not step.board_known:
            step.tops_note = _("Un coup saisi en points précède celui-ci : la grille d'alors n'est pas connue.")
            continue
        if lexicon is None:
            step.tops_note = _("Aucune liste de mots n'est définie pour cette édition.")
            continue
        key = _cache_key(lexicon, edition, rules, step.moves_before, rack)
        cached = cache.get(key)
        if cached is not None:
            step.tops = Tops(**cached)
            continue
        if refused is None:
            refused = refusal()
        left = deadline - monotonic()
        if refused or left <= 0:
            step.tops_note = refused or _("Pas encore cherché : le temps de cette page est écoulé, rechargez-la.")
            continue
        time_limit = min(left, settings.SEARCH_TIME_LIMIT)
        try:
            ranking, complete = best_moves(
                step.board_before, rack, edition, move_index(game.edition.code), rules,
                limit=TOPS_SHOWN, time_limit=time_limit,
            ), True  # fmt: skip
        except OutOfTime as stopped:
            ranking, complete = stopped.found, False
        except ScoringError as error:
            step.tops_note = error.translated(_)
            continue
        step.tops = Tops([(move.notation, move.score) for move in ranking.moves], ranking.count, complete)
        if complete or time_limit >= settings.SEARCH_TIME_LIMIT:
            cache.set(key, asdict(step.tops), TOPS_KEPT_SECONDS if complete else PARTIAL_TOPS_KEPT_SECONDS)


def _cache_key(lexicon: dict, edition, rules, moves: tuple[str, ...], rack: str) -> str:
    """Everything a search's answer depends on: the word list's version, the edition's tiles, the rules (rack
    size, bonus), the board, the rack."""
    source = repr((lexicon["pk"], lexicon["updated_at"].isoformat(), edition, rules, moves, rack, TOPS_SHOWN))
    return "sheets-review-tops:" + hashlib.sha256(source.encode()).hexdigest()


# The chart, in SVG units: a phone shows it about 360 px wide, so a unit is close to a pixel there.
BOX = ChartBox(width=420, height=250, left=40, right=10, top=10, bottom=34)
_STEPS = (10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000)


def _chart(sheet: Sheet) -> Chart:
    """Each player's total from 0 after every line, then the final score once the game is over."""
    positions = {player.pk: player.position for player in sheet.players}
    columns = [[0] * len(sheet.players)]
    for row in sheet.rows:
        columns.append(list(columns[-1]))
        columns[-1][positions[row.line.player_id]] = row.cumulative
    labels = [str(number) for number in range(len(columns))]
    if sheet.results:
        finals = {player.position: final.final for player, final in sheet.results}
        columns.append([finals[player.position] for player in sheet.players])
        labels.append(_("Fin"))
    values = [value for column in columns for value in column]
    step = next((s for s in _STEPS if (max(values) - min(values)) / s <= 6), 5000)
    low, high = math.floor(min(values) / step) * step, max(step, math.ceil(max(values) / step) * step)

    def x(index: int) -> float:
        return round(BOX.left + BOX.plot_width * index / max(1, len(columns) - 1), 1)

    def y(value: int) -> float:
        return round(BOX.top + BOX.plot_height * (high - value) / (high - low), 1)

    series = [
        Series(
            player.display_name,
            player.position,
            " ".join(f"{x(i)},{y(column[player.position])}" for i, column in enumerate(columns)),
            columns[-1][player.position],
        )
        for player in sheet.players
    ]
    last = len(columns) - 1
    every = max(1, math.ceil(last / 10))
    # A label every `every` lines, and the last one, without the label before it when the two would touch.
    shown = [i for i in range(0, last, every) if last - i >= every / 2 or i == 0] + [last]
    # Positions as text: the page's French number format would write 216,0.
    x_ticks = [(str(x(i)), labels[i]) for i in dict.fromkeys(shown)]
    y_ticks = [(str(y(value)), value) for value in range(low, high + 1, step)]
    return Chart(**asdict(BOX), series=series, x_ticks=x_ticks, y_ticks=y_ticks)
