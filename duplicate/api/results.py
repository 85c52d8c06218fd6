"""The players' results through the API: a move's scores sent together, the whole game read, one result
corrected."""

from django.db import transaction
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from ninja import Router, Status
from ninja.errors import HttpError

from clubsite.schemas import PathId

from ..errors import DuplicateError
from ..models import Player, Round
from ..schemas import ResultOut, ResultPatch, ResultsOut, ScoresIn, ScoresOut
from ..services import rankings
from ..services import results as result_services
from .access import ERRORS, refused, round_for_organiser, session_for

router = Router()


@router.put(
    "/duplicate/sessions/{pk}/rounds/{number}/scores",
    response={200: ScoresOut, **ERRORS},
    summary="Saisir des scores",
    operation_id="duplicate_api_scores_put",
)
def scores_put(request, pk: PathId, number: PathId, payload: ScoresIn):
    """One score per player and move; sending it again replaces it. A refused score changes nothing in the request."""
    round_ = round_for_organiser(request, pk, number)
    entries = [result_services.Entry(entry.player, entry.score, entry.move or "") for entry in payload.scores]
    try:
        written = result_services.results_set(round_=round_, entries=entries, by=request.user)
    except DuplicateError as error:
        refused(error)
    return Status(200, {"saved": len(written)})


def _result_out(result) -> dict | None:
    if result is None:
        return None
    return {
        "score": result.score,
        "move": result.move,
        "reason": result.reason,
        "warning": result.warning,
        "penalty": result.penalty,
    }


@router.get(
    "/duplicate/sessions/{pk}/results",
    response={200: ResultsOut, **ERRORS},
    summary="Tous les résultats",
    operation_id="duplicate_api_results",
)
def results(request, pk: PathId):
    """The whole game: every move, and for each player his result on each (null where none), in three queries.
    Whoever reads the session's recap reads them: its organisers, its club's members, its players (those of a move
    being played once its top is revealed)."""
    session = session_for(request, pk)
    rounds = list(session.rounds.all())
    by_key = {(r.player_id, r.round_id): r for r in rankings.results_readable(session, request.user)}
    return {
        "rounds": [
            {"number": r.number, "draw": r.draw, "top": r.top or None, "top_score": r.top_score} for r in rounds
        ],
        "players": [
            {
                "id": player.pk,
                "name": player.name,
                "table": player.table,
                "absent": player.absent,
                "results": [_result_out(by_key.get((player.pk, r.pk))) for r in rounds],
            }
            for player in session.players.all()
        ],
    }


@router.patch(
    "/duplicate/sessions/{pk}/rounds/{number}/results/{player_id}",
    response={200: ResultOut, **ERRORS},
    summary="Corriger un résultat",
    operation_id="duplicate_api_result_patch",
)
def result_patch(request, pk: PathId, number: PathId, player_id: PathId, payload: ResultPatch):
    """Any of score, move, warning, penalty, zero, on any move (not only the last); kept in the history."""
    session = session_for(request, pk, write=True)
    round_ = get_object_or_404(Round, session=session, number=number)
    player = get_object_or_404(Player, session=session, pk=player_id)
    round_.session = session
    try:
        with transaction.atomic():
            if payload.move:
                result_services.result_set(
                    round_=round_, player=player, move=payload.move, written=payload.score, by=request.user
                )
            elif payload.score is not None:
                result_services.result_set(round_=round_, player=player, score=payload.score, by=request.user)
            if payload.warning is not None or payload.penalty is not None or payload.zero:
                result_services.result_mark(
                    round_=round_,
                    player=player,
                    zero=payload.zero,
                    warning=payload.warning,
                    penalty=payload.penalty,
                    by=request.user,
                )
    except DuplicateError as error:
        refused(error)
    result = round_.results.filter(player=player).first()
    if result is None:  # nothing sent that writes one (`{}`, `"zero": false`)
        raise HttpError(
            422,
            _("Ce joueur n'a pas de résultat sur le coup %(number)d : donnez un score, un coup ou une marque.")
            % {"number": number},
        )
    return _result_out(result)
