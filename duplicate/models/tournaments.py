"""Tournaments: several sessions ranked together."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from clubsite.models import Club

from .sessions import Session


def keep_club_tournaments(collector, field, sub_objs, using):
    """`Tournament.creator`'s on_delete: a club's tournament stays with the club, whose organisers run it; a
    club-less one, which only its creator ran, goes with him (its sessions stay: it only grouped them)."""
    tournaments = list(sub_objs)
    collector.add_field_update(field, None, [t for t in tournaments if t.club_id is not None])
    personal = [t for t in tournaments if t.club_id is None]
    if personal:
        models.CASCADE(collector, field, personal, using)


class TournamentQuerySet(models.QuerySet):
    def organised_by(self, user):
        """Tournaments a member runs: those of clubs he organises, and his own club-less ones while he still
        runs every session in them. Creating a tournament gives no right of its own: an organiser removed from
        a club (or made a plain member) no longer reads its sessions' results through a tournament."""
        if not user.is_authenticated:
            return self.none()
        not_his = Tournament.sessions.through.objects.exclude(session__in=Session.objects.organised_by(user))
        return self.filter(
            Q(club__in=Club.objects.organised_by(user))
            | (Q(club__isnull=True, creator=user) & ~Q(pk__in=not_his.values("tournament")))
        )

    def visible_to(self, user):
        """Tournaments a member may know of: those he runs, those of his clubs, those he plays in. The others
        are answered as if they did not exist, as sessions are."""
        if not user.is_authenticated:
            return self.none()
        return self.filter(
            Q(pk__in=Tournament.objects.organised_by(user).values("pk"))
            | Q(club__in=Club.objects.for_user(user))
            | Q(sessions__in=Session.objects.played_by(user))
        ).distinct()


class Tournament(models.Model):
    """Several sessions ranked together: the sum of their totals, equal totals sharing a place."""

    club = models.ForeignKey(
        "clubsite.Club", on_delete=models.CASCADE, null=True, blank=True, related_name="tournaments"
    )
    # Empty once its creator's account is deleted (keep_club_tournaments).
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=keep_club_tournaments, null=True, blank=True, related_name="+"
    )
    name = models.CharField(_("nom"), max_length=120)
    sessions = models.ManyToManyField(Session, related_name="tournaments", verbose_name=_("séances"))
    created_at = models.DateTimeField(auto_now_add=True)

    objects = TournamentQuerySet.as_manager()

    class Meta:
        verbose_name = _("tournoi")
        verbose_name_plural = _("tournois")
        ordering = ["-created_at"]

    def __str__(self):
        return self.name
