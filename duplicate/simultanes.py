"""Simultanés: a federation body's game played by rooms of several clubs, ranked together (README, "Simultanés").

The body prepares the game (drawn by the server ahead of time, or read from a game file); each club's organiser
registers a room, which is an ordinary session playing that game (`Session.simultane`, `rounds.round_add`). The
combined ranking reads every room's results live.

Solos (§3.5) count within each room, for that room's players and by its own count of players present: a solo is
a move nobody else in the room found, which the room's arbiter announces and the room's screens show, and a
ranking across the rooms must not change the totals the players saw in their room. So a player's total in the
combined ranking is his room's total.
"""

import hashlib
import secrets
import unicodedata
from collections import Counter
from dataclasses import dataclass, field, replace

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import Value
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.engine.ranking import move_points, percent_of, rank_points, shared_places
from scoring.models import Edition, RuleSet, move_index

from . import games
from .errors import Conflict, DuplicateError
from .models import Result, Round, Session, Simultane
from .services.rankings import ranking_inputs
from .services.rounds import rounds_drawn
from .services.sessions import offered_move_seconds, session_create


def _engines(code):
    edition = Edition.objects.named(code).first() if code else None
    return None if edition is None else Edition.objects.engine(edition.code)


def simultane_create(*, body, creator, name, starts_at, edition, rule_set, move_seconds=None, game=None) -> Simultane:
    """A simultané of `body` (a federation or a district), its game checked (`game`: `games.GameRound`s read from a
    file, for this edition) or drawn now by the server with the best move of each draw as its top; its time per
    move the rule set's first unless given."""
    if not body.is_body:
        raise DuplicateError(_("Seule une fédération ou un comité prépare un simultané."))
    if not name.strip():
        raise DuplicateError(_("Donnez un nom au simultané."))
    rules = rule_set.build()
    move_seconds = offered_move_seconds(rules, move_seconds)
    engine = Edition.objects.engine(edition.code)
    if game is None:
        index = move_index(edition.code)
        if index is None:
            raise DuplicateError(
                _("L'édition %(edition)s n'a pas de liste de mots pour tirer la partie : importez-la d'un fichier.")
                % {"edition": edition}
            )
        game = games.draw_game(engine, rules, index, secrets.randbits(48))
        imported = False
    else:
        game = games.check_game([(r.draw, r.top, r.top_score) for r in game], engine, rules)
        imported = True
    if not game:
        raise DuplicateError(_("La partie n'a aucun coup."))
    return Simultane.objects.create(
        body=body,
        creator=creator,
        name=name.strip()[:120],
        starts_at=_to_the_minute(starts_at),
        edition=edition,
        rule_set=rule_set,
        move_seconds=move_seconds,
        game=[r.as_dict() for r in game],
        imported=imported,
    )


def room_register(
    *, simultane: Simultane, club, creator, players=(), name: str = "", entry=Session.Entry.ARBITER
) -> Session:
    """A club's room for the simultané: a session of the club with the simultané's day, edition, rules and time
    per move, which plays its game; named after the simultané and the club unless `name` is given; its scores
    entered by whom `entry` says (the arbiter, the players on their phones, or both), as any session's. One room a
    club, registered before the start: a room registered later, or a second one, could read the sealed game
    ahead of the rooms playing it."""
    refusal = registration_refusal(simultane, club, creator)
    if refusal:
        raise DuplicateError(refusal)
    try:
        return session_create(
            creator=creator,
            club=club,
            name=(name.strip() or _room_name(simultane.name, club))[:120],
            date=timezone.localtime(simultane.starts_at).date(),
            edition=simultane.edition,
            rule_set=simultane.rule_set,
            move_seconds=simultane.move_seconds,
            entry=entry,
            players=players,
            simultane=simultane,
        )
    except IntegrityError:  # the same club's room registered at the same instant by another organiser
        raise DuplicateError(registration_refusal(simultane, club, creator)) from None


def _room_name(simultane_name: str, club) -> str:
    """A room's name unless its club gives it one: "<simultané> · <club>"."""
    return f"{simultane_name} · {club.name}"[:120]


def _to_the_minute(starts_at):
    """A start as the page shows it, "14:00": the seconds of the instant it was typed would make "commence à
    14:00" false for up to a minute."""
    return starts_at.replace(second=0, microsecond=0)


