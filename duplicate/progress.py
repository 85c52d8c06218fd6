"""A member's duplicate numbers on his progress page (clubsite.progress, issue 15).

The sessions counted are the finished ones where he is the linked player (`Player.member`): a session still being
played has no final figure yet. His figures in each are his line of the session's ranking (the engine's `rank`,
as the ranking and his recap compute it: solos, penalties and avertissements included). Personal automatic games
(the server draws and places the tops, he plays alone) are counted apart: a percentage against the tops with
nobody else in the room, no place and no solo, which would blur his figures against other players.

A "scrabble" (seven tiles from the rack, the 50-point bonus) is available on a move whose top laid all the rack's
tiles, and found when his written move, laid on that move's board, did too. A bulletin that gives a score alone
counts as found when that score is the top's: the only scrabble that the score proves.
"""

from dataclasses import asdict, dataclass
from decimal import Decimal

from django.utils.translation import gettext_lazy as _

from clubsite.charts import ChartBox
from clubsite.progress import AppSection, ProgressFilters
from scoring.engine.moves import Board, Move
from scoring.engine.ranking import one_decimal, rank
from scoring.models import Edition, RuleSet

from .charts import percent_frame
from .games import written_play
from .models import Player, Result, Round
from .services.rankings import ranking_inputs


@dataclass(frozen=True)
class SessionFigures:
    """The member's figures in one session."""

    player: Player  # his seat, its session loaded
    total: int
    tops_total: int
    percent: float
    place: int
    players: int
    solos: int
    scrabbles_available: int
    scrabbles_found: int

    @property
    def session(self):
        return self.player.session


@dataclass(frozen=True)
class Summary:
    """Figures over several sessions."""

    sessions: list[SessionFigures]

    @property
    def played(self) -> int:
        return len(self.sessions)

    @property
    def average(self) -> float | None:
        """The mean of his sessions' percentages (each session weighs the same), one decimal rounded half up."""
        if not self.sessions:
            return None
        mean = sum(Decimal(str(figures.percent)) for figures in self.sessions) / len(self.sessions)
        return one_decimal(mean)

    @property
    def best(self) -> SessionFigures | None:
        return max(self.sessions, key=lambda figures: figures.percent, default=None)

    @property
    def solos(self) -> int:
        return sum(figures.solos for figures in self.sessions)

    @property
    def scrabbles_available(self) -> int:
        return sum(figures.scrabbles_available for figures in self.sessions)

    @property
    def scrabbles_found(self) -> int:
        return sum(figures.scrabbles_found for figures in self.sessions)


@dataclass(frozen=True)
class ChartPoint:
    x: float
    y: float
    figures: SessionFigures


@dataclass(frozen=True)
class ProgressChart(ChartBox):
    """His percentage session by session, oldest first, as an inline SVG drawn on the server: 360 units wide, so
    that its text reads at its size on a 390 px phone. Sessions are evenly spaced; the axis names their dates."""

    points: list[ChartPoint]
    average_y: float
    y_ticks: list[tuple[float, int]]  # (y, percent)
    x_ticks: list[tuple[float, str, object]]  # (x, text-anchor, date)

    @property
    def polyline(self) -> str:
        return " ".join(f"{point.x},{point.y}" for point in self.points)

    @property
    def x_label_y(self) -> int:
        return self.height - 14


@dataclass(frozen=True)
class DuplicateProgress:
    summary: Summary
    automatic: Summary
    chart: ProgressChart | None


