"""A session through the API: created (a club's, a member's own, or a simultané's room), finished and reopened,
its history of changes, its game as a game file."""

import datetime

from django.utils.translation import gettext as _
from ninja import Router, Status
from ninja.errors import HttpError, Throttled

from clubsite.invitations import invitation_refusal
from clubsite.models import Club
from clubsite.schemas import PathId
from scoring.models import Edition, RuleSet

from ..errors import DuplicateError
from ..models import Simultane
from ..player_lines import invited_names
from ..schemas import GameOut, HistoryOut, SessionIn, SessionOut, StateOut, player_line
from ..services import sessions, sheet, simultanes
from .access import ERRORS, refused, session_for

router = Router()


def _room_mismatch(payload: SessionIn, simultane: Simultane, edition, rule_set) -> str:
    """A room plays its simultané's edition, rules and time per move: one given otherwise is refused rather than
    quietly replaced (those left out take the simultané's)."""
    given = payload.model_fields_set
    if "edition" in given and edition.pk != simultane.edition_id:
        return _("Ce simultané se joue avec l'édition « %(code)s » : une salle prend la sienne.") % {
            "code": simultane.edition.code
        }
    if "rules" in given and rule_set.pk != simultane.rule_set_id:
        return _("Ce simultané se joue avec les règles « %(code)s » : une salle prend les siennes.") % {
            "code": simultane.rule_set.code
        }
    if "move_seconds" in given and payload.move_seconds != simultane.move_seconds:
        return _("Ce simultané se joue en %(seconds)d secondes par coup : une salle prend son temps.") % {
            "seconds": simultane.move_seconds
        }
    return ""


@router.post(
    "/duplicate/sessions",
    response={201: SessionOut, **ERRORS},
    summary="Créer une séance",
    operation_id="duplicate_api_session_create",
)
def session_create(request, payload: SessionIn):
    club = None
    if payload.club is not None:
        club = Club.objects.for_user(request.user).filter(pk=payload.club).first()
        if club is None:
            raise HttpError(404, _("Club introuvable."))
        if not club.is_organiser(request.user):
            raise HttpError(403, _("Seuls les organisateurs du club créent ses séances."))
    edition = Edition.objects.named_or_default(payload.edition)
    rule_set = RuleSet.objects.named_or_default(payload.rules)
    if edition is None or rule_set is None:
        raise HttpError(422, _("Édition ou jeu de règles inconnu."))
    simultane = date = None
    if payload.simultane is not None:
        simultane = Simultane.objects.visible_to(request.user).filter(pk=payload.simultane).first()
        if simultane is None:
            raise HttpError(404, _("Simultané introuvable."))
        refusal = simultanes.registration_refusal(simultane, club, request.user) or _room_mismatch(
            payload, simultane, edition, rule_set
        )
        if refusal:
            raise HttpError(422, refusal)
    else:
        try:
            date = datetime.date.fromisoformat(payload.date) if payload.date else datetime.date.today()
        except ValueError:
            raise HttpError(422, _("Date illisible : AAAA-MM-JJ attendu.")) from None
    try:
        # Each item is one player's fields already: nothing to split, unlike the lines pasted on the pages.
        players = [player_line(item) for item in payload.players]
        # Those named @username are invited: one request, one action against the caller's rate of invitations.
        if past_rate := invitation_refusal(request, invited_names(players)):
            raise Throttled(past_rate.wait)
        if simultane is not None:
            session = simultanes.room_register(
                simultane=simultane,
                club=club,
                creator=request.user,
                players=players,
                name=payload.name,
                entry=payload.entry,
            )
        else:
            session = sessions.session_create(
                creator=request.user,
                club=club,
                name=payload.name,
                date=date,
                edition=edition,
                rule_set=rule_set,
                move_seconds=payload.move_seconds,
                entry=payload.entry,
                players=players,
            )
    except DuplicateError as error:
        refused(error)
    players = session.players.order_by("pk")
    return Status(201, {"id": session.pk, "players": [{"id": p.pk, "name": p.name} for p in players]})


@router.post(
    "/duplicate/sessions/{pk}/finish",
    response={200: StateOut, **ERRORS},
    summary="Terminer la séance",
    operation_id="duplicate_api_session_finish",
)
def session_finish(request, pk: PathId):
    """A finished session answers 409 to every write until it is reopened."""
    return _change_state(request, pk, sessions.session_finish)


@router.post(
    "/duplicate/sessions/{pk}/reopen",
    response={200: StateOut, **ERRORS},
    summary="Rouvrir la séance",
    operation_id="duplicate_api_session_reopen",
)
def session_reopen(request, pk: PathId):
    return _change_state(request, pk, sessions.session_reopen)


def _change_state(request, pk, change):
    session = session_for(request, pk, write=True)
    try:
        change(session=session, by=request.user)
    except DuplicateError as error:
        refused(error)
    return {"finished": session.finished_at is not None}


@router.get(
    "/duplicate/sessions/{pk}/history",
    response={200: HistoryOut, **ERRORS},
    summary="Historique",
    operation_id="duplicate_api_session_history",
)
def session_history(request, pk: PathId):
    """Every change, newest first: who, when, which move and player, old → new. For the session's organisers."""
    session = session_for(request, pk)
    if not session.is_organiser(request.user):
        raise HttpError(403, _("Seuls les organisateurs de la séance lisent son historique."))
    changes = session.changes.select_related("user")[:5000]
    return {
        "entries": [
            {
                "at": change.at.isoformat(),
                "user": change.user.get_username() if change.user else (change.user_name or None),
                "round": change.round_number,
                "player": change.player_id,
                "field": change.field,
                "old": change.old,
                "new": change.new,
            }
            for change in changes
        ]
    }


@router.get(
    "/duplicate/sessions/{pk}/game",
    response={200: GameOut, **ERRORS},
    summary="Fichier de partie",
    operation_id="duplicate_api_session_game",
)
def session_game(request, pk: PathId):
    """The session's game as a game file (README, "Fichier de partie"): the moves whose top is placed."""
    return sheet.game_document(session_for(request, pk))
