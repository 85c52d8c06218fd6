"""Issue 12: under /api/, every error is the API's JSON `{"detail": "<French sentence>"}`, whoever answers it:
an operation, ninja before the operation runs, or Django before ninja. And the OpenAPI schema states the limits
that the scoring API enforces."""

import json
import re

import pytest
from django.test import Client

from clubsite.models import ApiToken
from duplicate.models import Result, Round, Session, Simultane
from duplicate.services.rounds import round_add
from tests.duplicate.conftest import make_session

pytestmark = pytest.mark.django_db


def detail(response):
    assert response["Content-Type"].startswith("application/json")
    return response.status_code, response.json()["detail"]


def test_an_unknown_address_is_a_json_404(client):
    assert detail(client.get("/api/nope")) == (
        404,
        "Adresse inconnue dans l'API : « /api/nope ». Les adresses sont décrites sur /api/docs.",
    )
    assert detail(client.post("/api/score/", "{}", content_type="application/json"))[0] == 404


def test_a_method_the_address_does_not_take_is_a_json_405(client):
    response = client.delete("/api/score")
    assert detail(response) == (405, "Méthode DELETE non acceptée à cette adresse ; acceptée : POST.")
    assert response["Allow"] == "POST"


def test_a_form_with_too_many_fields_is_a_json_400(client, alice):
    """Read by the CSRF check of a logged-in member, before ninja's handlers: it was Django's English page."""
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(alice)
    browser.get("/mots/")
    fields = "&".join(f"f{i}=1" for i in range(1200))
    response = browser.generic(
        "POST",
        "/api/duplicate/sessions",
        fields,
        content_type="application/x-www-form-urlencoded",
        HTTP_X_CSRFTOKEN=browser.cookies["csrftoken"].value,
    )
    assert detail(response) == (400, "Requête invalide.")


def test_a_host_not_allowed_is_a_json_400(client):
    assert detail(client.get("/api/openapi.json", HTTP_HOST="evil.example")) == (400, "Requête invalide.")


def test_a_body_too_large_is_a_json_413(client):
    response = client.post("/api/score", {"move": "x" * 300_000})
    assert detail(response) == (413, "Requête trop volumineuse.")


def test_a_csrf_failure_is_explained_in_french(alice):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(alice)
    response = browser.post("/api/duplicate/sessions", json.dumps({"name": "Mardi"}), content_type="application/json")
    assert detail(response) == (
        403,
        "Vérification CSRF refusée : avec une session, envoyez le jeton CSRF (en-tête X-CSRFToken) ; un script "
        "s'authentifie plutôt par jeton (Authorization: Bearer).",
    )
    assert not Session.objects.exists()


def test_a_script_with_a_bad_token_or_none_is_told_so_not_about_csrf(alice):
    """Trial: a write with a wrong token, or none, answered the CSRF 403 meant for a browser's session."""
    script = Client(enforce_csrf_checks=True)
    body = json.dumps({"name": "Mardi"})
    url = "/api/duplicate/sessions"
    response = script.post(url, body, content_type="application/json", HTTP_AUTHORIZATION="Bearer faux-jeton")
    assert detail(response) == (401, "Jeton d'API invalide ou révoqué.")
    assert detail(script.post(url, body, content_type="application/json")) == (
        401,
        "Authentification requise : un jeton (Authorization: Bearer) ou une session.",
    )
    assert not Session.objects.exists()


def test_pages_outside_the_api_keep_their_html(client):
    response = client.get("/nulle-part/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


@pytest.mark.parametrize("body", ["null", "[]", '"H4 VAGUE"', "3"])
def test_a_body_that_is_not_an_object_is_refused(client, alice, body):
    token = ApiToken.issue(alice)
    auth = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    created = client.post("/api/duplicate/sessions", json.dumps({"name": "Mardi"}), "application/json", **auth)
    session = created.json()["id"]
    response = client.post(f"/api/duplicate/sessions/{session}/rounds", body, "application/json", **auth)
    assert detail(response) == (422, "Le corps de la requête doit être un objet JSON.")
    assert not Round.objects.exists()
    assert detail(client.post("/api/score", body, "application/json")) == (
        422,
        "Le corps de la requête doit être un objet JSON.",
    )


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            {"move": "H4 VAG-UE"},
            "Champ « move » : une coordonnée puis un mot en lettres, comme « H4 VAGUE » ou « 4G AVIONS ».",
        ),
        (
            {"move": "H4 VAGUE", "board": ["H8 ☃"]},
            "Champ « board.0 » : une coordonnée puis un mot en lettres, comme « H4 VAGUE » ou « 4G AVIONS ».",
        ),
        ({"move": "H4 VAGUE", "edition": "f r"}, "Champ « edition » : un code d'édition comme fr, en ou es."),
        ({"move": "H4 VAGUE", "edition": ""}, "Champ « edition » : texte trop court."),
    ],
)
def test_the_scoring_fields_refuse_what_their_pattern_excludes(client, body, message):
    response = client.post("/api/score", json.dumps(body), "application/json")
    assert detail(response) == (422, message)


