"""POST /api/top and POST /api/words: the top finder over the free French list."""

import json
import re

import pytest

pytestmark = pytest.mark.django_db


def post(client, url, body):
    return client.post(url, json.dumps(body), content_type="application/json")


def test_top_moves_for_a_rack_on_a_board(client):
    response = post(client, "/api/top", {"edition": "fr", "board": ["H4 VAGUE"], "rack": "EHLA?NI", "limit": 3})
    body = response.json()
    assert response.status_code == 200
    assert body["count"] == 7762
    assert [(m["move"], m["score"]) for m in body["moves"]] == [
        ("5E HALAIENt", 90),
        ("5E INHALErA", 90),
        ("8A HALkINEE", 80),
    ]
    words = body["moves"][0]["words"]
    assert words[0] == {"word": "HALAIENt", "score": 40, "calculation": "(4 + 1 + 1 + 1 + 1 + 1 + 1 + 0) × 4 = 40"}
    assert sum(word["score"] for word in words) + 50 == 90


def test_every_top_move_scores_the_same_through_the_scoring_api(client):
    moves = post(client, "/api/top", {"board": ["H4 VAGUE", "4G AVIONS"], "rack": "ERSTU?E", "limit": 30}).json()
    for move in moves["moves"]:
        checked = post(
            client, "/api/score", {"board": ["H4 VAGUE", "4G AVIONS"], "move": move["move"], "check_words": True}
        )
        assert checked.json()["score"] == move["score"]
        assert all(word["in_list"] for word in checked.json()["words"])


def test_words_from_letters_longest_first(client):
    body = post(client, "/api/words", {"letters": "AEIRST?"}).json()
    assert body["count"] == 2166
    assert len(body["words"][0]["word"]) == 7
    assert body["words"][0] == {"word": "AIRaTES", "values": [1, 1, 1, 0, 1, 1, 1], "total": 6}
    assert len(body["words"][-1]["word"]) == 2


@pytest.mark.parametrize(
    ("url", "body", "status", "detail"),
    [
        ("/api/top", {"rack": "AB1"}, 422, "Champ « rack » : des lettres seulement, « ? » pour un joker."),
        ("/api/top", {"rack": "ÀB(C)"}, 422, "Champ « rack » : des lettres seulement, « ? » pour un joker."),
        ("/api/top", {"rack": "ABCDEFGHIJ"}, 422, "Le tirage compte 10 lettres : 9 au plus, jokers compris."),
        ("/api/top", {"rack": "AB", "edition": "en"}, 422, "Aucune liste de mots n'est définie pour l'édition « en »."),
        (
            "/api/top",
            {"rack": "AB", "board": ["A1 ZOO"]},
            422,
            "Grille, coup 1 (« A1 ZOO ») : "
            "le premier coup doit couvrir la case centrale H8 avec au moins deux lettres.",
        ),
        ("/api/top", {"rack": "AB", "limit": 500}, 422, "Champ « limit » : 200 au plus."),
        ("/api/words", {}, 422, "Champ « letters » manquant."),
    ],
)
def test_errors(client, url, body, status, detail):
    response = post(client, url, body)
    assert (response.status_code, response.json()) == (status, {"detail": detail})


def test_word_finder_page(client):
    response = client.post("/mots/", {"letters": "kiwi"})
    html = response.content.decode()
    assert "<td><strong>KIWI</strong></td><td>10 + 1 + 10 + 1</td><td>22</td>" in html
    response = client.post("/mots/", {"letters": "A3"})
    assert response.status_code == 400
    assert "Caractère non accepté : « 3 »" in response.content.decode()
    assert client.get("/mots/").status_code == 200


def test_word_finder_says_when_it_shows_only_the_first_words(client):
    """Trial of issue 10: "?????" found 9,856 words and showed 500 without a word (five blanks are refused now)."""
    html = client.post("/mots/", {"letters": "ESARTI??"}).content.decode()
    count = int(re.search(r"<p>(\d+) mots trouvés", html)[1])
    assert count > 500
    assert "Les 500 premiers (les plus longs) sont affichés" in html
    assert html.count("<tr><td><strong>") == 500
    assert "sont affichés" not in client.post("/mots/", {"letters": "kiwi"}).content.decode()


def test_word_finder_with_no_letters_says_so(client):
    response = client.post("/mots/", {"letters": "  "})
    assert response.status_code == 400
    assert "Tapez d&#x27;abord des lettres (un ? pour un joker)." in response.content.decode()
