"""Simultanés through the API: one prepared by a federation or a district, its live combined ranking (the
rooms register as sessions, in `sessions`)."""

import datetime

from django.utils import timezone
from django.utils.translation import gettext as _
from ninja import Router, Status
from ninja.errors import HttpError

from clubsite.models import Club
from clubsite.schemas import PathId
from scoring.models import Edition, RuleSet

from .. import games
from ..errors import DuplicateError
from ..models import Simultane
from ..schemas import SimultaneIn, SimultaneOut, SimultaneRankingOut
from ..services import combined_ranking, simultanes
from .access import ERRORS, refused

router = Router()


@router.post(
    "/duplicate/simultanes",
    response={201: SimultaneOut, **ERRORS},
    summary="Préparer un simultané",
    operation_id="duplicate_api_simultane_create",
)
def simultane_create(request, payload: SimultaneIn):
    """For the organisers of a federation or a district. Without `game` the server draws it now, the best move of
    each draw as its top; with one, every move is checked on the board. The game stays sealed."""
    bodies = Club.objects.organised_by(request.user).bodies()
    body = bodies.filter(pk=payload.body).first() if payload.body is not None else None
    if payload.body is None and bodies.count() == 1:
        body = bodies.first()
    if body is None:
        raise HttpError(403, _("Seuls les organisateurs d'une fédération ou d'un comité préparent un simultané."))
    edition = Edition.objects.named_or_default(payload.edition)
    rule_set = RuleSet.objects.named_or_default(payload.rules)
    if edition is None or rule_set is None:
        raise HttpError(422, _("Édition ou jeu de règles inconnu."))
    try:
        starts_at = datetime.datetime.fromisoformat(payload.starts_at)
    except ValueError:
        raise HttpError(422, _("Début illisible : date et heure ISO 8601 attendues (2026-12-12T14:00).")) from None
    if timezone.is_naive(starts_at):
        starts_at = timezone.make_aware(starts_at)
    try:
        simultanes.future_start(starts_at)
    except DuplicateError as error:
        raise HttpError(422, str(error)) from None
    game = None
    if payload.game is not None:
        if payload.game.edition and payload.game.edition != edition.code:
            raise HttpError(
                422,
                _("La partie est en édition %(game)s, le simultané en %(edition)s.")
                % {"game": payload.game.edition, "edition": edition.code},
            )
        game = [games.GameRound(r.number, r.draw, r.top, r.top_score) for r in payload.game.rounds]
        for expected, game_round in enumerate(game, start=1):
            if game_round.number != expected:
                raise HttpError(422, _("Les coups sont numérotés 1, 2, 3… dans l'ordre."))
    try:
        simultane = simultanes.simultane_create(
            body=body,
            creator=request.user,
            name=payload.name,
            starts_at=starts_at,
            edition=edition,
            rule_set=rule_set,
            move_seconds=payload.move_seconds,
            game=game,
        )
    except DuplicateError as error:
        refused(error)
    return Status(201, {"id": simultane.pk, "moves": len(simultane.game)})


@router.get(
    "/duplicate/simultanes/{pk}/ranking",
    response={200: SimultaneRankingOut, **ERRORS},
    summary="Classement du simultané",
    operation_id="duplicate_api_simultane_ranking",
)
def simultane_ranking(request, pk: PathId, club: str = "", series: str = ""):
    """Every room's players together, live, on the moves every registered room has closed; `club` (its id, address or
    name) or `series` rank one club's rooms or one series among themselves. Ties share the place."""
    simultane = Simultane.objects.visible_to(request.user).filter(pk=pk).first()
    if simultane is None:
        raise HttpError(404, _("Simultané introuvable."))
    combined = combined_ranking.live_ranking(simultane)
    label = combined.club_named(club[:100]) if club else ""
    said = {"club": club[:100].replace("\x00", ""), "series": series[:10].replace("\x00", "")}  # no NUL echoed
    if label is None:
        raise HttpError(422, _("Aucune salle du club « %(club)s » dans ce simultané.") % said)
    if series and series not in combined.series:
        raise HttpError(422, _("Aucun joueur classé de la série « %(series)s ».") % said)
    rows = combined.within(club=label, series=series)
    return {
        "tops_total": combined.tops_total,
        "moves": combined.moves,
        "rows": [
            {
                "place": row.place,
                "name": row.name,
                "club": row.club,
                "session": row.session,
                "series": row.series,
                "licence": row.licence,
                "total": row.total,
                "gap": row.gap,
                "percent": row.percent,
            }
            for row in rows
        ],
    }
