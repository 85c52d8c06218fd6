"""The session's board in the grid counter: the arbiter lays the current move's top."""

import pytest

from duplicate.boards import TopBoardStore
from duplicate.services.rounds import round_add
from scoring.boards import BoardStore

pytestmark = pytest.mark.django_db


def test_the_sessions_board_keeps_the_board_store_contract(session):
    round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    round_add(session=session, draw_text="ST+AIONX")
    store = TopBoardStore(session)
    assert isinstance(store, BoardStore)
    assert (store.moves, store.current.number, store.player_count) == (["H4 VAGUE"], 2, 1)


def test_the_top_grid_shows_the_sessions_banner_and_only_its_button(client, session, alice):
    round_add(session=session, draw_text="VAGUEST")
    client.force_login(alice)
    url = f"/duplicate/{session.pk}/grille/"
    html = client.get(url).content.decode()
    assert f'href="/duplicate/{session.pk}/"' in html and "tirage <strong>VAGUEST</strong>" in html
    assert "Saisie tapée" not in html and "Vider la grille" not in html
    data = {"start": "H4", "direction": "h", "letters": "VAGUE", "action": "top"}
    response = client.post(url, data, HTTP_HX_REQUEST="true")
    assert response["HX-Reselect"] == "#grid-app"
    assert "Top du coup 1 : H4 VAGUE, 26 points." in response.content.decode()
    assert "top H4 VAGUE (26)" in response.content.decode()


def test_the_top_grid_starts_from_the_moves_draw(client, session, alice):
    """Trial of issue 11: the arbiter's grid was titled "Compteur de points" and its rack box was empty."""
    round_add(session=session, draw_text="VAGUEST")
    client.force_login(alice)
    html = client.get(f"/duplicate/{session.pk}/grille/").content.decode()
    assert "<h1>Top du coup 1</h1>" in html
    assert 'id="rack" name="rack" type="text" value="VAGUEST"' in html
    assert 'id="players"' not in html  # one rack in duplicate: no choice of racks to deduct


def test_a_move_inscribed_from_the_grid_keeps_its_move(client, session, alice):
    """Issue 15's trial: "Inscrire pour le joueur" kept the points alone, and the player's recap had no move to lay
    beside the top. A move the draw makes is kept with its score; one it does not make keeps its score alone."""
    round_ = round_add(session=session, draw_text="VAGUEST")
    first, second = session.players.all()[:2]
    client.force_login(alice)
    url = f"/duplicate/{session.pk}/grille/"
    data = {"start": "H6", "direction": "h", "letters": "GUET", "action": "inscribe", "player": first.pk}
    response = client.post(url, data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    result = round_.results.get(player=first)
    assert (result.move, result.score, result.reason) == ("H6 GUET", 10, "")
    data = {"start": "H8", "direction": "h", "letters": "ZOO", "action": "inscribe", "player": second.pk}
    client.post(url, data, HTTP_HX_REQUEST="true")
    result = round_.results.get(player=second)
    assert (result.move, result.score) == ("", 24)
