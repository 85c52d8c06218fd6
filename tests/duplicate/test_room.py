"""The room's screen for a projector (issue 11): the move as it goes, and a ranking that moves only when a move
closes."""

import datetime
import re

import pytest

from duplicate.services.results import result_set
from duplicate.services.rounds import round_add, timer_start

pytestmark = pytest.mark.django_db


def ranking_totals(html):
    return re.findall(r"<tr><td>\d+</td><td class=\"name\">([^<]+)</td><td><strong>(-?\d+)</strong>", html)


def test_the_room_follows_the_move_and_ranks_the_closed_moves_only(client, session):
    url = f"/duplicate/salle/{session.public_key}/"
    html = client.get(url).content.decode()
    assert "En attente du premier tirage" in html and "site-header" not in html
    first = round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    alice_player, bob_player = session.players.all()
    result_set(round_=first, player=alice_player, score=26)
    html = client.get(url).content.decode()
    assert "H4 VAGUE</span> <strong>26</strong>" in html  # the top, revealed
    assert ranking_totals(html) == [("Alice", "0"), ("Bob", "0")]  # move 1 is still being entered
    assert html.count("placed new") == 5  # VAGUE's tiles marked on the grid
    round_add(session=session, draw_text="ST+AIONX")
    html = client.get(url).content.decode()
    assert "Coup 2" in html and 'aria-label="Tirage ST+AIONX"' in html
    assert ranking_totals(html) == [("Alice", "26"), ("Bob", "0")]  # move 1 closed by the next draw
    version = session.__class__.objects.get(pk=session.pk).version
    assert client.get(f"{url}?v={version}.0", HTTP_HX_REQUEST="true").status_code == 204


def test_the_room_changes_phase_when_the_time_runs_out(client, session):
    """Nothing is written when a move's time runs out, yet the room's screen must say writing is closed."""
    round_add(session=session, draw_text="VAGUEST")
    timer_start(session=session)
    session.refresh_from_db()
    url = f"/duplicate/salle/{session.public_key}/"
    assert "Réflexion" in client.get(url).content.decode()
    assert client.get(f"{url}?v={session.version}.0", HTTP_HX_REQUEST="true").status_code == 204
    session.__class__.objects.filter(pk=session.pk).update(
        timer_started_at=session.timer_started_at - datetime.timedelta(seconds=session.move_seconds + 1)
    )
    response = client.get(f"{url}?v={session.version}.0", HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert "Temps écoulé : bulletins ramassés" in response.content.decode()
