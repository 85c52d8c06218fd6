"""The site's own URLs plus two bench-only endpoints. The write path's ceiling: bench_duplicate compares our
`PUT /api/duplicate/sessions/{id}/rounds/{n}/scores` with it, on the same gunicorn, settings and database. And
`GET /bench/search`, one search timed in the worker that serves it, with its id (bench/_probe.py): bench_warm finds
each worker's first search with it.

`PUT /bench/bare/rounds/{round_id}/scores` takes the same body (one score) through its own NinjaAPI and does
one upsert of the result, nothing else: no authentication, no check, no history, no version. It is what Django
and django-ninja cost around a single write, the ceiling any real endpoint stays under. Served only by the
bench's gunicorn (bench/_stack_settings.py points ROOT_URLCONF here), never by the site.
"""

from django.http import JsonResponse
from django.urls import path
from django.utils import timezone
from ninja import NinjaAPI, Schema

from bench._probe import timed_search
from clubsite.urls import urlpatterns as site_urlpatterns
from duplicate.models import Result

bare = NinjaAPI(urls_namespace="bench_bare", docs_url=None, openapi_url=None)


class BareScoreIn(Schema):
    player: int
    score: int


class BareScoresIn(Schema):
    scores: list[BareScoreIn]


class BareSavedOut(Schema):
    saved: int


@bare.put("/rounds/{round_id}/scores", response=BareSavedOut)
def bare_scores(request, round_id: int, payload: BareScoresIn):
    (entry,) = payload.scores  # one score a request, as the comparison sends
    Result.objects.bulk_create(
        [Result(round_id=round_id, player_id=entry.player, score=entry.score, updated_at=timezone.now())],
        update_conflicts=True,
        unique_fields=["round", "player"],
        update_fields=["score", "updated_at"],
    )
    return {"saved": 1}


def search_probe(request):
    return JsonResponse(timed_search(hold=float(request.GET.get("hold", 0))))


urlpatterns = [*site_urlpatterns, path("bench/bare/", bare.urls), path("bench/search", search_probe)]
