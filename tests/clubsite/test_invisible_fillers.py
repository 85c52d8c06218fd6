"""Issue 23's trial of the name checks: characters that draw nothing yet are neither control nor format characters
passed them. The Hangul fillers are letters (Lo), the combining grapheme joiner a mark (Mn), the line and paragraph
separators categories of their own (Zl, Zp), the Braille blank a symbol (So): each gave a name no one could see.
They are refused as U+200B is, wherever a name is typed; a name made only of spaces is refused too."""

import html

import pytest
from django.urls import reverse

from clubsite.models import Club
from clubsite.text import refused_character
from duplicate.models import Player, Session

pytestmark = pytest.mark.django_db

FILLERS = {
    "hangul_filler": "\u3164",
    "hangul_choseong_filler": "\u115f",
    "hangul_jungseong_filler": "\u1160",
    "halfwidth_hangul_filler": "\uffa0",
    "combining_grapheme_joiner": "\u034f",
    "line_separator": "\u2028",
    "paragraph_separator": "\u2029",
    "mongolian_vowel_separator": "\u180e",
    "braille_blank": "\u2800",
    "khmer_vowel_inherent_aq": "\u17b4",
    "khmer_vowel_inherent_aa": "\u17b5",
}
REFUSAL = "ne peut contenir de caractère invisible ou de contrôle de sens d'écriture"


def code(character: str) -> str:
    return f"U+{ord(character):04X}"


@pytest.mark.parametrize("character", list(FILLERS.values()), ids=list(FILLERS))
def test_a_character_that_draws_nothing_is_found_wherever_it_is(character):
    assert refused_character(character).code == code(character)
    assert refused_character(f"Ann{character}e").code == code(character)
    assert refused_character(f"Ann{character}e", lines=True).code == code(character)


def test_the_letters_and_marks_of_real_names_are_not_taken_for_fillers():
    # Hangul syllables and jamo that draw, a combining accent, a Khmer vowel sign, Braille that shows its dots.
    assert refused_character("김민준 ᄀ ㄱ Zoe\u0301 ក\u17b6 \u2801 ｱ") is None


@pytest.mark.parametrize("character", ["\u3164", "\u2800", "\u2028"], ids=code)
def test_a_club_name_made_of_a_filler_is_refused(client, alice, character):
    client.force_login(alice)
    response = client.post(reverse("club_create"), {"name": f"Club{character}Lyon"})
    assert response.status_code == 400
    assert f"Un nom de club {REFUSAL} ({code(character)})." in html.unescape(response.content.decode())
    assert not Club.objects.exists()


def test_a_player_pasted_as_a_filler_is_refused_with_its_line(client, alice):
    client.force_login(alice)
    data = {
        "name": "Mardi soir",
        "date": "2026-12-05",
        "club": "",
        "edition": 1,
        "rule_set": 1,
        "move_seconds": 180,
        "entry": "arbiter",
        "players": "1;Anne\n2;\u3164",
    }
    response = client.post(reverse("duplicate:new"), data)
    assert response.status_code == 400
    page = html.unescape(response.content.decode())
    assert "Ligne 2 : caractère invisible ou de contrôle de sens d'écriture (U+3164) non accepté." in page
    assert not Session.objects.exists()


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            {"name": "Mardi\u3164", "players": ["Anne"]},
            "Champ « name » : caractère invisible ou de contrôle de sens d'écriture (U+3164) non accepté.",
        ),
        (
            {"name": "Mardi", "players": ["Anne", "\u2800"]},
            "Champ « players.1 » : caractère invisible ou de contrôle de sens d'écriture (U+2800) non accepté.",
        ),
        (
            {"name": "Mardi", "players": ["Anne", "Bo\u034fb"]},
            "Champ « players.1 » : caractère invisible ou de contrôle de sens d'écriture (U+034F) non accepté.",
        ),
    ],
)
def test_the_api_refuses_a_filler_in_a_name(client, alice, body, message):
    client.force_login(alice)
    response = client.post("/api/duplicate/sessions", body, content_type="application/json")
    assert (response.status_code, response.json()) == (422, {"detail": message})
    assert not Session.objects.exists()


# Names made only of spaces


@pytest.mark.parametrize("name", ["   ", "\u3000", " \u00a0 "], ids=["spaces", "ideographic_space", "no_break_space"])
def test_the_api_refuses_a_player_named_only_with_spaces(client, alice, name):
    """It was taken, the player silently dropped: a session created with one player fewer than sent."""
    client.force_login(alice)
    body = {"name": "Mardi", "players": ["Anne", name]}
    response = client.post("/api/duplicate/sessions", body, content_type="application/json")
    assert (response.status_code, response.json()) == (
        422,
        {"detail": "Champ « players.1 » : un texte fait seulement d'espaces n'est pas accepté."},
    )
    assert not Session.objects.exists()
    assert not Player.objects.exists()


@pytest.mark.parametrize("name", ["   ", "\u3000"], ids=["spaces", "ideographic_space"])
def test_the_pages_refuse_a_name_made_only_of_spaces(client, alice, name):
    client.force_login(alice)
    response = client.post(reverse("club_create"), {"name": name})
    assert response.status_code == 400
    assert not Club.objects.exists()
    api = client.post("/api/duplicate/sessions", {"name": name}, content_type="application/json")
    assert (api.status_code, api.json()) == (422, {"detail": "Donnez un nom à la séance."})
