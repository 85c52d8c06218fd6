"""Issue 23's trial of « Trouver un mot » (/mots/): 30 letters were refused with « Le mot compte 20 lettres : 15 au
plus. », two wrong figures. The 20 was the view cutting what was sent to 20 characters, the 15 the longest word a
notation may write (Edition.split), applied to each run of letters between jokers; a search takes 9 tiles at most
(movegen.MAX_RACK). The refusal now gives the count typed and that limit."""

import html
import re

import pytest
from django.urls import reverse

from scoring.engine.editions import BUILTIN_EDITIONS
from scoring.engine.errors import NotationError
from scoring.engine.movegen import MAX_RACK, read_rack

pytestmark = pytest.mark.django_db


def refusal(response) -> list[str]:
    return re.findall(r'class="error"[^>]*>([^<]*)<', html.unescape(response.content.decode()))


@pytest.mark.parametrize(
    ("letters", "count"),
    [("ABCDEFGHIJKLMNOPQRSTUVWXYZABCD", 30), ("A" * 16, 16), ("EAUSTVRIN?", 10), ("A B C D E F G H I J K L", 12)],
    ids=["thirty", "sixteen", "ten_with_a_joker", "spaced"],
)
def test_too_many_letters_are_refused_with_the_count_and_the_limit(client, letters, count):
    response = client.post(reverse("words"), {"letters": letters, "edition": "fr"})
    assert response.status_code == 400
    assert refusal(response) == [f"Le tirage compte {count} lettres : 9 au plus, jokers compris."]


def test_a_text_no_one_types_as_a_rack_is_refused_by_its_length(client):
    response = client.post(reverse("words"), {"letters": "A" * 250_000, "edition": "fr"})
    assert response.status_code == 400
    assert refusal(response) == ["Le tirage compte 250000 caractères : 9 lettres au plus, jokers compris."]


def test_nine_letters_are_searched(client):
    response = client.post(reverse("words"), {"letters": "EAUSTVRI?", "edition": "fr"})
    assert response.status_code == 200
    assert refusal(response) == []


def test_the_api_says_the_same(client):
    response = client.post("/api/words", {"letters": "A" * 16}, content_type="application/json")
    assert (response.status_code, response.json()) == (
        422,
        {"detail": "Le tirage compte 16 lettres : 9 au plus, jokers compris."},
    )


def test_a_tile_of_two_letters_counts_once():
    """Spanish CH, LL and RR are one tile each: 11 characters, 8 tiles, within the limit."""
    spanish = BUILTIN_EDITIONS["es"]
    alphabet = [spec.letter for spec in spanish.letters]
    codes, blanks = read_rack("CHLLRRAEIOU", spanish, alphabet)
    assert (len(codes), blanks) == (8, 0)
    with pytest.raises(NotationError) as refused:
        read_rack("CH" * 10, spanish, alphabet)
    assert refused.value.message == "Le tirage compte 10 lettres : 9 au plus, jokers compris."
    assert MAX_RACK == 9
