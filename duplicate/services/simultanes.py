"""Simultanés: a federation body's game played by rooms of several clubs, ranked together (README, "Simultanés").

The body prepares the game (drawn by the server ahead of time, or read from a game file); each club's organiser
registers a room, which is an ordinary session playing that game (`Session.simultane`, `rounds.round_add`). The
combined ranking, which reads every room's results live, is `combined_ranking`'s.
"""

import datetime
import secrets

from django.db import IntegrityError, transaction
from django.db.models import Value
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.models import Edition, move_index

from .. import games
from ..errors import Conflict, DuplicateError
from ..models import Round, Session, Simultane
from .combined_ranking import room_label
from .history import record
from .sessions import offered_move_seconds, session_create


def future_start(starts_at):
    """A simultané's start as its body sets it, from a form or the API: to come (a minute's grace for the time it
    took to fill the form)."""
    if starts_at < timezone.now() - datetime.timedelta(minutes=1):
        raise DuplicateError(_("Ce début est passé : choisissez une date et une heure à venir."))
    return starts_at


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


def simultane_close(*, simultane: Simultane, closed: bool = True, drop_pending: bool = False, by=None) -> Simultane:
    """The combined ranking made final: it counts the whole game, a room stopped early counting 0 on the moves it
    did not play, and the game is over (`Simultane.is_over`): the rooms are sealed no more and none draws again.
    Refused while a room has drawn a move whose top it has not revealed: that move would take bulletins with the
    whole game open to every reader. Reopened (`closed=False`), the ranking is only no longer said final: the game
    stays over (counted whole, no room drawing again), since it has been open whole to the rooms' readers.

    With `drop_pending`, the body closes it anyway (issue 23's trial: a room that drew a move and never revealed its
    top kept the ranking from ever closing, and the body, to whom the room is sealed, could not reveal it): each
    such move is taken off its room with its bulletins, written in the room's history, and the room counts 0 on it
    as on any move it did not play.

    The rooms' rows are held from the check to the closing, as a room's draw holds its own (`rounds.round_add`):
    a draw made meanwhile is either seen here or refused there."""
    with transaction.atomic():
        rooms = list(Session.objects.select_for_update().filter(simultane=simultane).order_by("pk"))
        if closed and drop_pending:
            pending = Round.objects.filter(session__simultane=simultane, top="").select_related("session")
            for round_ in pending:
                dropped = _("retiré à la clôture du simultané")
                record(round_.session, by, "draw", round_.draw, dropped, round_number=round_.number)
                round_.delete()
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


def _refuse_if_started(simultane: Simultane):
    if Session.objects.filter(simultane=simultane, rounds__isnull=False).exists():
        raise Conflict(_("Une salle a déjà tiré un coup : le simultané ne change plus."))