def registration_refusal(simultane: Simultane, club, user) -> str:
    """Why `user` may not register `club`'s room to the simultané, or "" when he may."""
    if club is None or club.is_body:
        return _("Une salle de simultané est celle d'un club : choisissez le vôtre.")
    if not club.is_organiser(user):
        return _("Seuls les organisateurs du club inscrivent une salle.")
    if simultane.is_over:
        return _("Le simultané est clos : son classement a été arrêté.")
    if timezone.now() >= simultane.starts_at:
        return _("Les inscriptions sont closes : le simultané a commencé le %(when)s.") % {"when": simultane.when()}
    existing = Session.objects.filter(simultane=simultane, club=club).first()
    if existing is not None:
        return _("Le club « %(club)s » a déjà sa salle dans ce simultané : « %(room)s ».") % {
            "club": club.name,
            "room": existing.name,
        }
    return ""


def room_withdraw(*, room: Session, by) -> None:
    """A room withdrawn, by its club's organiser or the simultané's, while it has drawn nothing: the session goes."""
    simultane = room.simultane
    if not (room.is_organiser(by) or simultane.is_organiser(by)):
        raise DuplicateError(_("Seuls les organisateurs du club ou du simultané retirent une salle."))
    if room.rounds.exists():
        raise Conflict(_("Cette salle a commencé à jouer : elle reste dans le simultané."))
    room.delete()


def simultane_update(*, simultane: Simultane, name: str, starts_at, move_seconds: int) -> Simultane:
    """Its name, start and time per move corrected, until a room has drawn: the rooms take the new day and time,
    and the new name when they kept the one given at registration ("<simultané> · <club>"); a room its club named
    keeps its name."""
    _refuse_if_started(simultane)
    move_seconds = offered_move_seconds(simultane.rule_set.build(), move_seconds)
    if not name.strip():
        raise DuplicateError(_("Donnez un nom au simultané."))
    old_name = simultane.name
    with transaction.atomic():
        simultane.name, simultane.move_seconds = name.strip()[:120], move_seconds
        simultane.starts_at = _to_the_minute(starts_at)
        simultane.save(update_fields=["name", "starts_at", "move_seconds"])
        date = timezone.localtime(simultane.starts_at).date()
        for room in Session.objects.filter(simultane=simultane).select_related("club"):
            changes = {"date": date, "move_seconds": move_seconds}
            if room.club is not None and room.name == _room_name(old_name, room.club):
                changes["name"] = _room_name(simultane.name, room.club)
            Session.objects.filter(pk=room.pk).update(**changes)
            room.touch()
    return simultane


def game_document(simultane: Simultane) -> dict:
    """The whole game as a game file holds it (duplicate.games), as a session's "Fichier de partie" gives it; only
    for whom `Simultane.game_readable_by` lets read it: until the ranking is closed the game is sealed."""
    rounds = [games.GameRound(**game_round) for game_round in simultane.game]
    about = {
        "name": simultane.name,
        "date": timezone.localtime(simultane.starts_at).date().isoformat(),
        "rules": simultane.rule_set.code,
    }
    return games.document(simultane.edition.code, rounds, **about)


def simultane_delete(*, simultane: Simultane) -> None:
    """A simultané deleted with its rooms, until a room has drawn."""
    _refuse_if_started(simultane)
    with transaction.atomic():
        Session.objects.filter(simultane=simultane).delete()
        simultane.delete()


def simultane_close(*, simultane: Simultane, closed: bool = True) -> Simultane:
    """The combined ranking made final: it counts the whole game, a room stopped early counting 0 on the moves it
    did not play, and the game is over (`Simultane.is_over`): the rooms are sealed no more and none draws again.
    Refused while a room has drawn a move whose top it has not revealed: that move would take bulletins with the
    whole game open to every reader. Reopened (`closed=False`), the ranking is only no longer said final: the game
    stays over (counted whole, no room drawing again), since it has been open whole to the rooms' readers.

    The rooms' rows are held from the check to the closing, as a room's draw holds its own (`rounds.round_add`):
    a draw made meanwhile is either seen here or refused there."""
    with transaction.atomic():
        rooms = list(Session.objects.select_for_update().filter(simultane=simultane).order_by("pk"))
        if closed:
            _refuse_while_a_top_is_pending(simultane)
            now = timezone.now()
            changes = {"closed_at": now, "first_closed_at": Coalesce("first_closed_at", Value(now))}
        else:
            changes = {"closed_at": None}
        Simultane.objects.filter(pk=simultane.pk).update(**changes)
        for room in rooms:
            room.touch()  # the combined ranking's cache and its polls follow the rooms' versions
    simultane.refresh_from_db(fields=["closed_at", "first_closed_at"])
    return simultane


