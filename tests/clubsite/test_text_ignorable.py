"""Issue 23's second trial of the name checks: variation selectors, the code points Unicode calls default-ignorable,
the musical null notehead and the Khitan filler passed them, and so did "zalgo" text, a letter under a pile of
combining overlays that strikes through its neighbours. Each is refused wherever a name is typed, its code named;
an emoji's own presentation selector (❤️) is not, nor the two marks a decomposed Vietnamese letter needs."""

import html
import shutil
import subprocess

import pytest
from django.urls import reverse

from clubsite.models import Club
from clubsite.text import (
    DEFAULT_IGNORABLE,
    HIDDEN,
    MOST_MARKS,
    STACKED,
    RefusedCharacter,
    refused_character,
    shown,
)
from duplicate.models import Session

pytestmark = pytest.mark.django_db

INVISIBLE = {
    "variation_selector_1": "\ufe00",
    "text_presentation_selector": "\ufe0e",
    "emoji_presentation_selector_after_a_letter": "\ufe0f",
    "variation_selector_17": "\U000e0100",
    "variation_selector_256": "\U000e01ef",
    "mongolian_free_variation_selector": "\u180b",
    "unassigned_default_ignorable": "\u2065",
    "unassigned_tag_block": "\U000e0080",
    "musical_symbol_null_notehead": "\U0001d159",
    "khitan_small_script_filler": "\U00016fe4",
}
ZALGO = "Bob" + "\u0336" * 20
HIDDEN_REFUSAL = "ne peut contenir de caractère invisible ou de contrôle de sens d'écriture"


def code(character: str) -> str:
    return f"U+{ord(character):04X}"


def page(response) -> str:
    return html.unescape(response.content.decode())


def _perl_knows_unicode() -> bool:
    return bool(shutil.which("perl")) and subprocess.run(["perl", "-MUnicode::UCD", "-e", "1"]).returncode == 0


@pytest.mark.skipif(not _perl_knows_unicode(), reason="perl et son module Unicode::UCD ne sont pas installés")
def test_the_default_ignorable_table_is_unicode_s():
    """The table against another copy of Unicode's data, Perl's (Unicode 14.0 in Debian 12's perl, whose 4,174
    default-ignorable code points 15.0 and 15.1 kept), its ranges merged as in the table."""
    script = (
        "use Unicode::UCD qw(prop_invlist); my @r = prop_invlist('Default_Ignorable_Code_Point');"
        "for (my $i = 0; $i < @r; $i += 2) { print $r[$i], ' ', $r[$i + 1] - 1, \"\\n\" }"
    )
    listed = subprocess.run(["perl", "-e", script], capture_output=True, text=True, check=True).stdout.split("\n")
    assert [tuple(map(int, line.split())) for line in listed if line] == list(DEFAULT_IGNORABLE)
    assert sum(last - first + 1 for first, last in DEFAULT_IGNORABLE) == 4174


@pytest.mark.parametrize("character", list(INVISIBLE.values()), ids=list(INVISIBLE))
def test_a_default_ignorable_or_empty_character_is_refused_wherever_it_is(character):
    assert refused_character(f"Ann{character}e") == RefusedCharacter(HIDDEN, code(character))
    assert refused_character(f"Ann{character}e", lines=True) == RefusedCharacter(HIDDEN, code(character))
    assert shown(f"Ann{character}e") == f"Ann[{code(character)}]e"


def test_an_emoji_keeps_its_presentation_selector_once_and_nothing_else_does():
    assert refused_character("Club ❤\ufe0f de Lyon ☀\ufe0f♠\ufe0f") is None
    assert refused_character("Club ❤\ufe0f\ufe0f") == RefusedCharacter(HIDDEN, "U+FE0F")
    assert refused_character("Bob\ufe0f") == RefusedCharacter(HIDDEN, "U+FE0F")
    assert refused_character("Bob 1\ufe0f\u20e3") == RefusedCharacter(HIDDEN, "U+FE0F")  # a keycap: after a digit
    assert refused_character("❤\ufe0e") == RefusedCharacter(HIDDEN, "U+FE0E")
    assert shown("❤\ufe0f\ufe0f") == "❤\ufe0f[U+FE0F]"


