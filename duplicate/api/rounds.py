"""A session's moves through the API: the next draw, the top placed or revealed, the last move cancelled."""

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from ninja import Router, Status
from ninja.errors import HttpError

from clubsite import throttling
from clubsite.schemas import ErrorOut, PathId

from ..errors import DuplicateError, SessionClosed
from ..models import Round
from ..schemas import RoundIn, RoundOut, RoundTopIn
from ..services import rounds
from .access import ERRORS, refused, round_for_organiser, session_for

router = Router()


@router.post(
    "/duplicate/sessions/{pk}/rounds",
    response={201: RoundOut, **ERRORS, 429: ErrorOut},
    summary="Tirer un coup",
    operation_id="duplicate_api_round_create",
)
def round_create(request, pk: PathId, payload: RoundIn):
    """The next move's draw, typed or drawn by the server; `{}` in a session playing a game (a simultané's room, a
    game file, a replay) draws the game's next move. A draw never reveals its top: the game's comes with
    `PUT …/rounds/{n}/top` and `{}` once the move is played, and a `top` sent with a game's draw is refused (422).
    A session that plays no game takes a draw and its top together (a game played on paper). Each search of a
    draw's tops counts against the caller's rate of draws (`DJANGO_RATE_DRAW_*`): past it, 429 and Retry-After,
    nothing drawn."""
    session = session_for(request, pk, write=True)
    try:
        round_ = rounds.round_add(
            session=session,
            draw_text=payload.draw or None,
            top_text=payload.top or None,
            by=request.user,
            before_search=lambda: throttling.count(request, "draw"),
        )
    except DuplicateError as error:
        refused(error)
    return Status(
        201, {"number": round_.number, "draw": round_.draw, "top": round_.top or None, "top_score": round_.top_score}
    )


@router.put(
    "/duplicate/sessions/{pk}/rounds/{number}/top",
    response={200: RoundOut, **ERRORS},
    summary="Placer ou révéler le top",
    operation_id="duplicate_api_round_top",
)
def round_top(request, pk: PathId, number: PathId, payload: RoundTopIn):
    """The top of the last move, placed or corrected (a move drawn without it); `{}` in a session playing a game
    reveals the game's top once the move is played (its draw never does)."""
    round_ = round_for_organiser(request, pk, number)
    try:
        if payload.top:
            rounds.round_set_top(round_=round_, top_text=payload.top, by=request.user)
        elif round_.session.plays_a_game:
            round_ = rounds.round_reveal_top(round_=round_, by=request.user)
        else:
            raise DuplicateError(_("Donnez le top en notation (« H4 VAGUE »)."))
    except DuplicateError as error:
        refused(error)
    round_.refresh_from_db()
    return {"number": round_.number, "draw": round_.draw, "top": round_.top or None, "top_score": round_.top_score}


@router.delete(
    "/duplicate/sessions/{pk}/rounds/{number}",
    response={204: None, **ERRORS},
    summary="Annuler le dernier coup",
    operation_id="duplicate_api_round_delete",
)
def round_delete(request, pk: PathId, number: PathId):
    """The last move only, while it has no result; otherwise 409."""
    session = session_for(request, pk, write=True)
    round_ = get_object_or_404(Round, session=session, number=number)
    try:
        rounds.round_cancel(round_=round_, by=request.user)
    except SessionClosed as error:
        refused(error)
    except DuplicateError as error:
        raise HttpError(409, str(error)) from error
    return Status(204, None)