def room_label(name: str, club: str) -> str:
    """A room's name, with its club's in brackets unless the name holds it ("<simultané> · <club>" does)."""
    return name if club in name else f"{name} ({club})"


def _refuse_while_a_top_is_pending(simultane: Simultane):
    """Refuses the closing with one sentence a room whose last move drawn awaits its top, saying which move."""
    pending = Round.objects.filter(session__simultane=simultane, top="").select_related("session__club")
    refusals = []
    for round_ in pending.order_by("session", "number"):
        figures = {"room": room_label(round_.session.name, round_.session.club.name), "number": round_.number}
        if round_.session.finished_at:
            refusals.append(
                _(
                    "La salle « %(room)s » a terminé sans révéler le top du coup %(number)d : qu'elle rouvre sa "
                    "séance pour le révéler."
                )
                % figures
            )
        else:
            refusals.append(
                _("La salle « %(room)s » joue encore le coup %(number)d : attendez que son top soit révélé.") % figures
            )
    if refusals:
        raise Conflict(" ".join(refusals))


def _sort_key(name: str) -> str:
    """A name as an alphabetical order reads it: accents aside (Émilie before Sophie), case aside."""
    return "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c)).casefold()


def _refuse_if_started(simultane: Simultane):
    if Session.objects.filter(simultane=simultane, rounds__isnull=False).exists():
        raise Conflict(_("Une salle a déjà tiré un coup : le simultané ne change plus."))


@dataclass(frozen=True)
class Row:
    place: int
    name: str
    club: str  # the room's club ("" for a personal room)
    session: str
    session_id: int
    series: str
    licence: str
    total: int
    gap: int
    percent: float
    solos: int
    absent: bool = False  # declared absent (forfait) during the game: ranked with what he played
    # With `ranking(detail=True)`, each counted move's (score or None, its `MovePoints`, whether the arbiter gave a
    # zero): an export's.
    moves: tuple = ()


@dataclass(frozen=True)
class Room:
    session: Session
    club: str
    players: int
    moves: int  # the moves it has closed: those before its last one drawn, or every one revealed once finished
    drawn: int  # the moves it has drawn
    revealed: int  # the moves whose top it has revealed
    finished: bool

    @property
    def label(self) -> str:
        """The room as the pages name it: its name, and its club's when the name does not say it (rooms named alike
        through the API were told apart by nothing)."""
        return room_label(self.session.name, self.club)

    @property
    def top_pending(self) -> bool:
        """Whether its last move drawn awaits its top: the ranking is not closed then (`simultane_close`)."""
        return self.drawn > self.revealed


@dataclass
class Ranking:
    rows: list[Row]
    tops_total: int
    moves: int  # the moves every room counts
    rooms: list[Room] = field(default_factory=list)

    @property
    def still_playing(self) -> list[Room]:
        """The rooms not finished, started or not: what closing the ranking would stop."""
        return [room for room in self.rooms if not room.finished]

    @property
    def clubs(self) -> list[str]:
        return sorted({row.club for row in self.rows if row.club})

    @property
    def series(self) -> list[str]:
        return sorted({row.series for row in self.rows if row.series})

    def club_named(self, text: str) -> str | None:
        """The club label (as `clubs` gives it) that `text` names: that label, the club's id or its address (slug);
        None for a club with no room here."""
        for room in self.rooms:
            club = room.session.club
            if club is not None and text in (room.club, str(club.pk), club.slug):
                return room.club
        return None

    def within(self, *, club: str = "", series: str = "") -> list[Row]:
        """The rows of one club's rooms, or of one series, placed among themselves, ties sharing the place."""
        rows = [r for r in self.rows if (not club or r.club == club) and (not series or r.series == series)]
        places = shared_places([r.total for r in rows])
        return [replace(row, place=place) for row, place in zip(rows, places, strict=True)]


def ranking_stamp(simultane: Simultane) -> str:
    """What the combined ranking depends on, in one query: every room and its version. Every change a room's
    ranking shows bumps its version (a result on the move being played does not, and the combined ranking does
    not count that move), and a room registered changes their list."""
    versions = list(Session.objects.filter(simultane=simultane).order_by("pk").values_list("pk", "version"))
    return hashlib.blake2b(repr(versions).encode(), digest_size=8).hexdigest()


