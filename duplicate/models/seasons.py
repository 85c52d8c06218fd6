"""A club's seasons: its sessions between two dates ranked together."""

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from clubsite.models import Club

from .sessions import Session


class SeasonQuerySet(models.QuerySet):
    def visible_to(self, user):
        """Seasons a member may read: those of his clubs. The others are answered as if they did not exist."""
        return self.filter(club__in=Club.objects.for_user(user))


class SeasonCounting(models.TextChoices):
    ALL = "all", _("Toutes les séances")
    BEST = "best", _("Les meilleures séances de chaque joueur")


class SeasonRankedBy(models.TextChoices):
    PERCENT = "percent", _("Moyenne des pourcentages du top")
    TOTAL = "total", _("Total des points")


SEASON_BEST_OF_MAX = 200  # sessions a player's season may count: more than a club plays in a year


class Season(models.Model):
    """A club's season: its sessions between two dates ranked together, all of them or each player's best N,
    by the mean of the percentages of the tops or by the total (`services.seasons.season_ranking`)."""

    Counting = SeasonCounting
    RankedBy = SeasonRankedBy

    club = models.ForeignKey(
        "clubsite.Club", on_delete=models.CASCADE, related_name="duplicate_seasons", verbose_name=_("club")
    )
    name = models.CharField(_("nom"), max_length=120)
    start = models.DateField(_("début"))
    end = models.DateField(_("fin"))
    counting = models.CharField(_("séances retenues"), max_length=4, choices=Counting.choices, default=Counting.ALL)
    best_of = models.PositiveSmallIntegerField(
        _("nombre de meilleures séances"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(SEASON_BEST_OF_MAX)],
    )
    ranked_by = models.CharField(_("classement par"), max_length=7, choices=RankedBy.choices, default=RankedBy.PERCENT)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = SeasonQuerySet.as_manager()

    class Meta:
        verbose_name = _("saison")
        verbose_name_plural = _("saisons")
        ordering = ["-start", "-pk"]
        constraints = [
            models.CheckConstraint(condition=Q(end__gte=F("start")), name="season_ends_after_it_starts"),
            models.CheckConstraint(
                condition=Q(counting=SeasonCounting.ALL, best_of=None)
                | Q(counting=SeasonCounting.BEST, best_of__gte=1, best_of__lte=SEASON_BEST_OF_MAX),
                name="season_best_of_when_counting_the_best",
            ),
        ]

    def __str__(self):
        return self.name

    def clean(self):
        errors = {}
        if self.start and self.end and self.end < self.start:
            errors["end"] = gettext("La saison finit le jour où elle commence ou après.")
        if self.counting == self.Counting.BEST and self.best_of is None:
            errors["best_of"] = gettext("Dites combien de séances retenir pour chaque joueur.")
        if errors:
            raise ValidationError(errors)
        if self.counting == self.Counting.ALL:
            self.best_of = None  # a number left in the form's field no longer means anything

    @property
    def best(self) -> int | None:
        """How many of each player's sessions count: None for all of them."""
        return self.best_of if self.counting == self.Counting.BEST else None

    @property
    def by_percent(self) -> bool:
        return self.ranked_by == self.RankedBy.PERCENT

    def sessions(self):
        """The sessions the season ranks: its club's sessions played in a room between its dates and finished.
        A game alone against the tops (automatic, or the replay of a session) is training, not a club evening."""
        return Session.objects.filter(
            club=self.club_id,
            date__range=(self.start, self.end),
            finished_at__isnull=False,
            automatic=False,
            replay_of=None,
        ).order_by("date", "pk")
