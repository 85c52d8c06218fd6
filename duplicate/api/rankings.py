"""A session's ranking through the API, as JSON or as the CSV file of its exports."""

from django.http import HttpResponse
from ninja import Router

from clubsite.schemas import PathId

from ..exports import build, filename
from ..schemas import RankingOut
from ..services import rankings
from .access import ERRORS, session_for

router = Router()


def _ranking(session):
    rows, tops_total = rankings.ranking(session)
    return {
        "tops_total": tops_total,
        "rows": [
            {
                "player": named.player.pk,
                "name": named.player.name,
                "place": named.row.place,
                "total": named.row.total,
                "gap": named.row.gap,
                "percent": named.row.percent,
                "solos": named.row.solos,
            }
            for named in rows
        ],
    }


@router.get(
    "/duplicate/sessions/{pk}/ranking",
    response={200: RankingOut, **ERRORS},
    summary="Classement",
    operation_id="duplicate_api_ranking",
)
def ranking(request, pk: PathId):
    return _ranking(session_for(request, pk))


@router.get(
    "/duplicate/sessions/{pk}/ranking.csv",
    summary="Classement en CSV",
    response={200: None, **ERRORS},
    operation_id="duplicate_api_ranking_csv",
)
def ranking_csv(request, pk: PathId):
    session = session_for(request, pk)
    response = HttpResponse(build(session, "csv"), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename(session, "csv")}"'
    return response
