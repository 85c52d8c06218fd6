"""Simultanés: the same game played the same day by rooms of several clubs, each room a session."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import formats, timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from clubsite.models import Club
from scoring.engine.rules import move_time
from scoring.models import Edition, RuleSet

from .sessions import Session, _new_key


class SimultaneQuerySet(models.QuerySet):
    def visible_to(self, user):
        """The simultanés a member sees: those of the bodies he belongs to, every one when he organises a club (to
        register a room), and those whose rooms he sees (a player of one reads the combined ranking)."""
        if not user.is_authenticated:
            return self.none()
        rooms = Session.objects.visible_to(user).exclude(simultane=None).values("simultane")
        organising = Club.objects.organised_by(user).exists()
        mine = Q(body__in=Club.objects.for_user(user)) | Q(pk__in=rooms)
        return self.all() if organising else self.filter(mine)

    def prepared_by(self, user):
        """The simultanés a member runs: those of the bodies he organises."""
        return self.filter(body__in=Club.objects.organised_by(user).bodies())


class Simultane(models.Model):
    """The same game played the same day by rooms of several clubs, ranked together (README, "Simultanés").
    Its game is drawn by the server ahead of time or read from a game file, and stays sealed: a room's arbiter sees
    a move's draw when his room reaches it."""

    body = models.ForeignKey(
        "clubsite.Club",
        on_delete=models.PROTECT,
        related_name="simultanes",
        verbose_name=_("organisé par"),
        limit_choices_to=~Q(kind="club"),  # a federation or a district (Club.Kind)
    )
    creator = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    name = models.CharField(_("nom"), max_length=120)
    starts_at = models.DateTimeField(_("début"))
    edition = models.ForeignKey(Edition, on_delete=models.PROTECT, verbose_name=_("édition"))
    rule_set = models.ForeignKey(RuleSet, on_delete=models.PROTECT, verbose_name=_("règles"))
    move_seconds = models.PositiveSmallIntegerField(_("temps par coup (secondes)"))
    # duplicate.games's moves: [{"number", "draw", "top", "top_score"}], never shown before a room plays them.
    game = models.JSONField(default=list, editable=False)
    imported = models.BooleanField(_("partie importée"), default=False, editable=False)
    # Set by the body's organiser once every room has played ("Arrêter le classement"): the combined ranking is
    # final; emptied when he reopens it.
    closed_at = models.DateTimeField(_("classement arrêté le"), null=True, blank=True, editable=False)
    # The first closing, kept when the ranking is reopened: from then on the game is over (`is_over`).
    first_closed_at = models.DateTimeField(
        _("classement arrêté une première fois le"), null=True, blank=True, editable=False
    )
    # The combined ranking's public link, for the rooms' projectors and the players' phones (read only).
    public_key = models.CharField(max_length=24, unique=True, default=_new_key, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = SimultaneQuerySet.as_manager()

    class Meta:
        verbose_name = _("simultané")
        verbose_name_plural = _("simultanés")
        ordering = ["-starts_at", "-pk"]

    def __str__(self):
        return self.name

    def is_organiser(self, user) -> bool:
        return self.body.is_organiser(user)

    @property
    def move_time(self) -> str:
        return move_time(self.move_seconds)

    def is_run_by(self, user) -> bool:
        """Whether `user` organises it: its body's organisers, and the organisers of a room's club."""
        return self.is_organiser(user) or Session.objects.organised_by(user).filter(simultane=self).exists()

    @property
    def is_over(self) -> bool:
        """Whether the game is over for every room: its ranking has been closed, even if reopened since. Closing
        made the whole game readable by everyone concerned, so no room draws again, the rooms are sealed no more,
        and the combined ranking counts the whole game (a room stopped early counting 0 on the moves it did not
        play); a reopened ranking is only no longer said final."""
        return self.first_closed_at is not None

    def game_readable_by(self, user) -> bool:
        """Whether `user` may download the whole game: those who run it, once the game is over (`is_over`). Before
        that it stays sealed, for the body's organisers too."""
        return self.is_over and self.is_run_by(user)

    def when(self) -> str:
        """Its start as a sentence says it: "12 décembre 2026 à 14:00", in the site's time zone."""
        starts = timezone.localtime(self.starts_at)
        return gettext("%(date)s à %(time)s") % {
            "date": formats.date_format(starts, "j F Y"),
            "time": formats.time_format(starts, "H:i"),
        }
