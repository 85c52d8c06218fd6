"""A duplicate session and its players: every player has the same draw, the top is placed after each move
(FISF règlement). Who may read or run a session, and whose seat is whose, are read together: each needs the
other's rows."""

import datetime
import secrets

from django.conf import settings
from django.contrib.contenttypes.fields import GenericRelation
from django.db import connections, models
from django.db.models import Case, Exists, F, IntegerField, OuterRef, Q, Subquery, Value, When
from django.db.models.functions import Coalesce, Mod
from django.urls import reverse
from django.utils import formats
from django.utils.functional import cached_property
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from clubsite.invitations import IN_HISTORY, InvitationRefused
from clubsite.models import LICENCE_VALIDATOR, Club, Invitation, Membership, Profile
from clubsite.sql import columns, instances
from scoring.engine.rules import move_time
from scoring.models import Edition, RuleSet

from .rounds import Result, Round


def _new_seed() -> int:
    return secrets.randbits(48)


def _new_key() -> str:
    return secrets.token_urlsafe(12)


def keep_shared_sessions(collector, field, sub_objs, using):
    """`Session.creator`'s on_delete: a member's account is deleted. A club's session stays with the club, and a
    personal one stays while another member plays in it (he reads it as before; nobody runs it any more): only
    the personal sessions nobody else could open go with him."""
    leaving = {user.pk for user in collector.data.get(field.remote_field.model, ())}
    others = Player.objects.filter(member__isnull=False).exclude(member__in=leaving)
    shared = Q(club__isnull=False) | Q(pk__in=others.values("session"))
    sessions = {session.pk: session for session in sub_objs}
    kept = set(Session.objects.filter(shared, pk__in=list(sessions)).values_list("pk", flat=True))
    collector.add_field_update(field, None, [sessions[pk] for pk in kept])
    alone = [session for pk, session in sessions.items() if pk not in kept]
    if alone:
        models.CASCADE(collector, field, alone, using)


def keep_played_sessions(collector, field, sub_objs, using):
    """`Session.club`'s on_delete: a club is deleted. Its sessions without a result go with it; one with results
    refuses the deletion (the admin lists them), since the players' results must not vanish with a club."""
    sessions = list(sub_objs)
    played = set(Result.objects.filter(round__session__in=sessions).values_list("round__session", flat=True))
    empty = [session for session in sessions if session.pk not in played]
    if empty:
        models.CASCADE(collector, field, empty, using)
    if played:
        raise models.ProtectedError(
            "A club whose sessions have results cannot be deleted.",
            [session for session in sessions if session.pk in played],
        )


def _stage():
    """The stage of the session the outer query reads (`SessionQuerySet.sealed_from`): 2 × its last move drawn, + 1
    once that move's top is placed; 0 before its first draw."""
    last = Round.objects.filter(session=OuterRef("pk")).order_by("-number")
    top_placed = Case(When(top="", then=Value(0)), default=Value(1))
    stage = last.annotate(stage=F("number") * 2 + top_placed).values("stage")[:1]
    return Coalesce(Subquery(stage, output_field=IntegerField()), Value(0))


def _beyond(his):
    """Whether the room the outer query reads (annotated with its `stage`) is beyond what `his` rooms (sessions)
    let their member read (`SessionQuerySet.sealed_from`): above the lowest stage among them in its simultané, or at
    it while a move of his is being played there and the room is not one of his."""
    his_rooms = his.filter(simultane=OuterRef("simultane")).annotate(stage=_stage())
    ahead = his_rooms.filter(stage__lt=OuterRef("stage"))
    playing = his_rooms.annotate(parity=Mod("stage", 2)).filter(stage__gt=0, parity=0)  # a move drawn, no top
    level_while_playing = playing.filter(stage=OuterRef("stage"))
    return Q(Exists(ahead)) | (Q(Exists(level_while_playing)) & ~Q(pk__in=his.values("pk")))