def member_progress(user, filters: ProgressFilters) -> DuplicateProgress:
    """His finished sessions within `filters`, newest first, in six queries and one more for each edition and
    rule set among them, whatever the number of sessions; none of a simultané's room sealed from him, as his recap
    there (`recap_readable_by`)."""
    seats = Player.objects.recap_readable_by(user).filter(member=user, session__finished_at__isnull=False)
    seats = seats.select_related("session__edition", "session__rule_set", "session__club")
    if filters.club is not None:
        seats = seats.filter(session__club=filters.club)
    seats = list(filters.in_period(seats, "session__date").order_by("-session__date", "-session__pk"))
    sessions = [seat.session for seat in seats]
    editions = {code: Edition.objects.engine(code) for code in {session.edition.code for session in sessions}}
    rules = {code: RuleSet.objects.engine(code) for code in {session.rule_set.code for session in sessions}}
    inputs = ranking_inputs(sessions, rules)
    tops = _tops(sessions)
    own = {(result.player_id, result.round_id): result for result in Result.objects.filter(player__in=seats)}
    figures = []
    for seat in seats:
        session = seat.session
        figures_input = inputs[session.pk]
        row = next(row for row in rank(**figures_input.engine_arguments()) if row.player == seat.pk)
        available, found = _scrabbles(
            tops[session.pk], own, seat, editions[session.edition.code], rules[session.rule_set.code]
        )
        figures.append(
            SessionFigures(
                player=seat,
                total=row.total,
                tops_total=sum(figures_input.tops),
                percent=row.percent,
                place=row.place,
                players=len(figures_input.players),
                solos=row.solos,
                scrabbles_available=available,
                scrabbles_found=found,
            )
        )
    played = Summary([line for line in figures if not line.session.automatic])
    return DuplicateProgress(
        summary=played,
        automatic=Summary([line for line in figures if line.session.automatic]),
        chart=_chart(played) if played.sessions else None,
    )


def _tops(sessions) -> dict[int, list[Round]]:
    """Each session's placed moves in order (the tops to replay)."""
    tops: dict[int, list[Round]] = {session.pk: [] for session in sessions}
    placed = Round.objects.filter(session__in=sessions).exclude(top_score=None).order_by("session", "number")
    for round_ in placed.only("pk", "session_id", "number", "top", "top_score"):
        tops[round_.session_id].append(round_)
    return tops


def _scrabbles(rounds: list[Round], own: dict, seat: Player, edition, rules) -> tuple[int, int]:
    """(available, found) in one session: the tops replayed, his written moves laid on each move's board."""
    board = Board()
    available = found = 0
    for round_ in rounds:
        result = own.get((seat.pk, round_.pk))
        mine = written_play(board, result, edition, rules)
        # Each top was checked when it was placed: a board refusing one now is a bug, not a case to skip.
        top = board.play(Move.parse(round_.top, edition), edition, rules)
        if not top.bonus:
            continue
        available += 1
        if mine is not None:
            found += bool(mine.bonus)
        elif result is not None and not result.move and result.score == round_.top_score:
            found += 1
    return available, found


BOX = ChartBox(width=360, height=220, left=44, right=16, top=12, bottom=36)
DATE_LABELS = 4  # at most, so that they fit side by side on a phone


def _chart(summary: Summary) -> ProgressChart:
    lines = summary.sessions[::-1]  # oldest first
    frame = percent_frame([line.percent for line in lines], len(lines), BOX)
    x, y = frame.x, frame.y
    labelled = sorted({round(i * (len(lines) - 1) / (DATE_LABELS - 1)) for i in range(DATE_LABELS)})
    x_ticks = []
    for i in labelled:
        anchor = "middle" if len(lines) == 1 else "start" if i == 0 else "end" if i == len(lines) - 1 else "middle"
        x_ticks.append((x(i), anchor, lines[i].session.date))
    return ProgressChart(
        **asdict(BOX),
        points=[ChartPoint(x(i), y(line.percent), line) for i, line in enumerate(lines)],
        average_y=y(summary.average),
        y_ticks=frame.y_ticks,
        x_ticks=x_ticks,
    )


# The duplicate part of the progress page.
SECTION = AppSection(_("Duplicate"), "duplicate/includes/progress.html", 10, "duplicate", member_progress)