def test_the_openapi_schema_states_the_scoring_limits(client):
    schemas = client.get("/api/openapi.json").json()["components"]["schemas"]
    rack = schemas["TopIn"]["properties"]["rack"]
    assert (rack["maxLength"], rack["pattern"]) == (20, r"^(?:[^\W\d_]|[\s?·])*$")
    assert schemas["WordsIn"]["properties"]["letters"]["pattern"] == rack["pattern"]
    move = schemas["MoveIn"]["properties"]["move"]
    assert (move["maxLength"], move["pattern"]) == (40, r"^(?:[^\W_]|[\s()·])*$")
    assert schemas["MoveIn"]["properties"]["board"]["items"]["pattern"] == move["pattern"]
    edition = schemas["MoveIn"]["properties"]["edition"]  # optional: absent or null, the default edition
    assert [option.get("maxLength") for option in edition["anyOf"]] == [8, None]
    assert schemas["TopIn"]["properties"]["limit"]["minimum"] == 1
    assert schemas["TopIn"]["properties"]["limit"]["maximum"] == 200
    for name, field in [("ScoreOut", "score"), ("ScoreOut", "bonus"), ("WordOut", "score"), ("TopOut", "count")]:
        assert schemas[name]["properties"][field]["minimum"] == 0
    top = client.get("/api/openapi.json").json()["paths"]["/api/top"]["post"]["responses"]
    assert {"200", "400", "413", "422", "429"} <= set(top)