class SessionQuerySet(models.QuerySet):
    def organised_by(self, user):
        """Sessions a member runs: those of clubs he organises (a club admin counts), and his personal ones."""
        if not user.is_authenticated:
            return self.none()
        return self.filter(Q(club__in=Club.objects.organised_by(user)) | Q(club__isnull=True, creator=user))

    def visible_to(self, user):
        """Sessions a member may read: those he runs, those of his clubs, those he plays in, and the rooms of the
        simultanés his federation body prepares once their ranking is closed (before, a room ahead would show him
        draws the game keeps sealed from him, who may run or play in a slower room; the combined ranking is his
        to follow live); none of the rooms sealed from him (`sealed_from`). Their consoles stay their clubs'. The
        others are answered as if they did not exist, so that nobody can probe which ids do."""
        if not user.is_authenticated:
            return self.none()
        readable = self.filter(
            Q(club__in=Club.objects.for_user(user))
            | Q(club__isnull=True, creator=user)
            | Q(pk__in=Player.objects.filter(member=user).values("session"))
            | Q(
                simultane__body__in=Club.objects.organised_by(user).bodies(),
                simultane__first_closed_at__isnull=False,
            )
        )
        return readable.unsealed_for(user)

    def sealed_from(self, user):
        """The simultané rooms `user` may not read yet, whatever else lets him read them (his club, a seat, running
        it): a sealed game stays sealed until the simultané's ranking is closed (`Simultane.is_over`).

        His rooms in an open simultané S are the rooms of S where he holds a seat (`Player.member`, or an invitation to
        one he has not answered: a seat typed "@username" is his while he has not answered, since its phone link plays
        all the same) or that he runs (`organised_by`); with none, S seals nothing from him, and a club's member reads
        his club's room as any session. A declined invitation is no seat of his. A seat he has not accepted never seals
        a room he runs (issue 23's trial: anyone could seat "@alice" in a room of his, and Alice, drawing in her own
        room, lost its console and the simultané could not close): only the rooms he runs and the seats he took set the
        limit of those. A room's stage is 2 × the number of its last move drawn, + 1 once that move's top is placed (0
        before its first draw); his limit in S is the lowest stage among his rooms. Every room of S above it, his own
        included, is sealed from him: a room ahead would show him draws and tops his slower room has not reached.
        Another room at his limit while a move of his is still being played is sealed too: its bulletins on that same
        move would tell him what others found (issue 22's trial). An arbiter running his room alone is at its stage and
        sees it all; a club's organiser who plays in a slower room loses his own room's console until the slower one
        catches up or the ranking is closed. A simultané once closed seals nothing, even if its ranking is reopened: its
        whole game was open.

        The room's public links (its projector `salle/<key>`, its ranking `classement/<key>`, a player's phone
        `joueur/<key>`) are handed out inside that room and do not ask: whoever holds one is in that room.

        Evaluated within the caller's query (subqueries): it costs no query of its own."""
        if not user.is_authenticated:
            return self.none()
        taken = Session.objects.taken_part_by(user)
        invited = Session.objects.taken_part_by(user, invited=True)
        running = Session.objects.organised_by(user).values("pk")
        rooms = self.filter(simultane__isnull=False, simultane__first_closed_at__isnull=True)
        rooms = rooms.annotate(stage=_stage())
        return rooms.filter(_beyond(taken) | (_beyond(invited) & ~Q(pk__in=running)))

    def taken_part_by(self, user, *, invited=False):
        """The sessions `user` runs or holds a seat in; with `invited`, also those he is invited to a seat in and
        has not answered (see `sealed_from`)."""
        seats = Q(member=user)
        if invited:
            seats |= Q(invitations__invitee=user, invitations__status=Invitation.Status.PENDING)
        running = Session.objects.organised_by(user).values("pk")
        return self.filter(Q(pk__in=running) | Q(pk__in=Player.objects.filter(seats).values("session")))

    def unsealed_for(self, user):
        """These sessions but those sealed from `user` (`sealed_from`)."""
        return self.exclude(pk__in=Session.objects.sealed_from(user).values("pk"))

    def played_by(self, user):
        if not user.is_authenticated:
            return self.none()
        return self.filter(players__member=user).distinct()