def live_ranking(simultane: Simultane, stamp: str | None = None) -> Ranking:
    """`ranking`, computed once for each state of the rooms (`ranking_stamp`, given when the caller has it) and
    kept in the shared cache."""
    # 4: since a room not started or finished early holds the live ranking back, a ranking cached before counts
    # otherwise (and a `Room` has its moves revealed).
    key = f"duplicate:simultane-ranking:4:{simultane.pk}:{stamp or ranking_stamp(simultane)}"
    cached = cache.get(key)
    if cached is None:
        cached = ranking(simultane)
        cache.set(key, cached, settings.DUPLICATE_ROOM_CACHE_SECONDS)
    return cached


def _moves_of(figures, player: int, points: list, zeros: set) -> tuple:
    """A player's counted moves as an export prints them: (his score or None, what the move brought him, whether
    the arbiter gave him a zero, from `zeros`' (player, move) ids); a move his room has not played has no score."""
    scores, placed = figures.scores[player], [pk for pk, _top in figures.rounds]
    return tuple(
        (scores[move], brought, (player, placed[move]) in zeros) if move < len(placed) else (None, brought, False)
        for move, brought in enumerate(points)
    )


def _club_labels(clubs) -> dict[int, str]:
    """Each club's name as the ranking shows it and filters by it: two clubs of the same name are told apart by
    their address (unique), so that neither's players are counted as the other's."""
    clubs = list(clubs)
    named = Counter(club.name for club in clubs)
    return {club.pk: club.name if named[club.name] == 1 else f"{club.name} ({club.slug})" for club in clubs}


def ranking(simultane: Simultane, *, detail: bool = False) -> Ranking:
    """Every room's players ranked together, ties sharing the place, on the moves every registered room has
    closed, as its own screens count them (a move closes once its top is revealed and the next one drawn, or the
    room finished): totals compare the same moves, and no reader learns a top or a score of a move that a room has
    still to play. So a room not started holds the ranking at nothing, and a room finished early (a finished room
    may reopen and play on) at the moves it played; once the simultané is closed (`Simultane.is_over`), the whole
    game counts, a room stopped early counting 0 on the moves it did not play. A room that has drawn nothing is
    listed, not ranked. Four queries whatever the number of rooms and players, five with `detail`: each row then
    also gives what each counted move brought (`Row.moves`), solos judged within the room, as an export prints
    them."""
    sessions = list(Session.objects.filter(simultane=simultane).select_related("club", "rule_set").order_by("pk"))
    rules = {}
    for session in sessions:
        if session.rule_set.code not in rules:
            rules[session.rule_set.code] = RuleSet.objects.engine(session.rule_set.code)
    inputs = ranking_inputs(sessions, rules)
    drawn = rounds_drawn(sessions)
    rooms = []
    labels = _club_labels(session.club for session in sessions if session.club)
    for session in sessions:
        figures = inputs[session.pk]
        placed, played = len(figures.rounds), drawn.get(session.pk, 0)
        closed = placed if session.finished_at else max(min(placed, played - 1), 0)
        club = labels[session.club.pk] if session.club else ""
        rooms.append(Room(session, club, len(figures.players), closed, played, placed, bool(session.finished_at)))
    started = [room for room in rooms if room.drawn]
    moves = len(simultane.game) if simultane.is_over else min((room.moves for room in rooms), default=0)
    tops = [game_round["top_score"] for game_round in simultane.game[:moves]]
    zeros = set()
    if detail:
        zeros = set(
            Result.objects.filter(round__session__simultane=simultane).zero_marks().values_list("player_id", "round_id")
        )
    rows = []
    for room in started:
        figures = inputs[room.session.pk]
        points = move_points(**(figures.engine_arguments() | {"tops": tops}))
        for ranked in rank_points(points, tops=tops):
            # A player declared absent (forfait) stays ranked with what he played, as in his room's ranking.
            player = figures.players[ranked.player]
            counted = _moves_of(figures, ranked.player, points[ranked.player], zeros) if detail else ()
            rows.append((player, room, ranked, counted))
    tops_total = sum(tops)
    places = shared_places([ranked.total for _player, _room, ranked, _moves in rows])
    ranked_rows = sorted(
        (
            Row(
                place=place,
                name=player.name,
                club=room.club,
                session=room.session.name,
                session_id=room.session.pk,
                series=player.series,
                licence=player.licence,
                total=ranked.total,
                gap=ranked.total - tops_total,
                percent=percent_of(ranked.total, tops_total),
                solos=ranked.solos,
                absent=player.absent,
                moves=counted,
            )
            for (player, room, ranked, counted), place in zip(rows, places, strict=True)
        ),
        key=lambda row: (row.place, _sort_key(row.name), row.session_id),
    )
    return Ranking(ranked_rows, tops_total, moves, rooms)
