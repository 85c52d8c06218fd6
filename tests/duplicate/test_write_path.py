"""The write path (issue 12): the bulletins of the move being played do not queue behind the session's row, a
batch costs the same queries whatever its size, and the screens of the room still see every change they show."""

import json
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from clubsite.models import ApiToken
from duplicate.models import Change, Player, Result, Round, Session
from duplicate.services.results import result_set
from duplicate.services.rounds import round_add, timer_start

from .conftest import make_session

pytestmark = pytest.mark.django_db


def version(session):
    return Session.objects.values_list("version", flat=True).get(pk=session.pk)


def ranking_poll(client, session, seen):
    return client.get(f"/duplicate/classement/{session.public_key}/?v={seen}", HTTP_HX_REQUEST="true").status_code


def put_scores(client, session, token, scores, number=1):
    return client.put(
        f"/api/duplicate/sessions/{session.pk}/rounds/{number}/scores",
        data=json.dumps({"scores": scores}),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )


def test_a_bulletin_on_the_move_being_played_leaves_the_session_row_alone(
    client, session, django_capture_on_commit_callbacks
):
    first = round_add(session=session, draw_text="VAGUEST")
    seen = version(session)
    with django_capture_on_commit_callbacks(execute=True):
        result_set(round_=first, player=session.players.get(name="Bob"), score=20)
    assert version(session) == seen
    # The room's screens show the moves closed only: nothing for them to redraw.
    assert ranking_poll(client, session, seen) == 204
    assert client.get(f"/duplicate/salle/{session.public_key}/?v={seen}.0", HTTP_HX_REQUEST="true").status_code == 204


def test_a_correction_of_a_closed_move_redraws_the_rooms_screens_once_committed(
    client, session, django_capture_on_commit_callbacks
):
    first = round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    round_add(session=session, draw_text="ST+AIONX")  # move 1 closes
    seen = version(session)
    with django_capture_on_commit_callbacks(execute=True):
        result_set(round_=first, player=session.players.get(name="Bob"), score=20)
    assert version(session) == seen + 1
    assert ranking_poll(client, session, seen) == 200


def test_a_bulletin_committed_as_the_next_move_is_drawn_still_redraws_them(session, django_capture_on_commit_callbacks):
    """The bulletin was sent while its move was being played; the next move was drawn (and committed) before the
    bulletin's own commit: its move is now closed, and the check made after its commit sees it."""
    first = round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    with django_capture_on_commit_callbacks() as after_commit:
        result_set(round_=first, player=session.players.get(name="Bob"), score=20)
    round_add(session=session, draw_text="ST+AIONX")
    drawn = version(session)
    for callback in after_commit:
        callback()
    assert version(session) == drawn + 1


def test_a_batch_of_scores_costs_the_same_queries_whatever_its_size(client, alice, lyon):
    session = make_session(alice, lyon, players=[f"Joueur {n}" for n in range(1, 21)])
    round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    token = ApiToken.issue(alice)
    players = list(session.players.values_list("pk", flat=True))
    counts = []
    for batch in (players[:1], players):
        with CaptureQueriesContext(connection) as queries:
            response = put_scores(
                client, session, token, [{"player": pk, "score": 10 + len(batch) // 2} for pk in batch]
            )
        assert response.status_code == 200
        counts.append(sum(not query["sql"].startswith(("SAVEPOINT", "RELEASE")) for query in queries))
    # The token's member, the move with its session and the right to write it, the players with their results
    # before, the upsert, the history.
    assert counts == [5, 5]
    assert Change.objects.filter(session=session, field="score").count() == 20 + 1


def test_a_player_sent_twice_in_a_batch_is_refused_and_nothing_written(client, alice, session):
    """Issue 23: the last of two bulletins won, and the answer said "saved": 2 for one row; the batch is refused."""
    round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    bob = session.players.get(name="Bob")
    scores = [{"player": bob.pk, "score": 12}, {"player": bob.pk, "score": 18}]
    response = put_scores(client, session, ApiToken.issue(alice), scores)
    assert (response.status_code, response.json()) == (
        422,
        {"detail": f"Le joueur {bob.pk} figure deux fois dans la liste (positions 1 et 2)."},
    )
    assert not Result.objects.filter(player=bob).exists()
    assert not Change.objects.filter(player=bob, field="score").exists()


def test_a_deactivated_members_token_is_refused(client, alice, session):
    round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    token = ApiToken.issue(alice)
    alice.is_active = False
    alice.save(update_fields=["is_active"])
    response = put_scores(client, session, token, [{"player": session.players.get(name="Bob").pk, "score": 12}])
    assert response.status_code == 401
    assert not Result.objects.exists()


def field_values(instance):
    return {field.attname: getattr(instance, field.attname) for field in type(instance)._meta.concrete_fields}


def test_the_rows_read_in_sql_are_those_the_orm_reads(alice, session):
    """The hot paths read their rows in SQL: every value must come as the ORM gives it (times aware, JSON decoded,
    booleans), whatever the database."""
    round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    timer_start(session=session)
    session.refresh_from_db()
    player = session.players.get(name="Bob")
    read, current = Player.objects.by_key(player.key)
    assert field_values(read) == field_values(player)
    assert field_values(read.session) == field_values(session)
    assert field_values(current) == field_values(Round.objects.get(session=session, number=1))
    assert isinstance(current.suggestions, list) and read.session.timer_started_at.tzinfo is not None
    writable = Round.objects.writable_by(alice, session.pk, 1)
    assert field_values(writable) == field_values(current)
    assert field_values(writable.session) == field_values(session)


def test_the_consoles_poll_sees_a_phone_bulletin_of_the_move_being_played(client, alice, session):
    """The bulletin bumps no version: the console's poll finds it by its time, since the page's own `depuis`."""
    round_add(session=session, draw_text="VAGUEST")
    client.force_login(alice)
    page = client.get(f"/duplicate/{session.pk}/").content.decode()
    poll = re.search(r'id="console-poll" hidden hx-get="([^"]+)"', page).group(1).replace("&amp;", "&")
    assert client.get(poll, HTTP_HX_REQUEST="true").status_code == 204
    anne = session.players.get(name="Alice")
    assert Client().post(f"/duplicate/joueur/{anne.key}/", {"score": "12"}, HTTP_HX_REQUEST="true").status_code == 200
    response = client.get(poll, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    html = response.content.decode()
    assert "1/2 bulletins" in html and f'<tr id="player-{anne.pk}" hx-swap-oob="true">' in html
