"""Duplicate sessions: every player has the same draw, the top is placed after each move (FISF règlement)."""

import datetime
import secrets
from itertools import groupby

from django.conf import settings
from django.contrib.contenttypes.fields import GenericRelation
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import connections, models
from django.db.models import Case, Exists, F, IntegerField, OuterRef, Q, Subquery, Value, When
from django.db.models.functions import Coalesce, Mod
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.functional import cached_property
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from clubsite.invitations import InvitationRefused
from clubsite.models import LICENCE_VALIDATOR, Club, Membership, Profile
from clubsite.sql import columns, instances
from scoring.models import Edition, RuleSet


def _new_seed() -> int:
    return secrets.randbits(48)


def _new_key() -> str:
    return secrets.token_urlsafe(12)


def move_time(move_seconds: int) -> str:
    """A time per move as the forms offer it: "3 min", "2 min 30", "45 s"."""
    minutes, seconds = divmod(move_seconds, 60)
    if not minutes:
        return f"{seconds} s"
    return f"{minutes} min {seconds:02d}" if seconds else f"{minutes} min"


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


def keep_club_tournaments(collector, field, sub_objs, using):
    """`Tournament.creator`'s on_delete: a club's tournament stays with the club, whose organisers run it; a
    club-less one, which only its creator ran, goes with him (its sessions stay: it only grouped them)."""
    tournaments = list(sub_objs)
    collector.add_field_update(field, None, [t for t in tournaments if t.club_id is not None])
    personal = [t for t in tournaments if t.club_id is None]
    if personal:
        models.CASCADE(collector, field, personal, using)


def unlink_keeping_the_username(collector, field, sub_objs, using):
    """`Change.user`'s on_delete: a member's account is deleted. The session's history keeps who made each change
    (an arbiter's correction must not read as the player's own entry)."""
    names = {user.pk: user.get_username()[:150] for user in collector.data.get(field.remote_field.model, ())}
    changes = Change.objects.filter(pk__in=[change.pk for change in sub_objs]).order_by("user", "pk")
    for user_id, made in groupby(changes, key=lambda change: change.user_id):
        collector.add_field_update(Change._meta.get_field("user_name"), names.get(user_id, ""), list(made))
    collector.add_field_update(field, None, sub_objs)


def _stage():
    """The stage of the session the outer query reads (`SessionQuerySet.sealed_from`): 2 × its last move drawn, + 1
    once that move's top is placed; 0 before its first draw."""
    last = Round.objects.filter(session=OuterRef("pk")).order_by("-number")
    top_placed = Case(When(top="", then=Value(0)), default=Value(1))
    stage = last.annotate(stage=F("number") * 2 + top_placed).values("stage")[:1]
    return Coalesce(Subquery(stage, output_field=IntegerField()), Value(0))


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

        His rooms in an open simultané S are the rooms of S where he holds a seat (`Player.member`, or an invitation
        to one: a seat typed "@username" is his while he has not answered, since its phone link plays all the same)
        or that he runs (`organised_by`); with none, S seals nothing from him, and a club's member reads his club's
        room as any session. A room's stage is 2 × the number of its last move drawn, + 1 once that move's top is
        placed (0 before its first draw); his limit in S is the lowest stage among his rooms. Every room of S above
        it, his own included, is sealed from him: a room ahead would show him draws and tops his slower room has
        not reached. Another room at his limit while a move of his is still being played is sealed too: its
        bulletins on that same move would tell him what others found (issue 22's trial). An arbiter running his room
        alone is at its stage and sees it all; a club's organiser who plays in a slower room loses his own room's
        console until the slower one catches up or the ranking is closed. A simultané once closed seals nothing,
        even if its ranking is reopened: its whole game was open.

        The room's public links (its projector `salle/<key>`, its ranking `classement/<key>`, a player's phone
        `joueur/<key>`) are handed out inside that room and do not ask: whoever holds one is in that room.

        Evaluated within the caller's query (subqueries): it costs no query of its own."""
        if not user.is_authenticated:
            return self.none()
        his = Session.objects.taken_part_by(user)
        his_rooms = his.filter(simultane=OuterRef("simultane")).annotate(stage=_stage())
        ahead = his_rooms.filter(stage__lt=OuterRef("stage"))
        playing = his_rooms.annotate(parity=Mod("stage", 2)).filter(stage__gt=0, parity=0)  # a move drawn, no top
        level_while_playing = playing.filter(stage=OuterRef("stage"))
        rooms = self.filter(simultane__isnull=False, simultane__first_closed_at__isnull=True)
        rooms = rooms.annotate(stage=_stage())
        return rooms.filter(Q(Exists(ahead)) | (Q(Exists(level_while_playing)) & ~Q(pk__in=his.values("pk"))))

    def taken_part_by(self, user):
        """The sessions `user` runs or holds a seat in, or has been invited to one (see `sealed_from`)."""
        seats = Player.objects.filter(Q(member=user) | Q(invitations__invitee=user))
        running = Session.objects.organised_by(user).values("pk")
        return self.filter(Q(pk__in=running) | Q(pk__in=seats.values("session")))

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
    move_seconds = models.PositiveSmallIntegerField(_("temps par coup (secondes)"), default=180)
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
    move_seconds = models.PositiveSmallIntegerField(_("temps par coup (secondes)"), default=180)
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

    def recap_url(self) -> str:
        return reverse("duplicate:player_recap", args=[self.session_id, self.pk])


