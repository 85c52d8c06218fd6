"""Issue 23's trial of the game files: what a file must not make the site do. A file nested 23,000 levels deep
was a 500 (RecursionError); a key the API refuses was read without a word; a file naming no edition was told its
edition « None » was unknown. Each is refused with its French reason, on the upload's field, nothing created."""

import json

import pytest
from django.test import Client
from django.urls import reverse

from duplicate import games
from duplicate.errors import DuplicateError
from duplicate.models import Session, Simultane
from duplicate.schemas import GameOut, GameRoundIO

from .test_game_files import GAME, game_file, new_session_form, read, upload

pytestmark = pytest.mark.django_db

NO_EDITION = "Le fichier de partie ne nomme pas son édition (« edition » : fr, en, es…)."
TOO_DEEP = "Le fichier de partie imbrique trop de listes ou d'objets : ce n'est pas une partie."


def refusal(raw) -> str:
    with pytest.raises(DuplicateError) as refused:
        read(raw)
    return str(refused.value)


def nested(depth: int, opening: bytes = b"[", inside: bytes = b"", closing: bytes = b"]") -> bytes:
    return opening * depth + inside + closing * depth


# Nesting


@pytest.mark.parametrize(
    "raw",
    [
        nested(23_000),
        nested(12_000, b'{"":', b"1", b"}"),
        b'{"edition": "fr", "rounds": ' + nested(23_000) + b"}",
    ],
    ids=["lists", "objects", "rounds"],
)
def test_a_file_nested_past_what_python_reads_is_refused_in_french(raw):
    assert refusal(raw) == TOO_DEEP


def test_a_deep_value_python_still_reads_is_refused_as_what_it_is():
    assert refusal(b'{"edition": "fr", "rounds": [' + nested(5_000) + b"]}") == (
        "Coup 1 : un objet {number, draw, top, top_score} attendu."
    )
    assert refusal(b'{"edition": ' + nested(5_000) + b', "rounds": []}') == (
        "Édition du fichier de partie inconnue : [[[[[[[[[[[[[[[[[[[[."
    )


def test_the_deep_file_uploaded_is_refused_on_its_field_and_creates_nothing(alice):
    client = Client(raise_request_exception=False)
    client.force_login(alice)
    response = client.post(reverse("duplicate:new"), new_session_form(game_file=upload(nested(23_000))))
    assert response.status_code == 400
    assert response.context["form"].errors["game_file"] == [TOO_DEEP]
    assert not Session.objects.exists()


def test_the_simultanes_page_refuses_it_too(comite, eve):
    from scoring.models import Edition, RuleSet

    client = Client(raise_request_exception=False)
    client.force_login(eve)
    data = {
        "name": "Simultané de Noël",
        "body": comite.pk,
        "starts_at": "2030-12-20T14:00",
        "edition": Edition.objects.get(code="fr").pk,
        "rule_set": RuleSet.objects.get(code="tournoi").pk,
        "move_seconds": "180",
        "game_file": upload(nested(23_000)),
    }
    response = client.post(reverse("duplicate:simultane_new"), data)
    assert response.status_code == 400
    assert response.context["form"].errors["game_file"] == [TOO_DEEP]
    assert not Simultane.objects.exists()


def test_the_api_refuses_a_deep_game_in_french(comite, eve):
    """The API takes a simultané's game in its JSON body: it is read by ninja's parser, not `read_file`."""
    client = Client(raise_request_exception=False)
    client.force_login(eve)
    for depth in (23_000, 5_000):
        body = b'{"name": "S", "starts_at": "2030-12-20T14:00:00+01:00", "game": ' + nested(depth) + b"}"
        response = client.post("/api/duplicate/simultanes", body, content_type="application/json")
        assert response.status_code == 400
        assert response.json() == {"detail": "Corps de la requête illisible : du JSON est attendu."}
    assert not Simultane.objects.exists()


# The edition


@pytest.mark.parametrize(
    "raw",
    [json.dumps({"rounds": GAME}).encode(), game_file(edition=None), game_file(edition=""), game_file(edition="  ")],
    ids=["absent", "null", "empty", "spaces"],
)
def test_a_file_naming_no_edition_says_so(raw):
    assert refusal(raw) == NO_EDITION


@pytest.mark.parametrize(
    ("edition", "shown"),
    [
        ("xx", "xx"),
        ("None", "None"),
        (5, "5"),
        ("x" * 30, "x" * 20),
        ("f\u200br", "f[U+200B]r"),
        ("f\x00", "f[U+0000]"),
    ],
    ids=["xx", "None", "number", "long", "hidden", "nul"],
)
def test_an_unknown_edition_is_named(edition, shown):
    assert refusal(game_file(edition=edition)) == f"Édition du fichier de partie inconnue : {shown}."


def test_a_moves_number_is_quoted_with_its_hidden_characters_shown():
    assert refusal(game_file(rounds=[{**GAME[0], "number": "1\u202e"}])) == (
        "Les coups sont numérotés 1, 2, 3… : le coup n° 1 porte le numéro 1[U+202E]."
    )


def test_the_upload_without_an_edition_says_so_on_its_field(client, alice):
    client.force_login(alice)
    raw = json.dumps({"rounds": GAME}).encode()
    response = client.post(reverse("duplicate:new"), new_session_form(game_file=upload(raw)))
    assert response.status_code == 400
    assert response.context["form"].errors["game_file"] == [NO_EDITION]
    assert not Session.objects.exists()


# Keys


def test_the_files_own_keys_are_read():
    about = {
        "format": "clubsite.duplicate.game",
        "version": 1,
        "name": "Mardi",
        "date": "2026-11-24",
        "rules": "tournoi",
    }
    code, rounds = read(game_file(**about))
    assert (code, len(rounds)) == ("fr", 4)


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (game_file(varaint="joker"), "Champ inconnu : « varaint »."),
        (game_file(rounds=[GAME[0], {**GAME[1], "points": 18}]), "Coup 2 : champ inconnu « points »."),
        (game_file(rounds=[{**GAME[0], "top_scor": 26}]), "Coup 1 : champ inconnu « top_scor »."),
        (game_file(**{"edit\u200bion": "fr"}), "Champ inconnu : « edit[U+200B]ion »."),
        (game_file(**{"x" * 100: 1}), f"Champ inconnu : « {'x' * 30}… »."),
    ],
    ids=["top_level", "in_a_move", "misspelt", "hidden_character", "long"],
)
def test_an_unknown_key_is_refused_naming_it(raw, message):
    assert refusal(raw) == message


def test_the_upload_with_an_unknown_key_creates_nothing(client, alice):
    client.force_login(alice)
    raw = game_file(rounds=[{**GAME[0], "comment": "beau coup"}])
    response = client.post(reverse("duplicate:new"), new_session_form(game_file=upload(raw)))
    assert response.status_code == 400
    assert response.context["form"].errors["game_file"] == ["Coup 1 : champ inconnu « comment »."]
    assert not Session.objects.exists()


def test_the_keys_a_file_may_hold_are_the_apis_for_the_same_game():
    assert set(GameOut.model_fields) == games.FILE_KEYS
    assert set(GameRoundIO.model_fields) == games.ROUND_KEYS


def test_an_exported_game_names_only_keys_a_file_may_hold():
    """The keys the reader takes are the ones the export writes (`games.document`)."""
    document = games.document("fr", read(game_file())[1], name="Mardi", date="2026-11-24", rules="tournoi")
    assert set(document) <= games.FILE_KEYS
    assert {key for move in document["rounds"] for key in move} <= games.ROUND_KEYS
    assert read(json.dumps(document).encode())[0] == "fr"
