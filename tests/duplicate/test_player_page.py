"""The player's phone page (issue 11): the move's phase, the draw, the timer, his entry while writing is open,
then his score against the top; it polls itself and is redrawn only when the move's phase changes."""

import datetime
import re

import pytest

from duplicate.models import Session
from duplicate.services.results import result_set
from duplicate.services.rounds import round_add, round_set_top, timer_start

pytestmark = pytest.mark.django_db


def stamp_of(html):
    return re.search(r'\?etat=([^"]+)"', html).group(1)


def test_the_phone_page_follows_the_move_through_its_phases(client, session):
    player = session.players.get(name="Alice")
    url = f"/duplicate/joueur/{player.key}/"
    html = client.get(url).content.decode()
    assert "En attente du premier tirage" in html
    waiting = stamp_of(html)
    assert client.get(f"{url}?etat={waiting}", HTTP_HX_REQUEST="true").status_code == 204
    round_add(session=session, draw_text="VAGUEST")
    timer_start(session=session)
    response = client.get(f"{url}?etat={waiting}", HTTP_HX_REQUEST="true")  # a new draw: the page redraws
    html = response.content.decode()
    assert response.status_code == 200 and html.lstrip().startswith('<div id="player-live"')
    assert "Coup 1 · Réflexion" in html and 'aria-label="Tirage VAGUEST"' in html and 'name="score"' in html
    assert 'class="countdown"' in html and 'class="board small-board"' in html
    thinking = stamp_of(html)
    # Another player's bulletin changes nothing on this page: no redraw, the score being typed stays.
    result_set(round_=session.rounds.get(), player=session.players.get(name="Bob"), score=20)
    assert client.get(f"{url}?etat={thinking}", HTTP_HX_REQUEST="true").status_code == 204
    assert client.post(url, {"score": "22"}).status_code == 302
    round_set_top(round_=session.rounds.get(), top_text="H4 VAGUE")
    html = client.get(f"{url}?etat={thinking}", HTTP_HX_REQUEST="true").content.decode()
    assert "Coup 1 · Top révélé" in html
    assert re.search(r"Votre score : <strong>22</strong> sur 26\s*\(-4\)", html)
    assert 'name="score"' not in html  # writing is over: only the arbiter changes it now


def test_a_phone_entry_after_the_top_or_the_deadline_is_refused(client, session):
    player = session.players.get(name="Alice")
    url = f"/duplicate/joueur/{player.key}/"
    round_ = round_add(session=session, draw_text="VAGUEST")
    timer_start(session=session)
    Session.objects.filter(pk=session.pk).update(timer_started_at=datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC))
    response = client.post(url, {"score": "22"})
    assert response.status_code == 400
    assert "Le temps du coup est écoulé : remettez votre bulletin à l&#x27;arbitre." in response.content.decode()
    assert "Temps écoulé : bulletins ramassés" in response.content.decode()
    timer_start(session=session)
    round_set_top(round_=round_, top_text="H4 VAGUE")
    response = client.post(url, {"score": "22"})
    assert response.status_code == 400
    assert "Le top est révélé : seul l&#x27;arbitre peut encore changer votre score." in response.content.decode()
    assert not round_.results.exists()


def test_the_phone_poll_costs_one_query_when_nothing_changed(client, session, django_assert_num_queries):
    player = session.players.get(name="Alice")
    round_add(session=session, draw_text="VAGUEST")
    url = f"/duplicate/joueur/{player.key}/"
    stamp = stamp_of(client.get(url).content.decode())
    with django_assert_num_queries(1):  # the player with his session and the move being played
        assert client.get(f"{url}?etat={stamp}", HTTP_HX_REQUEST="true").status_code == 204