class RoundQuerySet(models.QuerySet):
    def writable_by(self, user, session_pk: int, number: int) -> "Round | None":
        """Move `number` of the session, with the session and its rule set loaded, if `user` runs it (as
        `Session.objects.organised_by`) and it is not sealed from him (`Session.objects.sealed_from`); None
        otherwise, or when there is no such move. One query written in SQL (clubsite.sql): every bulletin sent
        through the API asks; a simultané's room takes a second one, for its seal."""
        if not user.is_authenticated or not (0 < session_pk < 2**63 and 0 < number < 2**15):
            return None  # an id beyond its column names no move (the ORM says so itself; raw SQL would overflow)
        organising = Membership.Role.organising()
        sql = (
            f"SELECT {columns(Round, 'r')}, {columns(Session, 's')}, {columns(RuleSet, 'rs')} FROM duplicate_round r "
            "JOIN duplicate_session s ON s.id = r.session_id "
            f"JOIN {RuleSet._meta.db_table} rs ON rs.id = s.rule_set_id WHERE r.session_id = %s AND r.number = %s "
            f"AND ((s.club_id IS NULL AND s.creator_id = %s) OR EXISTS (SELECT 1 FROM {Membership._meta.db_table} m "
            f"WHERE m.club_id = s.club_id AND m.user_id = %s AND m.role IN ({', '.join(['%s'] * len(organising))})))"
        )
        with connections[self.db].cursor() as cursor:
            cursor.execute(sql, [session_pk, number, user.pk, user.pk, *organising])
            row = cursor.fetchone()
        if row is None:
            return None
        round_, session, rule_set = instances(self.db, row, Round, Session, RuleSet)
        if session.simultane_id is not None and Session.objects.sealed_from(user).filter(pk=session.pk).exists():
            return None
        session.rule_set = rule_set  # its figures bound every bulletin (max_move_points)
        round_.session = session
        return round_

    def with_result_of(self, player: "Player") -> "list[tuple[Round, Result | None]]":
        """The moves of the player's session, in order, each with his result on it (None where none). One query
        written in SQL (clubsite.sql): each of the 500 phones of a room reads it with its page."""
        sql = (
            f"SELECT {columns(Round, 'r')}, {columns(Result, 'x')} FROM duplicate_round r "
            "LEFT JOIN duplicate_result x ON x.round_id = r.id AND x.player_id = %s "
            "WHERE r.session_id = %s ORDER BY r.number"
        )
        with connections[self.db].cursor() as cursor:
            cursor.execute(sql, [player.pk, player.session_id])
            rows = cursor.fetchall()
        return [tuple(instances(self.db, row, Round, Result)) for row in rows]