class Session(models.Model):
    class Entry(models.TextChoices):
        ARBITER = "arbiter", _("L'arbitre, depuis les bulletins")
        PLAYERS = "players", _("Les joueurs, sur leur téléphone")
        BOTH = "both", _("Les deux")

    club = models.ForeignKey(
        "clubsite.Club", on_delete=keep_played_sessions, null=True, blank=True, related_name="duplicate_sessions"
    )
    # Empty once its creator's account is deleted (keep_shared_sessions).
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=keep_shared_sessions, null=True, blank=True, related_name="+"
    )
    name = models.CharField(_("nom"), max_length=120)
    date = models.DateField(_("date"))
    edition = models.ForeignKey(Edition, on_delete=models.PROTECT, verbose_name=_("édition"))
    rule_set = models.ForeignKey(RuleSet, on_delete=models.PROTECT, verbose_name=_("règles"))
    move_seconds = models.PositiveSmallIntegerField(_("temps par coup (secondes)"))
    entry = models.CharField(_("saisie des scores"), max_length=10, choices=Entry.choices, default=Entry.ARBITER)
    automatic = models.BooleanField(
        _("partie automatique"), default=False, help_text=_("Le serveur tire et place le top de chaque coup.")
    )
    # "Rejouer cette séance": an automatic game played on another session's draws, against its tops.
    replay_of = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="replays", verbose_name=_("rejeu de")
    )
    # A game file's moves (duplicate.games), played in order; None for a session that draws its own.
    game = models.JSONField(null=True, blank=True, editable=False)
    # The simultané whose game this room plays; its results join the simultané's combined ranking.
    simultane = models.ForeignKey(
        "Simultane", null=True, blank=True, on_delete=models.PROTECT, related_name="rooms", verbose_name=_("simultané")
    )
    seed = models.BigIntegerField(_("graine du tirage"), default=_new_seed)
    public_key = models.CharField(max_length=24, unique=True, default=_new_key, editable=False)
    version = models.PositiveIntegerField(default=0, editable=False)
    timer_started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = SessionQuerySet.as_manager()

    class Meta:
        verbose_name = _("séance de duplicate")
        verbose_name_plural = _("séances de duplicate")
        ordering = ["-date", "-pk"]
        constraints = [
            # A club plays a simultané in one room: a second one would read its sealed game ahead of the first.
            models.UniqueConstraint(
                fields=["simultane", "club"], condition=Q(simultane__isnull=False), name="one_room_per_club"
            ),
        ]

    def __str__(self):
        return self.name

    @cached_property
    def edition_engine(self):
        return Edition.objects.engine(self.edition.code)

    @cached_property
    def rules_engine(self):
        return RuleSet.objects.engine(self.rule_set.code)

    @property
    def plays_a_game(self) -> bool:
        """Whether its draws and tops come from a game given beforehand: a replay, a game file, a simultané."""
        return bool(self.replay_of_id or self.game is not None or self.simultane_id)

    @property
    def warning_rule(self) -> str:
        """What an avertissement costs in this session, as its rule set says, blitz or not."""
        rules = self.rules_engine
        blitz = rules.is_blitz(self.move_seconds)
        figures = {
            "points": rules.duplicate_penalty,
            "seconds": rules.blitz_move_seconds,
            "nth": _nth(rules.warnings_threshold(blitz)),
            "other": _nth(rules.warnings_threshold(not blitz)),
        }
        if blitz:
            return (
                gettext(
                    "Séance en blitz (%(seconds)d s par coup au plus) : un avertissement coûte %(points)d points "
                    "à partir du %(nth)s (du %(other)s hors blitz)."
                )
                % figures
            )
        return (
            gettext(
                "Un avertissement coûte %(points)d points à partir du %(nth)s (du %(other)s en blitz, à "
                "%(seconds)d s par coup ou moins)."
            )
            % figures
        )

    @property
    def players_enter_scores(self) -> bool:
        return self.entry in (self.Entry.PLAYERS, self.Entry.BOTH)

    @property
    def move_time(self) -> str:
        """The time per move as the form offered it: "3 min", "2 min 30"."""
        return move_time(self.move_seconds)

    @property
    def deadline(self) -> datetime.datetime | None:
        """When the move's time runs out, on the server's clock: every screen counts down to this same instant
        whatever its own clock says. None until the timer is started."""
        if self.timer_started_at is None:
            return None
        return self.timer_started_at + datetime.timedelta(seconds=self.move_seconds)

    def player_entry_refusal(self, round_: "Round | None", now, *, current=...) -> str:
        """Why a player may not write his own result on `round_` from his page, or "" when he may: only on the
        move being played (`current`, read here unless the caller has it), before its top is revealed and, in a
        session run by an arbiter's clock, before the deadline. After that, only the arbiter changes a result
        (FISF: the bulletins are collected at zero)."""
        if self.finished_at:
            return gettext("La séance est terminée : rouvrez-la pour la modifier.")
        if current is ...:
            current = self.current_round()
        if round_ is None or round_.pk != getattr(current, "pk", None):
            return gettext("Ce coup n'est plus en cours.")
        if round_.top:
            if self.automatic:  # no arbiter: the move is played
                return gettext("Le top est révélé : ce coup est joué.")
            return gettext("Le top est révélé : seul l'arbitre peut encore changer votre score.")
        if not self.automatic and self.deadline is not None and now > self.deadline:
            return gettext("Le temps du coup est écoulé : remettez votre bulletin à l'arbitre.")
        return ""

    def phase(self, round_: "Round | None", now) -> tuple[str, str]:
        """Where the move being played stands, as every screen shows it: (code, French label). A move goes from
        its draw to the thinking time (the timer), writing closed at the deadline, then the top revealed; it is
        closed when the next one is drawn."""
        if self.finished_at:
            return "finished", gettext("Séance terminée")
        if round_ is None:
            return "waiting", gettext("En attente du premier tirage")
        if round_.top:
            return "top", gettext("Top révélé")
        if self.deadline is None:
            return "drawn", gettext("Tirage fait : le chrono n'est pas lancé")
        if now > self.deadline and not self.automatic:
            return "closed", gettext("Temps écoulé : bulletins ramassés")
        return "thinking", gettext("Réflexion")

    def current_round(self) -> "Round | None":
        """The move being played: the last one drawn (its top may still be missing), None before the first draw."""
        return self.rounds.order_by("number").last()

    def is_organiser(self, user) -> bool:
        if not user.is_authenticated:
            return False
        if self.club_id is None:
            return self.creator_id == user.pk
        # One query, without loading the club: every bulletin sent through the API asks.
        organising = Membership.objects.filter(club_id=self.club_id, user=user, role__in=Membership.Role.organising())
        return organising.exists()

    def touch(self):
        """Something the room's screens show changed: pages polling them fetch them again. One UPDATE, safe under
        concurrency. A result on the move being played does not touch it (services.results._result_written)."""
        Session.objects.filter(pk=self.pk).update(version=F("version") + 1)

    def changes_made(self) -> int:
        """How many changes the session has had, each kept once in its history (results, marks, draws, tops,
        players, its state): it grows with every one, in the order they commit, so an export built from a
        count is the session's file until it grows."""
        return self.changes.count()


