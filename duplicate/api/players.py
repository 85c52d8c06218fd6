"""A player through the API: his recap, move by move beside the tops."""

from django.utils.translation import gettext as _
from ninja import Router
from ninja.errors import HttpError

from clubsite.schemas import PathId

from ..models import Player
from ..recap import player_recap
from ..schemas import PlayerRecapOut
from .access import ERRORS

router = Router()


@router.get(
    "/duplicate/sessions/{pk}/players/{player_id}/recap",
    response={200: PlayerRecapOut, **ERRORS},
    summary="Récapitulatif d'un joueur",
    operation_id="duplicate_api_player_recap_get",
)
def player_recap_get(request, pk: PathId, player_id: PathId):
    """One player's moves beside the tops, with his running total and percentage (as the ranking counts them:
    solos, avertissements and penalties included); while the session is played, its moves closed only. Read by
    the session's organisers and by the member linked to that player; 404 for anyone else."""
    players = Player.objects.recap_readable_by(request.user).select_related("session__edition", "session__rule_set")
    player = players.filter(pk=player_id).first()
    if player is None or player.session_id != pk:  # an id beyond the column would reach the database as it is
        raise HttpError(404, _("Joueur introuvable."))
    recap = player_recap(player.session, player)
    return {
        "player": player.pk,
        "name": player.name,
        "place": recap.place,
        "finished": player.session.finished_at is not None,
        "rows": [
            {
                "number": row.round.number,
                "draw": row.round.draw,
                "top": row.round.top,
                "top_score": row.round.top_score,
                "move": row.move or None,
                "score": row.score,
                "gap": row.gap,
                "solo": row.solo,
                "solo_points": row.solo_points,
                "warning": row.warning,
                "penalty": row.penalty_points,
                "total": row.total,
                "tops_total": row.tops_total,
                "percent": row.percent,
            }
            for row in recap.rows
        ],
    }
