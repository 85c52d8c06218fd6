"""A member's classic games on his progress page (clubsite.progress, issue 15).

The games counted are the finished ones where a seat is linked to him: a sheet he keeps for others, his own seat
unlinked, does not say which player he was. Each game's final scores follow its own rule set's end of the game
(the engine's `end_of_game`, as the sheet and the history show them). He won a game whose first place is his
alone, drew one whose first place he shares, and lost the others. A game's date is the day it was started, as
the history shows it. Games belong to no club: a club chosen in the filters leaves them as they are.
"""

from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Sum
from django.utils.translation import gettext_lazy as _

from clubsite.progress import AppSection, ProgressFilters
from scoring.engine.endgame import end_of_game
from scoring.engine.ranking import one_decimal
from scoring.models import RuleSet

from .models import Line, Player

RECENT_GAMES = 10  # listed under the numbers


@dataclass(frozen=True)
class GameFigures:
    seat: Player  # his seat, its game loaded
    score: int  # final, after the end of the game
    place: int
    opponents: list[Player]
    shared: bool  # his place is shared

    @property
    def game(self):
        return self.seat.game

    @property
    def outcome(self) -> str:
        if self.place != 1:
            return "lost"
        return "drawn" if self.shared else "won"


@dataclass(frozen=True)
class ClassicProgress:
    games: list[GameFigures]  # newest first

    @property
    def played(self) -> int:
        return len(self.games)

    def _count(self, outcome: str) -> int:
        return sum(game.outcome == outcome for game in self.games)

    @property
    def won(self) -> int:
        return self._count("won")

    @property
    def lost(self) -> int:
        return self._count("lost")

    @property
    def drawn(self) -> int:
        return self._count("drawn")

    @property
    def average(self) -> float | None:
        """His mean final score, one decimal rounded half up."""
        if not self.games:
            return None
        mean = Decimal(sum(game.score for game in self.games)) / len(self.games)
        return one_decimal(mean)

    @property
    def best(self) -> int | None:
        return max((game.score for game in self.games), default=None)

    @property
    def recent(self) -> list[GameFigures]:
        return self.games[:RECENT_GAMES]


def member_progress(user, filters: ProgressFilters) -> ClassicProgress:
    """His finished games within the period of `filters`, newest first, in three queries and one more for each
    rule set among them."""
    seats = Player.objects.filter(member=user, game__finished_at__isnull=False).select_related("game__rule_set")
    seats = list(filters.in_period(seats, "game__created_at__date").order_by("-game__created_at", "-game__pk"))
    games = [seat.game_id for seat in seats]
    players: dict[int, list[Player]] = {pk: [] for pk in games}
    for player in Player.objects.filter(game__in=games).select_related("member").order_by("game", "position"):
        players[player.game_id].append(player)
    totals = dict(Line.objects.filter(game__in=games).order_by().values_list("player").annotate(total=Sum("points")))
    end_rules = {code: RuleSet.objects.engine(code).end_of_game for code in {s.game.rule_set.code for s in seats}}
    figures = []
    for seat in seats:
        seated = players[seat.game_id]
        finals = end_of_game(
            [totals.get(player.pk, 0) for player in seated],
            [player.rack_value for player in seated],
            end_rules[seat.game.rule_set.code],
        )
        mine = next(final for player, final in zip(seated, finals, strict=True) if player.pk == seat.pk)
        figures.append(
            GameFigures(
                seat=seat,
                score=mine.final,
                place=mine.place,
                opponents=[player for player in seated if player.pk != seat.pk],
                shared=sum(final.place == mine.place for final in finals) > 1,
            )
        )
    return ClassicProgress(figures)


# The classic games' part of the progress page.
SECTION = AppSection(_("Parties classiques"), "sheets/includes/progress.html", 20, "classic", member_progress)
