"""Issue 23: the counter, the grid and the word finder quoted what was typed raw in their refusals, so a hidden
character hid again in the message that named it (« Caractère non accepté : « ‮ » »). They write it as its code, as
clubsite.text.shown does elsewhere, and the page's script does the same (test_score_rules_js.py holds it to them)."""

import json
import re
from html import unescape

import pytest

from scoring.browser import counter_texts

pytestmark = pytest.mark.django_db

RLO = "\u202e"


def errors(response) -> list[str]:
    return [
        unescape(text) for text in re.findall(r'<p class="error" role="alert">(.*?)</p>', response.content.decode())
    ]


def test_the_typed_counter_writes_the_refused_character_as_its_code(client):
    response = client.post("/", {"words": "1", "edition": "fr", "w0": f"VA{RLO}GUE"})
    assert errors(response) == ["Caractère non accepté : « [U+202E] ». Seules les lettres sont admises."]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            {"start": "H8", "letters": f"VA{RLO}GUE"},
            "Caractère non accepté : « [U+202E] ». Seules les lettres sont admises.",
        ),
        (
            {"start": f"H8{RLO}", "letters": "VAGUE"},
            "« H8[U+202E] » n'est pas une case de la grille : une ligne de A à O puis une colonne de 1 à 15 (H8).",
        ),
        (
            {"start": "8H\u200b", "letters": "VAGUE"},
            "« 8H[U+200B] » n'est pas une case de la grille : une ligne de A à O puis une colonne de 1 à 15 (H8).",
        ),
        (
            {"rack": f"EA{RLO}U", "action": "best"},
            "Caractère non accepté : « [U+202E] ». Seules les lettres sont admises.",
        ),
    ],
    ids=["letters", "start", "start_zero_width", "best_moves_rack"],
)
def test_the_grid_writes_the_refused_character_as_its_code(client, data, message):
    response = client.post("/grille/", data)
    assert errors(response) == [message]


def test_the_word_finder_writes_the_refused_character_as_its_code(client):
    response = client.post("/mots/", {"edition": "fr", "letters": f"EA{RLO}U"})
    assert response.status_code == 400
    assert errors(response) == ["Caractère non accepté : « [U+202E] ». Seules les lettres sont admises."]


def test_the_score_api_writes_it_as_its_code_too(client):
    """The API's pattern takes letters only: a Hangul filler is one (Lo), and reaches the engine."""
    response = client.post("/api/score", {"move": "H8 VA\u3164GUE"}, content_type="application/json")
    assert response.status_code == 422
    assert response.json() == {"detail": "Caractère non accepté : « [U+3164] ». Seules les lettres sont admises."}


def test_the_page_gives_its_script_the_characters_to_write_as_codes(client):
    response = client.get("/")
    script = re.search(r'id="counter-texts" type="application/json">(.*?)</script>', response.content.decode(), re.S)
    texts = json.loads(unescape(script[1]))
    assert texts["hidden"] == counter_texts()["hidden"]
    assert texts["hidden"].startswith("[\\p{Cc}\\p{Cf}\\p{Zl}\\p{Zp}")