def test_marks_stacked_past_the_limit_are_refused_from_the_first_one_too_many():
    assert MOST_MARKS == 3
    assert refused_character(ZALGO) == RefusedCharacter(STACKED, "U+0336")
    assert refused_character("a\u0336\u0336\u0336") is None
    assert refused_character("a\u0336\u0336\u0336\u20dd") == RefusedCharacter(STACKED, "U+20DD")  # enclosing (Me)
    assert shown("Bo\u0336\u0336\u0336\u0336\u0336b") == "Bo\u0336\u0336\u0336[U+0336][U+0336]b"


def test_real_names_written_with_marks_are_not_refused():
    # Vietnamese typed decomposed (ệ as e, dot below, circumflex), Hebrew with its points, a Tibetan stack.
    assert refused_character("Nguye\u0323\u0302n Vie\u0323\u0302t") is None
    assert refused_character("שָׁלוֹם") is None
    assert refused_character("སྒྲིག") is None
    assert refused_character("Zoé Ünal, Łukasz, 李小龍, 김민준") is None


def test_a_club_name_in_zalgo_is_refused_naming_the_first_mark_too_many(client, alice):
    client.force_login(alice)
    response = client.post(reverse("club_create"), {"name": f"Club {ZALGO}"})
    assert response.status_code == 400
    assert "Un nom de club ne peut empiler plus de 3 signes diacritiques sur une lettre (U+0336)." in page(response)
    assert not Club.objects.exists()


@pytest.mark.parametrize("character", ["\ufe0f", "\U000e0100", "\U0001d159", "\U00016fe4"], ids=code)
def test_the_profile_refuses_an_invisible_character_in_a_name(client, alice, character):
    client.force_login(alice)
    data = {"first_name": f"Alice{character}", "last_name": "Martin", "email": "alice@example.org", "licence": ""}
    response = client.post(reverse("profile"), data)
    assert response.status_code == 400
    assert response.context["form"].errors == {"first_name": [f"Un prénom {HIDDEN_REFUSAL} ({code(character)})."]}
    alice.refresh_from_db()
    assert alice.first_name == ""


def test_a_club_name_with_an_emoji_is_taken(client, alice):
    client.force_login(alice)
    response = client.post(reverse("club_create"), {"name": "Club ❤\ufe0f Lyon"})
    assert response.status_code == 302
    assert Club.objects.get().name == "Club ❤\ufe0f Lyon"


def test_a_pasted_player_in_zalgo_is_refused_with_its_line(client, alice):
    client.force_login(alice)
    data = {
        "name": "Mardi soir",
        "date": "2026-12-05",
        "club": "",
        "edition": 1,
        "rule_set": 1,
        "move_seconds": 180,
        "entry": "arbiter",
        "players": f"1;Anne\n2;{ZALGO}",
    }
    response = client.post(reverse("duplicate:new"), data)
    assert response.status_code == 400
    assert "Ligne 2 : plus de 3 signes diacritiques sur une lettre (U+0336) non acceptés." in page(response)
    assert not Session.objects.exists()


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (["Anne", ZALGO], "Champ « players.1 » : plus de 3 signes diacritiques sur une lettre (U+0336) non acceptés."),
        (
            ["Anne", "Bob\U000e0100"],
            "Champ « players.1 » : caractère invisible ou de contrôle de sens d'écriture (U+E0100) non accepté.",
        ),
    ],
)
def test_the_api_refuses_them_naming_the_field(client, alice, players, message):
    client.force_login(alice)
    response = client.post("/api/duplicate/sessions", {"name": "Mardi", "players": players}, "application/json")
    assert (response.status_code, response.json()) == (422, {"detail": message})
    assert not Session.objects.exists()
