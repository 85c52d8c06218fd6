"""Classic games kept by members: players, and the lines of the score sheet."""

from itertools import groupby

from django.conf import settings
from django.contrib.contenttypes.fields import GenericRelation
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from clubsite.invitations import IN_HISTORY, InvitationRefused
from scoring.models import Edition, RuleSet


def pass_to_another_player(collector, field, sub_objs, using):
    """`Game.owner`'s on_delete: a member's account is deleted. Each game he keeps passes to the first member
    linked to another seat, so that the other players keep it in their history and can go on with it; a game no
    other member plays in goes with him (nobody else could open it)."""
    leaving = {user.pk for user in collector.data.get(field.remote_field.model, ())}
    games = {game.pk: game for game in sub_objs}
    heirs = {}
    seats = Player.objects.filter(game__in=list(games), member__isnull=False).exclude(member__in=leaving)
    for game_id, member_id in seats.order_by("game", "position").values_list("game", "member"):
        heirs.setdefault(game_id, member_id)
    for heir in set(heirs.values()):
        collector.add_field_update(field, heir, [games[pk] for pk, member in heirs.items() if member == heir])
    orphans = [game for pk, game in games.items() if pk not in heirs]
    if orphans:
        models.CASCADE(collector, field, orphans, using)


def unlink_keeping_the_name(collector, field, sub_objs, using):
    """`Player.member`'s on_delete: a member's account is deleted. His seats are unlinked but keep the name the
    sheets showed for him, so that the other players' games still say who they played against."""
    names = {
        user.pk: (user.get_full_name() or user.get_username())[:60]
        for user in collector.data.get(field.remote_field.model, ())
    }
    unnamed = Player.objects.filter(pk__in=[seat.pk for seat in sub_objs], name="")
    for member_id, seats in groupby(unnamed.order_by("member", "pk"), key=lambda seat: seat.member_id):
        collector.add_field_update(Player._meta.get_field("name"), names.get(member_id, ""), list(seats))
    collector.add_field_update(field, None, sub_objs)


class GameQuerySet(models.QuerySet):
    def for_user(self, user):
        """The games a member may open: his own, and those where a player is linked to him."""
        return self.filter(Q(owner=user) | Q(players__member=user)).distinct()

    def newest_first(self):
        return self.order_by("-created_at", "-pk")


class Game(models.Model):
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=pass_to_another_player, related_name="games")
    edition = models.ForeignKey(Edition, on_delete=models.PROTECT, verbose_name=_("édition"))
    rule_set = models.ForeignKey(RuleSet, on_delete=models.PROTECT, verbose_name=_("règles"))
    timer_seconds = models.PositiveSmallIntegerField(_("chrono par coup (secondes)"), default=0)
    created_at = models.DateTimeField(_("créée le"), auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(_("terminée le"), null=True, blank=True)
    imported_from = models.CharField(_("importée de"), max_length=200, blank=True)

    objects = GameQuerySet.as_manager()

    class Meta:
        verbose_name = _("partie")
        verbose_name_plural = _("parties")
        ordering = ["-created_at", "-pk"]

    def __str__(self):
        return ", ".join(player.display_name for player in self.players.all())

    @property
    def is_finished(self) -> bool:
        return self.finished_at is not None

    def engine_edition(self):
        return Edition.objects.engine(self.edition.code)

    def engine_rules(self):
        return RuleSet.objects.engine(self.rule_set.code)

    def is_visible_to(self, user) -> bool:
        return user.is_authenticated and (
            self.owner_id == user.pk or any(player.member_id == user.pk for player in self.players.all())
        )


class Player(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="players")
    position = models.PositiveSmallIntegerField()
    name = models.CharField(_("nom"), max_length=60, blank=True)
    member = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=unlink_keeping_the_name,
        null=True,
        blank=True,
        related_name="sheet_players",
        verbose_name=_("membre"),
    )
    rack_left = models.CharField(_("lettres restantes"), max_length=30, blank=True)
    rack_value = models.SmallIntegerField(_("valeur des lettres restantes"), null=True, blank=True)
    # A member invited to this seat (clubsite.invitations): `member` is set only once he accepts.
    invitations = GenericRelation("clubsite.Invitation", content_type_field="target_type", object_id_field="target_id")

    class Meta:
        verbose_name = _("joueur")
        verbose_name_plural = _("joueurs")
        ordering = ["position"]
        constraints = [models.UniqueConstraint(fields=["game", "position"], name="one_player_per_seat")]

    def __str__(self):
        return self.display_name

    @property
    def display_name(self) -> str:
        if self.name:
            return self.name
        if self.member:
            return self.member.get_full_name() or self.member.get_username()
        return _("Joueur %(number)d") % {"number": self.position + 1}

    # The seat as clubsite.invitations.Seat.

    def invitation_text(self) -> str:
        owner = self.game.owner
        return gettext("Partie classique du %(date)s tenue par %(owner)s, à la place de « %(name)s ».") % {
            "date": formats.date_format(timezone.localtime(self.game.created_at), "j F Y"),
            "owner": owner.get_full_name() or owner.get_username(),
            "name": self.display_name,
        }

    def link_member(self, user) -> None:
        if self.game.players.filter(member=user).exclude(pk=self.pk).exists():
            raise InvitationRefused(gettext("Vous figurez déjà dans cette partie."))
        self.member = user
        self.save(update_fields=["member"])

    def linked_url(self) -> str:
        return reverse("sheets:game", args=[self.game_id])

    def accepted_text(self) -> str:
        return str(IN_HISTORY)