class PlayerQuerySet(models.QuerySet):
    def recap_readable_by(self, user):
        """The players whose own recap a member may read: his own seats, every player of the sessions he runs, and
        every player of the rooms of the simultanés his federation body prepares, once closed (as `visible_to`);
        none in a room sealed from him (`SessionQuerySet.sealed_from`), his own seat's included. Nobody else reads a
        player's recap, his club's other members included (they read the game's recap)."""
        if not user.is_authenticated:
            return self.none()
        readable = self.filter(
            Q(member=user)
            | Q(session__in=Session.objects.organised_by(user))
            | Q(
                session__simultane__body__in=Club.objects.organised_by(user).bodies(),
                session__simultane__first_closed_at__isnull=False,
            )
        )
        return readable.exclude(session__in=Session.objects.sealed_from(user).values("pk"))

    def by_key(self, key: str) -> "tuple[Player, Round | None] | None":
        """The player whose personal link this is, his session loaded, and the move being played (None before the
        first draw); None for a key nobody has. One query written in SQL (clubsite.sql): each of the 500 phones
        of a room asks every 3 s."""
        sql = (
            f"SELECT {columns(Player, 'p')}, {columns(Session, 's')}, {columns(Round, 'r')} FROM duplicate_player p "
            "JOIN duplicate_session s ON s.id = p.session_id LEFT JOIN duplicate_round r ON r.session_id = s.id "
            "AND r.number = (SELECT MAX(number) FROM duplicate_round WHERE session_id = s.id) WHERE p.key = %s"
        )
        with connections[self.db].cursor() as cursor:
            cursor.execute(sql, [key])
            row = cursor.fetchone()
        if row is None:
            return None
        player, session, current = instances(self.db, row, Player, Session, Round)
        player.session = session
        if current is not None:
            current.session = session
        return player, current

    def with_result_on(self, round_: "Round", ids) -> list["Player"]:
        """The players of the move's session among `ids`, each with his result on it as a bulletin is about to
        replace it, `result_before` = (score, move), (None, "") for none. One query written in SQL
        (clubsite.sql): every bulletin takes it."""
        ids = list(ids)
        sql = (
            f"SELECT {columns(Player, 'p')}, r.score, r.move FROM duplicate_player p "
            "LEFT JOIN duplicate_result r ON r.player_id = p.id AND r.round_id = %s "
            f"WHERE p.session_id = %s AND p.id IN ({', '.join(['%s'] * len(ids))})"
        )
        with connections[self.db].cursor() as cursor:
            cursor.execute(sql, [round_.pk, round_.session_id, *ids])
            rows = cursor.fetchall()
        players = []
        for row in rows:
            (player,) = instances(self.db, row, Player)
            player.result_before = (row[-2], row[-1] or "")
            players.append(player)
        return players


