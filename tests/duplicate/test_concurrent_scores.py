"""Two arbiters sending the same move's bulletins in different orders at once (issue 11): no deadlock, nothing lost.

Only PostgreSQL takes row locks the way a deployment does: on SQLite the test is skipped with that reason.
"""

import json
import random
import threading

import pytest
from django.db import connection, connections
from django.test import Client

from clubsite.models import ApiToken
from duplicate.models import Result
from duplicate.services.rounds import round_add

from .conftest import make_session

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


def test_batches_in_different_orders_do_not_deadlock(alice, lyon):
    if connection.vendor != "postgresql":
        pytest.skip("row-lock deadlocks need PostgreSQL (set DATABASE_URL, as .ci/run does)")
    session = make_session(alice, lyon, players=[f"Joueur {n}" for n in range(1, 21)])
    round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    token = ApiToken.issue(alice)
    players = list(session.players.values_list("pk", flat=True))
    url = f"/api/duplicate/sessions/{session.pk}/rounds/1/scores"
    statuses = []

    def send(seed):
        order = players[:]
        random.Random(seed).shuffle(order)
        body = {"scores": [{"player": pk, "score": 10 + seed % 10} for pk in order]}
        response = Client().put(
            url, data=json.dumps(body), content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {token}"
        )
        statuses.append(response.status_code)
        connections.close_all()

    threads = [threading.Thread(target=send, args=(seed,)) for seed in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert statuses == [200] * 20
    assert Result.objects.filter(round__session=session).count() == 20
