"""A club's season through the API: its ranking."""

from django.utils.translation import gettext as _
from ninja import Router
from ninja.errors import HttpError

from clubsite.schemas import PathId

from ..models import Season
from ..schemas import SeasonRankingOut
from ..services import seasons
from .access import ERRORS

router = Router()


@router.get(
    "/duplicate/seasons/{pk}/ranking",
    response={200: SeasonRankingOut, **ERRORS},
    summary="Classement de saison",
    operation_id="duplicate_api_season_ranking",
)
def season_ranking(request, pk: PathId):
    """A club's season, as its page shows it: read by the club's members; 404 for anyone else."""
    season = Season.objects.visible_to(request.user).filter(pk=pk).first()
    if season is None:
        raise HttpError(404, _("Saison introuvable."))
    standing = seasons.season_ranking(season, reader=request.user)
    return {
        "name": season.name,
        "start": season.start,
        "end": season.end,
        "ranked_by": season.ranked_by,
        "best": season.best,
        "rows": [
            {
                "place": row.place,
                "name": name,
                "sessions": row.played,
                "counted": row.counted,
                "total": row.total,
                "percent": row.percent,
            }
            for name, row in standing.rows
        ],
    }
