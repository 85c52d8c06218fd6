"""POST /api/score: the contract of issue 2, and a French 4xx for every kind of bad input."""

import json

import pytest

from scoring.models import Edition

pytestmark = pytest.mark.django_db


def post(client, body, raw=False):
    data = body if raw else json.dumps(body)
    return client.post("/api/score", data, content_type="application/json")


def test_avions_through_vague(client):
    response = post(client, {"edition": "fr", "board": ["H4 VAGUE"], "move": "4G AVIONS"})
    assert response.status_code == 200
    assert response.json() == {
        "score": 18,
        "tiles_placed": 5,
        "bonus": 0,
        "words": [{"word": "AVIONS", "score": 18, "calculation": "(1 + 4 + 1 + 1 + 1 + 1) × 2 = 18"}],
    }


def test_edition_defaults_to_french_and_bonus_is_reported(client):
    response = post(client, {"move": "H4 MOUTONS"})
    assert response.json()["score"] == 70
    assert (response.json()["bonus"], response.json()["tiles_placed"]) == (50, 7)


def test_main_word_first_then_cross_words(client):
    response = post(client, {"board": ["H4 VAGUE", "4G AVIONS", "L4 SEXE"], "move": "M3 KIWI"})
    assert response.json()["score"] == 76
    assert [(w["word"], w["calculation"]) for w in response.json()["words"]] == [
        ("KIWI", "(10 + 1 + 10 + 1) × 2 = 44"),
        ("AVIONSI", "1 + 4 + 1 + 1 + 1 + 1 + 1 = 10"),
        ("EW", "1 + 10 = 11"),
        ("XI", "10 + 1 = 11"),
    ]


def test_english_edition_values(client):
    response = post(client, {"edition": "en", "move": "H8 QI"})
    assert response.json()["score"] == 22  # (10 + 1) × 2


@pytest.mark.parametrize(
    ("body", "status", "detail"),
    [
        (
            {"edition": "xx", "move": "H4 VAGUE"},
            422,
            "Édition inconnue : « xx ». Éditions disponibles : ca, de, en, es, fr, it, nl, pl, pt.",
        ),
        (
            {"move": "Z4 VAGUE"},
            422,
            "Coordonnée illisible : « Z4 ». Écrivez la ligne (A à O) puis la colonne (1 à 15) pour un mot horizontal, "
            "comme H4, ou la colonne puis la ligne pour un mot vertical, comme 4H.",
        ),
        ({"move": "H4 VA3UE"}, 422, "Caractère non accepté : « 3 ». Seules les lettres sont admises."),
        ({"move": "H1 VAGUE"}, 422, "Le premier coup doit couvrir la case centrale H8 avec au moins deux lettres."),
        (
            {"board": ["H4 VAGUE", "A1 ZOO"], "move": "4G AVIONS"},
            422,
            "Grille, coup 2 (« A1 ZOO ») : le mot doit toucher une lettre déjà posée sur la grille.",
        ),
        ({"board": ["H4 VAGUE"], "move": "4G BAVE"}, 422, "En H4, la grille porte déjà un V, pas un A."),
        ({}, 422, "Champ « move » manquant."),
        ({"move": 3}, 422, "Champ « move » : du texte est attendu."),
        ({"move": "H4 VAGUE", "board": "H4 VAGUE"}, 422, "Champ « board » : une liste est attendue."),
        ({"move": "H4 " + "A" * 40}, 422, "Champ « move » : 40 caractères au plus."),
        ({"move": "H4 VAGUE", "board": ["H4 VAGUE"] * 121}, 422, "Champ « board » : 120 éléments au plus."),
    ],
)
def test_bad_input_gets_a_french_sentence(client, body, status, detail):
    response = post(client, body)
    assert (response.status_code, response.json()) == (status, {"detail": detail})


def test_malformed_json_is_a_400(client):
    response = post(client, '{"move": ', raw=True)
    assert (response.status_code, response.json()) == (
        400,
        {"detail": "Corps de la requête illisible : du JSON est attendu."},
    )


def test_huge_payload_is_a_413(client):
    response = post(client, json.dumps({"move": "H4 VAGUE", "pad": "x" * 400_000}), raw=True)
    assert (response.status_code, response.json()) == (413, {"detail": "Requête trop volumineuse."})


def test_openapi_docs_are_served(client):
    assert client.get("/api/docs").status_code == 200
    schema = client.get("/api/openapi.json").json()
    assert "/api/score" in schema["paths"]


def test_an_edition_left_out_is_the_sites_default(client):
    """Trial: the API read « fr » whatever edition the admin made the default."""
    Edition.objects.update(is_default=False)
    Edition.objects.filter(code="en").update(is_default=True)
    assert post(client, {"move": "H8 QI"}).json()["score"] == 22  # (10 + 1) × 2 in English, 18 in French
    schema = client.get("/api/openapi.json").json()["components"]["schemas"]
    for body in ("MoveIn", "TopIn", "WordsIn"):
        assert schema[body]["properties"]["edition"]["description"].endswith("absent : l'édition par défaut.")