class Line(models.Model):
    """One line of the sheet. Plays, passes, exchanges and withdrawn words use the player's turn; a lost
    challenge and a penalty do not."""

    class Kind(models.TextChoices):
        PLAY = "play", _("Coup")
        PASS = "pass", _("Passe")
        # Not "Change": Django's own French catalogue translates that word as "Modification" (the admin's verb).
        EXCHANGE = "exchange", _("Échange")
        WITHDRAWN = "withdrawn", _("Mot repris")
        CHALLENGE = "challenge", _("Contestation perdue")
        PENALTY = "penalty", _("Pénalité")
        BOARD = "board", _("Posé sans marquer")

    TURN_KINDS = (Kind.PLAY, Kind.PASS, Kind.EXCHANGE, Kind.WITHDRAWN)

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="lines")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="lines")
    kind = models.CharField(max_length=12, choices=Kind.choices, default=Kind.PLAY)
    points = models.IntegerField(_("points"), default=0)
    move = models.CharField(
        _("coup posé"), max_length=40, blank=True, help_text=_("Notation FISF, coup posé sur la grille.")
    )
    detail = models.CharField(_("détail"), max_length=400, blank=True)
    # A play counted in typed mode is on no board: its new tiles (`?` a blank) still leave the tile tracking.
    tiles = models.JSONField(_("jetons posés (saisie tapée)"), default=list, blank=True)
    recorded_points = models.IntegerField(_("points écrits dans le fichier importé"), null=True, blank=True)
    # The rack the turn was played from (`?` a blank), when known: a GCG import carries it, a member may type it.
    # The review finds the best moves it allowed.
    rack = models.CharField(_("tirage"), max_length=30, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("ligne")
        verbose_name_plural = _("lignes")
        ordering = ["pk"]

    def __str__(self):
        return f"{self.player}: {self.points}"

    @property
    def uses_turn(self) -> bool:
        return self.kind in self.TURN_KINDS

    @property
    def is_editable(self) -> bool:
        """Whether the line's points may be corrected: a play's and a penalty's are typed, the others follow
        from the rules (delete the line instead), and a finished game is reopened before any correction."""
        return self.kind in (self.Kind.PLAY, self.Kind.PENALTY) and not self.game.is_finished

    @property
    def takes_rack(self) -> bool:
        """A turn is played from a rack; a penalty, a lost challenge or a move placed without scoring is not."""
        return self.uses_turn

    def rack_editable_by(self, user) -> bool:
        """The member who keeps the sheet types any move's rack; a linked player, the racks of his own moves (he
        alone saw them). A rack changes no score, so a finished game takes it too."""
        return self.takes_rack and (self.game.owner_id == user.pk or self.player.member_id == user.pk)

    @property
    def mismatch(self) -> bool:
        """An imported move whose written score differs from the engine's."""
        return self.recorded_points is not None and self.recorded_points != self.points
