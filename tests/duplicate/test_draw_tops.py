"""Issue 22: a draw's tops are searched without holding its session. "Tirer" computed them inside the transaction that
locked the session's row, so a score sent meanwhile waited on that row and was answered 503, and a search that ran
past gunicorn's timeout lost the draw with its worker."""

import json
import threading

import pytest
from django.db import connection, connections
from django.test import Client

from clubsite.models import ApiToken
from duplicate.games import evaluate_top
from duplicate.models import Result
from duplicate.services.board import position
from duplicate.services.rounds import round_add, round_set_top
from scoring.engine import movegen

from .conftest import make_session


@pytest.fixture
def watched_searches(monkeypatch):
    """The top finder's searches, each run after `during` (a list of callables) is called; `seen` says, for each,
    whether it ran inside a transaction."""
    search = movegen._search
    watched = {"during": [], "seen": []}

    def watching(*args, **kwargs):
        watched["seen"].append(connection.in_atomic_block)
        for call in watched["during"]:
            call()
        return search(*args, **kwargs)

    monkeypatch.setattr(movegen, "_search", watching)
    return watched


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_a_draws_tops_are_searched_outside_any_transaction(alice, lyon, watched_searches):
    session = make_session(alice, lyon)
    round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE", by=alice)
    second = round_add(session=session, by=alice)
    assert watched_searches["seen"] == [False, False]
    assert second.suggestions and second.suggestions_complete


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_a_score_sent_while_a_draws_tops_are_searched_is_saved(alice, lyon, watched_searches):
    """The trial: the score waited on the session's row, locked by the draw while its tops were searched, and was
    answered 503 "La base de données ne répond pas"."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL (set DATABASE_URL, as .ci/run does)")
    session = make_session(alice, lyon, players=("Anne",))
    first = round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE", by=alice)
    anne = session.players.get()
    token = ApiToken.issue(alice)
    statuses = []

    def send_a_score():
        response = Client().put(
            f"/api/duplicate/sessions/{session.pk}/rounds/1/scores",
            data=json.dumps({"scores": [{"player": anne.pk, "score": 20}]}),
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Bearer {token}",
        )
        statuses.append(response.status_code)
        connections.close_all()

    def from_another_connection():
        sender = threading.Thread(target=send_a_score)
        sender.start()
        sender.join()

    watched_searches["during"].append(from_another_connection)
    second = round_add(session=session, draw_text="ST+AIONX", by=alice)
    assert statuses == [200]
    assert Result.objects.get(round=first, player=anne).score == 20
    assert second.number == 2 and second.suggestions


@pytest.mark.django_db
def test_a_draw_whose_search_meets_the_time_limit_is_saved_with_what_it_found(client, alice, lyon, settings):
    session = make_session(alice, lyon)
    round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE", by=alice)  # a search done already
    settings.SEARCH_TIME_LIMIT = 0  # two blanks on a board: thousands of moves, a search past any limit
    second = round_add(session=session, draw_text="ST+AEI??", by=alice)
    second.refresh_from_db()
    assert (second.number, second.draw, second.suggestions_complete) == (2, "ST+AEI??", False)
    client.force_login(alice)
    html = client.get(f"/duplicate/{session.pk}/").content.decode()
    assert (
        "Recherche des tops arrêtée faute de temps : seuls les coups trouvés jusque-là sont listés, le meilleur peut "
        "y manquer." in html
    )
    settings.SEARCH_TIME_LIMIT = 3
    round_set_top(round_=second, top_text=second.suggestions[0]["move"], by=alice)  # what was found is played


@pytest.mark.django_db
def test_a_session_that_moved_while_the_tops_were_searched_draws_on_what_it_became(alice, lyon, watched_searches):
    """Another arbiter corrected the last top meanwhile: the draw is worked out again on the new board, never
    written with tops searched on a board the session no longer has."""
    session = make_session(alice, lyon)
    first = round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE", by=alice)

    def correct_the_top_once():
        watched_searches["during"].clear()
        round_set_top(round_=first, top_text="H8 VAGUE", by=alice)

    watched_searches["seen"].clear()
    watched_searches["during"].append(correct_the_top_once)
    second = round_add(session=session, draw_text="ST+AIONX", by=alice)
    assert len(watched_searches["seen"]) == 2  # searched again on the corrected board
    board = position(session).board
    for suggestion in second.suggestions:
        evaluate_top(session.edition_engine, session.rules_engine, board, second.draw, suggestion["move"])