def test_each_operation_documents_its_own_body(client):
    """The scoring API's body and a duplicate score were both "ScoreIn": the schema gave /api/score the other's."""
    schema = client.get("/api/openapi.json").json()
    body = schema["paths"]["/api/score"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    name = body["$ref"].rsplit("/", 1)[1]
    assert set(schema["components"]["schemas"][name]["properties"]) == {"edition", "board", "check_words", "move"}


def test_a_nul_character_anywhere_in_a_body_is_refused(client, alice):
    """schemathesis: a NUL in a player's name reached PostgreSQL, which refuses it, and answered 500."""
    token = ApiToken.issue(alice)
    auth = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    body = {"name": "Mardi", "players": ["Alice", "Bo\x00b"]}
    response = client.post("/api/duplicate/sessions", json.dumps(body), "application/json", **auth)
    assert detail(response) == (422, "Champ « players.1 » : caractère nul (U+0000) non accepté.")
    assert not Session.objects.exists()
    response = client.post("/api/score", json.dumps({"move": "H4 VAGUE", "x\x00": 1}), "application/json")
    assert detail(response) == (422, "Champ « x\\0 » : caractère nul (U+0000) non accepté.")


# Pydantic's own English, which no answer of the API may carry, and the API's sentence for an error type it does
# not know (French, but saying nothing of what is wrong: each type the API can meet has its own).
PYDANTIC_ENGLISH = re.compile(
    r"Input should|Field required|Extra inputs|should have|Value error|String should|Invalid JSON|valid dictionary"
    r"|Object has no attribute|Unable to|not a valid|\bthe\b|\bmust\b",
    re.IGNORECASE,
)
UNMAPPED = re.compile(r"^Champ « [^»]* » invalide\.$")


def french_detail(response) -> str:
    """The answer's French `detail`, failing on anything else: a 5xx, a body that is not the API's JSON, English."""
    assert 400 <= response.status_code < 500, (response.status_code, response.content[:300])
    status, message = detail(response)
    assert isinstance(message, str) and message, response.content[:300]
    assert not PYDANTIC_ENGLISH.search(message), message
    assert not UNMAPPED.match(message), f"{status} {message}: an error type without its French sentence"
    return message


@pytest.fixture
def organised(alice, lyon):
    """The ids every operation's path takes: a session of Alice's with its first move, and a player."""
    session = make_session(alice, lyon)
    round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    return {"pk": session.pk, "number": 1, "player_id": session.players.first().pk}


def operations_with_a_body(client):
    """(method, path, operation) of each operation taking a JSON body, read from the OpenAPI document."""
    schema = client.get("/api/openapi.json").json()
    return [
        (method, path, operation)
        for path, methods in schema["paths"].items()
        for method, operation in methods.items()
        if "application/json" in operation.get("requestBody", {}).get("content", {})
    ]


def send(client, token, method, path, ids, body: str):
    url = re.sub(r"\{(\w+)\}", lambda match: str(ids[match[1]]), path)
    return getattr(client, method)(url, body, content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {token}")


def test_every_operation_with_a_body_refuses_what_is_not_its_object_in_french(alice, organised):
    """Issue 23: `[]`, `"x"`, `{}` and an unknown field, sent to every operation of the OpenAPI document that takes a
    body: a 4xx in French each time (`{}` may be valid: then a 2xx), never pydantic's English nor a 5xx."""
    client = Client(raise_request_exception=False)
    token = ApiToken.issue(alice)
    operations = operations_with_a_body(client)
    assert len(operations) >= 9
    for method, path, _operation in operations:
        for body in ("[]", '"x"'):
            response = send(client, token, method, path, organised, body)
            assert french_detail(response) == "Le corps de la requête doit être un objet JSON.", (method, path, body)
        response = send(client, token, method, path, organised, "{}")
        if response.status_code >= 300:
            french_detail(response)
        response = send(client, token, method, path, organised, json.dumps({"champ_inconnu": 1}))
        # Said first, whatever else is missing: a field misspelt ("nmae") is why its own is missing.
        assert french_detail(response) == "Champ inconnu : « champ_inconnu ».", (method, path)
    assert not Result.objects.filter(round__session=organised["pk"]).exclude(score=None).exists()


@pytest.mark.parametrize(
    ("url", "body", "message"),
    [
        ("scores", {"scores": ["x"]}, "Champ « scores.0 » : un objet JSON est attendu."),
        ("scores", {"scores": [[]]}, "Champ « scores.0 » : un objet JSON est attendu."),
        ("scores", {"scores": [None]}, "Champ « scores.0 » : un objet JSON est attendu."),
        ("scores", {"scores": [26]}, "Champ « scores.0 » : un objet JSON est attendu."),
        ("simultanes", {"game": []}, "Champ « game » : un objet JSON est attendu."),
        ("simultanes", {"game": "x"}, "Champ « game » : un objet JSON est attendu."),
        ("simultanes", {"game": {"rounds": ["x"]}}, "Champ « game.rounds.0 » : un objet JSON est attendu."),
        ("simultanes", {"game": {"rounds": []}}, "Champ « game.rounds » : liste trop courte (1 au moins)."),
    ],
)
def test_an_array_or_a_text_where_an_object_belongs_is_refused_in_french(alice, organised, url, body, message):
    """Issue 23: pydantic's `model_attributes_type` (a list or a text given for an object inside a body) and
    `too_short` answered « Champ « scores.0 » invalide. », which says nothing of what is expected."""
    client = Client(raise_request_exception=False)
    token = ApiToken.issue(alice)
    if url == "scores":
        path = "/api/duplicate/sessions/{pk}/rounds/{number}/scores"
        method = "put"
    else:
        path, method = "/api/duplicate/simultanes", "post"
        body = {"name": "Simultané", "starts_at": "2030-12-12T14:00:00+01:00", **body}
    response = send(client, token, method, path, organised, json.dumps(body))
    assert response.status_code == 422
    assert french_detail(response) == message
    assert not Result.objects.exclude(score=None).exists()
    assert not Simultane.objects.exists()


def test_a_path_parameter_that_is_no_number_is_named(alice, organised):
    """Issue 23: `/api/duplicate/sessions/abc/ranking` answered « Le corps de la requête doit être un objet JSON. »
    (the parameter's place, ("path", "pk"), was read as a body's)."""
    client = Client(raise_request_exception=False)
    response = send(client, ApiToken.issue(alice), "get", "/api/duplicate/sessions/abc/ranking", organised, "")
    assert (response.status_code, french_detail(response)) == (422, "Champ « pk » : un nombre entier est attendu.")