class Round(models.Model):
    """One move of the session: its draw (club notation) and its top, placed on the board for the next move."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    draw = models.CharField(_("tirage"), max_length=40)
    rejets = models.PositiveSmallIntegerField(default=0)
    drawn_by_server = models.BooleanField(default=False)
    top = models.CharField(_("top"), max_length=40, blank=True)
    top_score = models.PositiveIntegerField(null=True, blank=True)
    # The best moves the top finder sees for the draw, best first: [{"move": "H4 VAGUE", "score": 26}, ...]
    suggestions = models.JSONField(default=list, blank=True)
    # False when the search stopped at its time limit: the moves found until then, the best maybe missing.
    suggestions_complete = models.BooleanField(default=True)

    objects = RoundQuerySet.as_manager()

    class Meta:
        verbose_name = _("coup")
        verbose_name_plural = _("coups")
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["session", "number"], name="one_round_per_number")]

    def __str__(self):
        return f"{self.session} #{self.number}"

    @property
    def draw_parts(self) -> tuple[bool, str, str]:
        """(after a rejet, letters kept, letters drawn) from the club notation: `-EAUIOZT`, `EU+ACC?N`."""
        text = self.draw
        rejet = text.startswith("-")
        text = text.removeprefix("-")
        kept, plus, new = text.partition("+")
        return (rejet, kept, new) if plus else (rejet, "", kept)

    @property
    def top_square(self) -> str:
        """The top's reference, "H4" (across) or "4H" (down), as the recap prints it beside the word."""
        return self.top.partition(" ")[0]

    @property
    def top_word(self) -> str:
        return self.top.partition(" ")[2]

    @property
    def top_below_best(self) -> bool:
        """Whether the placed top is worth less than the best move the top finder saw: the arbiter may have
        missed it. The page only warns, since the finder's word list is a free one, not the ODS."""
        return bool(self.top and self.suggestions and self.top_score < self.suggestions[0]["score"])


ZERO_REASON = gettext_noop("Zéro donné par l'arbitre")  # translated when written and when read


class ResultQuerySet(models.QuerySet):
    def zero_marks(self):
        """The results the arbiter gave a zero (`Result.is_zero_mark`), which the recap and the files mark."""
        return self.filter(score=0, reason=gettext(ZERO_REASON))


class Result(models.Model):
    """A player's result on a move; one per player and move, enforced by the database."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="results")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="results")
    # None while the arbiter has only marked the player (a warning, a penalty) and no bulletin came in.
    score = models.PositiveIntegerField(_("score"), null=True, blank=True, default=None)
    move = models.CharField(_("coup joué"), max_length=40, blank=True)
    reason = models.CharField(_("motif"), max_length=300, blank=True)
    warning = models.BooleanField(_("avertissement"), default=False)
    penalty = models.PositiveSmallIntegerField(_("pénalité"), default=0)
    updated_at = models.DateTimeField(auto_now=True)

    objects = ResultQuerySet.as_manager()

    class Meta:
        verbose_name = _("résultat")
        verbose_name_plural = _("résultats")
        constraints = [models.UniqueConstraint(fields=["round", "player"], name="one_result_per_player_and_move")]

    def __str__(self):
        return f"{self.player}: {self.score}"

    @property
    def is_zero_mark(self) -> bool:
        """Whether the arbiter gave this result a zero (a "0" button shown pressed)."""
        return self.score == 0 and self.reason == gettext(ZERO_REASON)


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


class ExportJob(models.Model):
    """An export of a large session, built by a Celery worker; the file waits here for its download."""

    class Status(models.TextChoices):
        PENDING = "pending", _("En attente")
        RUNNING = "running", _("En cours")
        DONE = "done", _("Prêt")
        FAILED = "failed", _("Échec")

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="export_jobs")
    kind = models.CharField(max_length=12)
    # The session's `changes_made()` when the file was built: the same results are not exported twice.
    session_version = models.PositiveIntegerField(default=0)
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    progress = models.PositiveSmallIntegerField(default=0)
    content = models.BinaryField(blank=True, default=b"")
    error = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # When the job last moved (queued, started, a step of progress): one that has not moved for
    # DUPLICATE_EXPORT_STUCK_SECONDS has lost its worker.
    updated_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("export")
        verbose_name_plural = _("exports")
        ordering = ["-created_at"]

    def __str__(self):
        return f"{self.session} ({self.kind})"

    @staticmethod
    def stuck_before() -> datetime.datetime:
        """A job still waiting or running that has not moved since this is stuck: its worker died or never got
        it (`services.export_jobs.export_mark_stuck` marks it failed)."""
        return timezone.now() - datetime.timedelta(seconds=settings.DUPLICATE_EXPORT_STUCK_SECONDS)

    @property
    def is_waiting_long(self) -> bool:
        """Still waiting for a worker 15 s after it was asked for: the workers are busy, or none is running."""
        return self.status == self.Status.PENDING and timezone.now() - self.created_at > datetime.timedelta(seconds=15)


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


def _nth(number: int) -> str:
    """A French ordinal: 1er, 4e."""
    return gettext("1er") if number == 1 else gettext("%(number)de") % {"number": number}
