"""Issue 12: what a visitor may make the server compute is bounded. A rack holds what a draw can give (no more
blanks or letters than the edition's set has); a search stops at settings.SEARCH_TIME_LIMIT and says that its list
is partial. The top finder and the word finder, through the API and on the pages."""

import json
import re

import pytest

from scoring.engine import movegen
from scoring.engine.editions import BUILTIN_EDITIONS
from scoring.engine.gaddag import lexicon_index
from scoring.engine.lexicon import default_french_lexicon
from scoring.engine.moves import Board

pytestmark = pytest.mark.django_db

NINE_BLANKS = "?????????"


def post(client, url, body):
    return client.post(url, json.dumps(body), content_type="application/json")


def test_a_rack_of_nine_blanks_is_refused_at_once(client):
    """Four of these kept two gunicorn workers busy for 11 to 22 s each, the home page waiting behind them."""
    top = post(client, "/api/top", {"rack": NINE_BLANKS})
    words = post(client, "/api/words", {"letters": NINE_BLANKS})
    refusal = {"detail": "Le tirage compte 9 « ? » : le jeu n'en a que 2."}
    assert (top.status_code, top.json()) == (422, refusal)
    assert (words.status_code, words.json()) == (422, refusal)


@pytest.mark.parametrize(
    ("letters", "message"),
    [
        ("EAU???", "Le tirage compte 3 « ? » : le jeu n&#x27;en a que 2."),
        ("KIWIK", "Le tirage compte 2 « K » : le jeu n&#x27;en a que 1."),
    ],
)
def test_the_word_finder_and_the_best_moves_take_what_a_draw_can_give(client, letters, message):
    page = client.post("/mots/", {"letters": letters})
    assert page.status_code == 400
    assert message in page.content.decode()
    grid = client.post("/grille/", {"rack": letters, "action": "best"})
    assert f'<p class="error" role="alert">{message}</p>' in grid.content.decode()


def test_two_blanks_are_what_the_game_has(client):
    response = post(client, "/api/top", {"board": ["H4 VAGUE"], "rack": "EHLA??I", "limit": 1})
    assert response.status_code == 200
    assert response.json()["complete"] is True
    assert "detail" not in response.json()


def test_the_top_finder_stops_at_the_time_limit_and_says_its_list_is_partial(client, settings, ticking_clock):
    settings.SEARCH_TIME_LIMIT = 10  # clock readings: see ticking_clock
    response = post(client, "/api/top", {"board": ["H4 VAGUE"], "rack": "EHLA?NI", "limit": 3})
    body = response.json()
    assert response.status_code == 200
    assert body["complete"] is False
    assert body["detail"] == (
        "Recherche arrêtée faute de temps : seuls les coups trouvés jusque-là sont comptés, le meilleur peut y manquer."
    )
    assert 0 < body["count"] < 7762
    assert len(body["moves"]) == 3
    scores = [move["score"] for move in body["moves"]]
    assert scores == sorted(scores, reverse=True)


def test_the_word_finder_stops_at_the_time_limit_and_says_so(client, settings, ticking_clock):
    settings.SEARCH_TIME_LIMIT = 5
    body = post(client, "/api/words", {"letters": "AEIRST?"}).json()
    assert body["complete"] is False
    assert body["detail"] == "Recherche arrêtée faute de temps : seuls les mots trouvés jusque-là sont listés."
    assert 0 < body["count"] < 2166
    html = client.post("/mots/", {"letters": "AEIRST?"}).content.decode()
    assert '<p class="note" role="status">Recherche arrêtée faute de temps : seuls les mots trouvés' in html
    count = int(re.search(r"<p>(\d+) mots trouvés", html)[1])
    assert 0 < count < 2166


def test_the_grids_best_moves_stop_at_the_time_limit_and_say_so(client, settings, ticking_clock):
    client.post("/grille/", {"start": "H4", "letters": "VAGUE", "action": "place"})
    settings.SEARCH_TIME_LIMIT = 10
    html = client.post("/grille/", {"rack": "EHLA?NI", "action": "best"}).content.decode()
    assert '<p class="note" role="status">Recherche arrêtée faute de temps : seuls les coups trouvés' in html
    count = int(re.search(r"(\d+) coups possibles avec la liste libre", html)[1])
    assert 0 < count < 7762
    assert html.count('<span class="best-notation">') == 20


def test_a_complete_search_says_nothing_of_time(client):
    body = post(client, "/api/words", {"letters": "KIWI"}).json()
    assert (body["complete"], body["count"]) == (True, 2)  # KIWI, WIKI
    assert "detail" not in body
    assert "faute de temps" not in client.post("/mots/", {"letters": "KIWI"}).content.decode()


def test_a_process_first_search_is_not_cut_by_loading_the_kernel(monkeypatch):
    """Loading (or, once a machine, compiling) the kernel takes the first search's time: that search is not
    timed, the next ones are."""
    edition = BUILTIN_EDITIONS["fr"]
    index = lexicon_index(default_french_lexicon(), edition)
    ticks = iter(range(0, 100_000, 100))  # a clock that jumps 100 s at each reading: any deadline has passed
    monkeypatch.setattr(movegen, "monotonic", lambda: next(ticks))
    monkeypatch.setattr(movegen, "_STEPS_BETWEEN_CLOCK_READS", 1)
    monkeypatch.setattr(movegen, "_searched", False)
    first = movegen.best_moves(Board(), "EHLANIS", edition, index, limit=1, time_limit=1)
    assert first.count > 1000
    with pytest.raises(movegen.OutOfTime):
        movegen.best_moves(Board(), "EHLANIS", edition, index, limit=1, time_limit=1)
