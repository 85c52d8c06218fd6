"""Issue 23: the grid answered 200 to what it refused (letters it cannot read, a start that is no square, a rack for
"Meilleurs coups" it cannot read or that is empty), and so did the typed counter to a word it refused, while the word
finder and a button the board store refuses answered 400. A refusal now answers 400 on each page, with the page or,
for htmx, its region: htmx swaps a 4xx (templates/includes/htmx_config.html), so the refusal still shows."""

import re
from html import unescape

import pytest

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def errors(response) -> list[str]:
    return [
        unescape(text) for text in re.findall(r'<p class="error" role="alert">(.*?)</p>', response.content.decode())
    ]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"start": "H8", "letters": "VA1UE"}, "Caractère non accepté : « 1 ». Seules les lettres sont admises."),
        (
            {"start": "A1", "letters": "VAGUE"},
            "Le premier coup doit couvrir la case centrale H8 avec au moins deux lettres.",
        ),
        (
            {"start": "Z9", "letters": "VAGUE"},
            "« Z9 » n'est pas une case de la grille : une ligne de A à O puis une colonne de 1 à 15 (H8).",
        ),
        ({"rack": "EA1U", "action": "best"}, "Caractère non accepté : « 1 ». Seules les lettres sont admises."),
        ({"rack": "", "action": "best"}, "Tapez d'abord le tirage."),
    ],
    ids=["letters", "illegal_move", "start", "rack", "no_rack"],
)
def test_the_grid_answers_a_refusal_with_a_400(client, data, message):
    response = client.post("/grille/", data)
    assert (response.status_code, errors(response)) == (400, [message])


def test_the_grid_s_htmx_refusal_is_a_400_with_its_region(client):
    response = client.post("/grille/", {"rack": "EA1U", "action": "best"}, headers=HTMX)
    assert response.status_code == 400
    assert (response["HX-Retarget"], response["HX-Reselect"]) == ("#grid-app", "#grid-app")
    assert errors(response) == ["Caractère non accepté : « 1 ». Seules les lettres sont admises."]


def test_the_grid_still_answers_200_to_what_it_counts_or_finds(client):
    assert client.post("/grille/", {"start": "H4", "letters": "VAGUE"}).status_code == 200
    assert client.post("/grille/", {"rack": "EAUSTV", "action": "best"}).status_code == 200
    assert client.post("/grille/", {}).status_code == 200


def test_the_typed_counter_answers_a_refused_word_with_a_400(client):
    response = client.post("/", {"words": "1", "edition": "fr", "w0": "VA1UE"})
    assert (response.status_code, errors(response)) == (
        400,
        ["Caractère non accepté : « 1 ». Seules les lettres sont admises."],
    )


def test_the_typed_counter_s_htmx_refusal_is_a_400_with_its_region(client):
    data = {"words": "1", "edition": "fr", "w0": "VA1UE", "action": "share"}
    response = client.post("/", data, headers=HTMX)
    assert (response.status_code, response["HX-Reselect"]) == (400, "#counter")
    assert errors(response) == ["Caractère non accepté : « 1 ». Seules les lettres sont admises."]


def test_the_typed_counter_answers_200_to_what_it_counts(client):
    assert client.post("/", {"words": "1", "edition": "fr", "w0": "VAGUE"}).status_code == 200
    assert client.post("/", {"words": "1", "edition": "fr", "w0": ""}).status_code == 200
