"""The duplicate API for clubs' scripts and federation tools. Token (`Authorization: Bearer`) or a logged-in
session (`clubsite.api_auth.MEMBER`); only a session's organisers write, and a token sees only what its member may
see.

One router a resource, each mounted on `router`, which `clubsite/api.py` mounts: `sessions` (created, finished,
reopened, their history and game file), `rounds` (the draw, the top, the last move cancelled), `results` (a move's
scores, the whole game, one result corrected), `rankings` (JSON and CSV), `players` (a player's recap),
`simultanes` (prepared, their combined ranking), `seasons` (their ranking); `access` holds the access checks and
the refusals' statuses. Each operation names its id: ninja would derive it from its module, and clients and the
fuzzer know the ids of the API's single module, `duplicate_api_<function>`."""

from ninja import Router

from clubsite.api_auth import MEMBER

from . import players, rankings, results, rounds, seasons, sessions, simultanes

router = Router(tags=["Duplicate"], auth=MEMBER)
for resource in (sessions, rounds, results, rankings, simultanes, players, seasons):
    router.add_router("", resource.router)
