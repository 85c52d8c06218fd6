"""Issue 23, "names that cannot lie on a ranking": a character that shows nothing (U+200B) or turns the text around
(U+202E) is refused in a member's names, a club's and a token's, with the field it is in, and nothing is saved."""

import html

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from clubsite.models import ApiToken, Club, PendingSignup
from clubsite.text import refused_character

from .test_accounts import signup_data

pytestmark = pytest.mark.django_db

REFUSAL = "ne peut contenir de caractère invisible ou de contrôle de sens d'écriture"


def page(response) -> str:
    return html.unescape(response.content.decode())


@pytest.mark.parametrize(
    "character",
    # Control (Cc), format (Cf), and among them every bidirectional control.
    ["\x07", "\x1b", "\x7f", "\x85", "\u00ad", "\u200b", "\u200d", "\u2060", "\ufeff", "\u061c", "\u200e", "\u200f"]
    + [chr(code) for code in range(0x202A, 0x202F)]
    + [chr(code) for code in range(0x2066, 0x206A)],
)
def test_a_control_or_format_character_is_found_wherever_it_is(character):
    assert refused_character(f"Ann{character}e").code == f"U+{ord(character):04X}"
    assert refused_character(f"Ann{character}e", lines=True).code == f"U+{ord(character):04X}"


def test_letters_of_every_script_and_the_layout_of_a_text_of_lines_are_text():
    assert refused_character("Zoé Ünal-O'Brien, Łukasz, Ñúñez, 李小龍, Ærøskøbing, Ça va ? ²") is None
    assert refused_character("Ligne 1\r\nLigne\t2\n").code == "U+000D"
    assert refused_character("Ligne 1\r\nLigne\t2\n", lines=True) is None


def test_a_club_name_that_would_show_reversed_is_refused(client, alice):
    client.force_login(alice)
    response = client.post(reverse("club_create"), {"name": "Club \u202eednoM"})
    assert response.status_code == 400
    assert f"Un nom de club {REFUSAL} (U+202E)." in page(response)
    assert not Club.objects.exists()


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("first_name", "\u200b", f"Un prénom {REFUSAL} (U+200B)."),
        ("last_name", "Martin\u202e", f"Un nom {REFUSAL} (U+202E)."),
        ("last_name", "Mar\x07tin", f"Un nom {REFUSAL} (U+0007)."),
    ],
)
def test_the_profile_refuses_a_name_that_would_lie_on_a_ranking(client, alice, field, value, message):
    client.force_login(alice)
    data = {"first_name": "Alice", "last_name": "Martin", "email": "alice@example.org", "licence": ""}
    response = client.post(reverse("profile"), data | {field: value})
    assert response.status_code == 400
    assert response.context["form"].errors == {field: [message]}
    alice.refresh_from_db()
    assert (alice.first_name, alice.last_name) == ("", "")  # not even the field that was right


def test_the_sign_up_refuses_an_invisible_name(client):
    response = client.post(reverse("signup"), signup_data(first_name="Da\ufeffve"))
    assert response.status_code == 400
    assert response.context["form"].errors == {"first_name": [f"Un prénom {REFUSAL} (U+FEFF)."]}
    assert not PendingSignup.objects.exists()
    assert not User.objects.filter(username="dave").exists()


def test_a_token_name_is_refused_with_the_same_reason(client, alice):
    client.force_login(alice)
    response = client.post(reverse("api_token_create"), {"label": "robot\u2066"})
    assert response.status_code == 400
    assert f"Un nom de jeton {REFUSAL} (U+2066)." in page(response)
    assert not ApiToken.objects.exists()