class Player(models.Model):
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(_("nom"), max_length=80)
    member = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    table = models.PositiveIntegerField(_("table"), null=True, blank=True)
    absent = models.BooleanField(_("absent (forfait)"), default=False)
    # The player as the federation knows him, printed in the exports: his licence, his own club (as written, not
    # one of the site's clubs) and his series.
    licence = models.CharField(_("licence"), max_length=20, blank=True, validators=[LICENCE_VALIDATOR])
    club_name = models.CharField(_("club"), max_length=80, blank=True)
    series = models.CharField(_("série"), max_length=10, blank=True)
    key = models.CharField(max_length=24, unique=True, default=_new_key, editable=False)
    # A member invited to this seat (clubsite.invitations): `member` is set only once he accepts.
    invitations = GenericRelation("clubsite.Invitation", content_type_field="target_type", object_id_field="target_id")

    objects = PlayerQuerySet.as_manager()

    class Meta:
        verbose_name = _("joueur")
        verbose_name_plural = _("joueurs")
        ordering = ["table", "name", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["session", "table"], name="one_player_per_table"),
        ]

    def __str__(self):
        return self.name

    # The seat as clubsite.invitations.Seat.

    def invitation_text(self) -> str:
        session = self.session
        return gettext("Séance de duplicate « %(session)s » du %(date)s, sous le nom « %(name)s ».") % {
            "session": session.name,
            "date": formats.date_format(session.date, "j F Y"),
            "name": self.name,
        }

    def link_member(self, user) -> None:
        if self.session.players.filter(member=user).exclude(pk=self.pk).exists():
            raise InvitationRefused(gettext("Vous figurez déjà dans cette séance."))
        # A simultané's game is played once: in a second room he would play moves he has seen in the first.
        simultane = self.session.simultane_id
        seats = Player.objects.filter(member=user, session__simultane=simultane).exclude(session=self.session_id)
        if simultane is not None and seats.exists():
            raise InvitationRefused(gettext("Vous figurez déjà dans une autre salle de ce simultané."))
        self.member = user
        # The member's licence fills the seat's when the line gave none. His name stays the one typed: his full name
        # is his own (a seat may be shown on a projector); the arbiter renames the seat if the room wants it.
        self.licence = self.licence or Profile.licence_of(user)
        self.save(update_fields=["member", "licence"])

    def linked_url(self) -> str:
        return reverse("duplicate:recap", args=[self.session_id])

    def accepted_text(self) -> str:
        return str(IN_HISTORY)

    def recap_url(self) -> str:
        return reverse("duplicate:player_recap", args=[self.session_id, self.pk])


def _nth(number: int) -> str:
    """A French ordinal: 1er, 4e."""
    return gettext("1er") if number == 1 else gettext("%(number)de") % {"number": number}
