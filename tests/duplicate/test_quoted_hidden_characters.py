"""Issue 23's trial of the console: a top typed with a zero-width space (U+200B) was refused with a message that
quoted it raw, « caractère non accepté : «  » », showing nothing where the culprit was. A refusal that quotes what
was typed writes such a character as its code, [U+200B]."""

import html
import re

import pytest
from django.urls import reverse

from clubsite.text import shown
from duplicate.services.rounds import round_add

from .conftest import make_session

pytestmark = pytest.mark.django_db


def test_shown_writes_each_hidden_character_as_its_code():
    assert shown("H4 VA\u200bGUE") == "H4 VA[U+200B]GUE"
    assert shown("\u202eevil\u3164") == "[U+202E]evil[U+3164]"
    assert shown("Zoé Ünal, 김민준 ²") == "Zoé Ünal, 김민준 ²"


def alert(response) -> str:
    text = html.unescape(response.content.decode())
    return " ".join(re.findall(r'class="error"[^>]*role="alert"[^>]*>([^<]*)<', text))


@pytest.fixture
def drawn(alice, lyon):
    session = make_session(alice, lyon)
    round_add(session=session, draw_text="VAGUEST")
    return session


@pytest.mark.parametrize(
    ("top", "message"),
    [
        ("H4 VA\u200bGUE", "Top refusé : caractère non accepté : « [U+200B] ». Seules les lettres sont admises."),
        ("H4 VAGUE\u200b", "Top refusé : caractère non accepté : « [U+200B] ». Seules les lettres sont admises."),
        (
            "H\u200b4 VAGUE",
            "Top refusé : coordonnée illisible : « H[U+200B]4 ». Écrivez la ligne (A à O) puis la colonne (1 à 15) "
            "pour un mot horizontal, comme H4, ou la colonne puis la ligne pour un mot vertical, comme 4H.",
        ),
        ("\u200b", "Top refusé : écrivez la coordonnée puis le mot, par exemple « H4 VAGUE » : « [U+200B] »."),
    ],
    ids=["in_the_word", "after_the_word", "in_the_square", "alone"],
)
def test_the_consoles_refusal_of_a_top_shows_the_hidden_character_as_its_code(client, alice, drawn, top, message):
    client.force_login(alice)
    response = client.post(reverse("duplicate:round_top", args=[drawn.pk, 1]), {"top": top})
    assert response.status_code == 400
    assert alert(response) == message
    drawn.refresh_from_db()
    assert drawn.rounds.get().top == ""


def test_the_consoles_refusal_of_a_draw_shows_it_too(client, alice, lyon):
    session = make_session(alice, lyon)
    client.force_login(alice)
    response = client.post(
        reverse("duplicate:round_add", args=[session.pk]), {"action": "typed", "draw": "VAG\u2060UEST"}
    )
    assert response.status_code == 400
    assert "[U+2060]" in alert(response)
    assert "\u2060" not in alert(response)
    assert not session.rounds.exists()
