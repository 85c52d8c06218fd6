"""A session's history: every change, who made it and when, kept to settle a dispute."""

from itertools import groupby

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .sessions import Player, Session


def unlink_keeping_the_username(collector, field, sub_objs, using):
    """`Change.user`'s on_delete: a member's account is deleted. The session's history keeps who made each change
    (an arbiter's correction must not read as the player's own entry)."""
    names = {user.pk: user.get_username()[:150] for user in collector.data.get(field.remote_field.model, ())}
    changes = Change.objects.filter(pk__in=[change.pk for change in sub_objs]).order_by("user", "pk")
    for user_id, made in groupby(changes, key=lambda change: change.user_id):
        collector.add_field_update(Change._meta.get_field("user_name"), names.get(user_id, ""), list(made))
    collector.add_field_update(field, None, sub_objs)


class Change(models.Model):
    """One change to a session, kept to settle a dispute: who made it, when, on which move and player, the old
    value and the new. `user` is empty when a player entered his own score from his page."""

    class Field(models.TextChoices):
        SCORE = "score", _("score")
        WARNING = "warning", _("avertissement")
        PENALTY = "penalty", _("pénalité")
        DRAW = "draw", _("tirage")
        TOP = "top", _("top")
        PLAYER = "player", _("joueur")
        STATE = "state", _("état de la séance")

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="changes")
    at = models.DateTimeField(_("le"), auto_now_add=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=unlink_keeping_the_username, null=True, blank=True, related_name="+"
    )
    # The username of `user` once his account is deleted.
    user_name = models.CharField(max_length=150, blank=True, editable=False)
    round_number = models.PositiveSmallIntegerField(_("coup"), null=True, blank=True)
    player = models.ForeignKey(Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="changes")
    field = models.CharField(_("quoi"), max_length=20, choices=Field.choices)
    old = models.CharField(_("avant"), max_length=80, blank=True)
    new = models.CharField(_("après"), max_length=80, blank=True)

    class Meta:
        verbose_name = _("modification")
        verbose_name_plural = _("modifications")
        ordering = ["-at", "-pk"]

    def __str__(self):
        return f"{self.session} {self.field}: {self.old} → {self.new}"
