"""The JSON bodies: every operation of the API (read from its OpenAPI schema), the browser sheet's "Enregistrer dans
mon compte" among them, fed the same bad values as the pages (test_pages.py), each in every field and path parameter.
A refusal is a 4xx with a French `detail`, and nothing changed; never a 500."""

import copy
import dataclasses
import json
import urllib.parse
from collections.abc import Callable

import pytest
from django.test import Client

from clubsite.api import api
from clubsite.models import ApiToken

from .conftest import World
from .test_pages import BAD_VALUES, LENIENT, REFUSED, SENT, SPACED, STRICT, TEXT, _problems

pytestmark = pytest.mark.django_db

# A number's bad values also go as JSON numbers, not only as strings.
NUMBERS = {"beyond_column": 99_999_999_999, "beyond_64_bits": int("9" * 25), "negative": -1}
PLACEHOLDER = "\ue000bad\ue000"


@dataclasses.dataclass
class Operation:
    path: Callable[[World], dict] = lambda w: {}
    body: Callable[[World], dict] | None = None
    fields: dict[str, str] = dataclasses.field(default_factory=dict)  # "scores.0.player": the kind of that leaf
    writes: bool = True


def _session(w):
    return {"pk": w.session.pk}


def _round(w):
    return {"pk": w.session.pk, "number": w.round.number}


OPERATIONS = {
    "scoring_api_score": Operation(
        body=lambda w: {"edition": "fr", "board": ["H4 VAGUE"], "move": "4G AVIONS", "check_words": False},
        fields={"edition": STRICT, "board.0": STRICT, "move": STRICT, "check_words": LENIENT},
        writes=False,
    ),
    "scoring_api_top": Operation(
        body=lambda w: {"edition": "fr", "board": ["H4 VAGUE"], "rack": "EAUSTV", "limit": 5},
        fields={"edition": STRICT, "board.0": STRICT, "rack": SPACED, "limit": STRICT},
        writes=False,
    ),
    "scoring_api_words": Operation(
        body=lambda w: {"edition": "fr", "letters": "EAUSTV"},
        fields={"edition": STRICT, "letters": SPACED},
        writes=False,
    ),
    "duplicate_api_session_create": Operation(
        body=lambda w: {
            "name": "Jeudi",
            "edition": "fr",
            "rules": "tournoi",
            "date": "2026-11-26",
            "move_seconds": 180,
            "players": [{"name": "Ann", "table": 3, "licence": "123", "club": "Lyon", "series": "A"}, "Ben"],
            "club": w.club.pk,
            "entry": "both",
            "simultane": None,
        },
        fields={
            "name": TEXT,
            "edition": STRICT,
            "rules": STRICT,
            "date": STRICT,
            "move_seconds": STRICT,
            "players.0": TEXT,
            "players.0.name": TEXT,
            "players.0.table": STRICT,
            "players.0.licence": TEXT,
            "players.0.club": TEXT,
            "players.0.series": TEXT,
            "club": STRICT,
            "entry": STRICT,
            "simultane": STRICT,
        },
    ),
    "duplicate_api_round_create": Operation(
        path=_session, body=lambda w: {"draw": "ST+AIONX", "top": None}, fields={"draw": STRICT, "top": STRICT}
    ),
    "duplicate_api_scores_put": Operation(
        path=_round,
        body=lambda w: {"scores": [{"player": w.other.pk, "score": 18, "move": None}]},
        fields={"scores.0.player": STRICT, "scores.0.score": STRICT, "scores.0.move": TEXT},
    ),
    "duplicate_api_ranking": Operation(path=_session, writes=False),
    "duplicate_api_session_game": Operation(path=_session, writes=False),
    "duplicate_api_round_top": Operation(path=_round, body=lambda w: {"top": "H8 VAGUE"}, fields={"top": STRICT}),
    "duplicate_api_simultane_create": Operation(
        body=lambda w: {
            "name": "Simultané 3",
            "edition": "fr",
            "rules": "tournoi",
            "starts_at": "2026-12-12T14:00:00+01:00",
            "move_seconds": 180,
            "body": w.body.pk,
            "game": {"edition": "fr", "rounds": [{"number": 1, "draw": "VAGUEST", "top": "H4 VAGUE", "top_score": 26}]},
        },
        fields={
            "name": TEXT,
            "edition": STRICT,
            "rules": STRICT,
            "starts_at": STRICT,
            "move_seconds": STRICT,
            "body": STRICT,
            "game.edition": STRICT,
            "game.rounds.0.number": STRICT,
            "game.rounds.0.draw": STRICT,
            "game.rounds.0.top": STRICT,
            "game.rounds.0.top_score": STRICT,
        },
    ),
    "duplicate_api_simultane_ranking": Operation(path=lambda w: {"pk": w.simultane.pk}, writes=False),
    "duplicate_api_ranking_csv": Operation(path=_session, writes=False),
    "duplicate_api_season_ranking": Operation(path=lambda w: {"pk": w.season.pk}, writes=False),
    "duplicate_api_session_finish": Operation(path=_session),
    "duplicate_api_session_reopen": Operation(path=lambda w: {"pk": w.finished_session.pk}),
    "duplicate_api_session_history": Operation(path=_session, writes=False),
    "duplicate_api_round_delete": Operation(path=lambda w: {"pk": w.open_session.pk, "number": 1}),
    "duplicate_api_results": Operation(path=_session, writes=False),
    "duplicate_api_player_recap_get": Operation(
        path=lambda w: {"pk": w.session.pk, "player_id": w.player.pk}, writes=False
    ),
    "duplicate_api_result_patch": Operation(
        path=lambda w: {**_round(w), "player_id": w.other.pk},
        body=lambda w: {"score": 18, "move": None, "warning": True, "penalty": 5, "zero": False},
        fields={"score": STRICT, "move": TEXT, "warning": LENIENT, "penalty": STRICT, "zero": LENIENT},
    ),
    "sheets_api_local_game_save": Operation(
        body=lambda w: {
            "edition": "fr",
            "rules": "tournoi",
            "players": ["Ann", "Ben"],
            "lines": [
                {"player": 0, "kind": "challenge", "points": -10, "words": 2},
                {"player": 1, "kind": "play", "points": 20},
            ],
            "racks": ["EAU", ""],
            "started": "2026-11-24T20:00:00",
        },
        fields={
            "edition": STRICT,
            "rules": STRICT,
            "players.0": TEXT,
            "lines.0.player": STRICT,
            "lines.0.kind": STRICT,
            "lines.0.points": STRICT,
            "lines.0.words": STRICT,
            "racks.0": STRICT,
            "started": STRICT,
        },
    ),
}


def _operations() -> dict[str, tuple[str, str, dict]]:
    """operationId → (method, path template, operation) from the API's OpenAPI schema."""
    schema = api.get_openapi_schema()
    return {
        operation["operationId"]: (method, path, operation)
        for path, methods in schema["paths"].items()
        for method, operation in methods.items()
    }


def _schema_leaves(schema: dict, components: dict, prefix="") -> set[str]:
    if "$ref" in schema:
        return _schema_leaves(components[schema["$ref"].rsplit("/", 1)[1]], components, prefix)
    if "anyOf" in schema:
        return set().union(*(_schema_leaves(option, components, prefix) for option in schema["anyOf"]))
    if schema.get("type") == "object" or "properties" in schema:
        return set().union(
            *(_schema_leaves(sub, components, f"{prefix}{name}.") for name, sub in schema["properties"].items())
        )
    if schema.get("type") == "array":
        return _schema_leaves(schema["items"], components, f"{prefix}0.")
    return {prefix.rstrip(".")} if schema.get("type") != "null" else set()


def _with(body, path: str, value):
    body = copy.deepcopy(body)
    *parents, last = path.split(".")
    node = body
    for part in parents:
        node = node[int(part)] if isinstance(node, list) else node[part]
    node[int(last) if isinstance(node, list) else last] = value
    return body


def _encoded(body, path, value) -> bytes:
    if isinstance(value, bytes):  # not UTF-8: JSON cannot say it, a client can still send it
        text = json.dumps(_with(body, path, PLACEHOLDER))
        return text.encode().replace(json.dumps(PLACEHOLDER).encode(), b'"' + value + b'"')
    return json.dumps(_with(body, path, value)).encode()


def _bad_values(kind):
    yield from ((label, BAD_VALUES[label]) for label in SENT[kind])
    if kind in (STRICT, SPACED):
        yield from ((f"{label}_number", number) for label, number in NUMBERS.items())


def _json_detail(response) -> str:
    """The French `detail` of an API refusal, "" when there is none."""
    detail = response.json().get("detail", "") if response["Content-Type"].startswith("application/json") else ""
    return detail if isinstance(detail, str) else ""


def _detail_problem(response, changed, must_refuse, beyond=()) -> str:
    return _problems(response, changed, must_refuse, beyond, message_of=_json_detail)


@pytest.fixture
def token(world):
    return ApiToken.issue(world.alice)


def test_every_operation_and_field_of_the_api_is_swept():
    operations = _operations()
    assert set(operations) == set(OPERATIONS)
    components = api.get_openapi_schema()["components"]["schemas"]
    for operation_id, (_method, _path, operation) in operations.items():
        body = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
        leaves = _schema_leaves(body, components) if body else set()
        assert leaves == set(OPERATIONS[operation_id].fields), operation_id


def _sweep(send, valid_body, operation: Operation, isolated) -> list[str]:
    failures = []
    for field, kind in operation.fields.items():
        for label, value in _bad_values(kind):
            response, changed, beyond = isolated(lambda v=value, f=field: send(_encoded(valid_body, f, v)))
            # Bytes that are not UTF-8 make the whole body unreadable, whichever field they are in.
            must_refuse = label == "not_utf8" or label.removesuffix("_number") in REFUSED[kind]
            # A text field takes "-1" or "²" like any text: the request may then save it.
            problem = _detail_problem(
                response, changed if must_refuse or not operation.writes else [], must_refuse, beyond
            )
            if problem:
                failures.append(f"{field}={label}: {problem}")
    return failures


@pytest.mark.parametrize("operation_id", sorted(OPERATIONS))
def test_each_operation_refuses_each_bad_value(operation_id, world, token, isolated):
    method, template, _schema = _operations()[operation_id]
    operation = OPERATIONS[operation_id]
    path = operation.path(world)
    headers = {"Authorization": f"Bearer {token}"}
    client = Client(raise_request_exception=False)  # a 500 as a script would get it

    def send(body: bytes | None, url=None):
        url = url or template.format(**path)
        call = getattr(client, method)
        return call(url, data=body, content_type="application/json", headers=headers)

    valid = operation.body(world) if operation.body else None
    encoded = json.dumps(valid).encode() if valid is not None else None
    response, changed, _beyond = isolated(lambda: send(encoded))
    assert response.status_code < 400, response.content[:300]
    assert bool(changed) == operation.writes, changed
    failures = _sweep(send, valid, operation, isolated) if valid is not None else []
    for name in path:
        for label, value in BAD_VALUES.items():
            quoted = urllib.parse.quote(value)
            url = template.format(**{**path, name: quoted})
            response, changed, beyond = isolated(lambda u=url: send(encoded, u))
            problem = _detail_problem(response, changed, True, beyond)
            if problem:
                failures.append(f"{{{name}}}={label}: {problem}")
    assert not failures, "\n".join(failures)


def _leaf(body, path: str):
    node = body
    for part in path.split("."):
        node = node[int(part)] if isinstance(node, list) else node[part]
    return node


def _json_types(schema: dict, components: dict, prefix="") -> dict[str, set[str]]:
    """Each node of a body below it (its dotted path, an array's items at ".0") → the JSON types the OpenAPI
    document gives it ("integer", "boolean", "string", "array", "object", "null")."""
    if "$ref" in schema:
        return _json_types(components[schema["$ref"].rsplit("/", 1)[1]], components, prefix)
    options = schema.get("anyOf") or schema.get("allOf")
    if options:
        nodes = {}
        for option in options:
            for path, types in _json_types(option, components, prefix).items():
                nodes.setdefault(path, set()).update(types)
        return nodes
    kind = "object" if "properties" in schema else schema.get("type")
    nodes = {prefix.rstrip("."): {kind}}
    if kind == "object":
        for name, sub in schema["properties"].items():
            nodes.update(_json_types(sub, components, f"{prefix}{name}."))
    if kind == "array":
        nodes.update(_json_types(schema["items"], components, f"{prefix}0."))
    return nodes


def _loose_types(types: set[str], value) -> list:
    """What a lenient parser would have taken for a node of these JSON types (issue 23), `value` its valid one: a
    number or a boolean as text, a float for an integer, a number for a boolean or a text, a text or the other
    container for a list or an object. None of them is of a type the node takes."""
    number = value if isinstance(value, int) and not isinstance(value, bool) else 10
    loose = {
        "integer": [str(number), number + 0.5, float(number), True],
        "boolean": ["yes", "true", 1],
        "string": [10, False],
        "array": ["x", {}],
        "object": ["x", []],
    }
    given = {bool: "boolean", int: "integer", float: "number", str: "string", list: "array", dict: "object"}
    return [other for kind in sorted(types) for other in loose.get(kind, []) if given[type(other)] not in types]


def _typed_nodes(operation_id: str, world) -> dict[str, set[str]]:
    """The body's nodes the valid body holds (the body itself left out: the parser refuses what is not an
    object), each with its JSON types as the OpenAPI document states them."""
    _method, _path, schema = _operations()[operation_id]
    body = schema["requestBody"]["content"]["application/json"]["schema"]
    valid = OPERATIONS[operation_id].body(world)
    nodes = _json_types(body, api.get_openapi_schema()["components"]["schemas"])
    return {path: types for path, types in nodes.items() if path and _holds(valid, path)}


def _holds(body, path: str) -> bool:
    try:
        _leaf(body, path)
    except (KeyError, IndexError, TypeError):
        return False
    return True


@pytest.mark.parametrize("operation_id", sorted(OPERATIONS))
def test_each_operation_refuses_loose_types_and_unknown_fields(operation_id, world, token, isolated):
    """Integers are integers and booleans booleans, in every body; a field the API does not know is named."""
    method, template, _schema = _operations()[operation_id]
    operation = OPERATIONS[operation_id]
    if operation.body is None:
        pytest.skip("this operation takes no body")
    client = Client(raise_request_exception=False)
    url = template.format(**operation.path(world))

    def send(body):
        call = getattr(client, method)
        return call(
            url, data=json.dumps(body), content_type="application/json", headers={"Authorization": f"Bearer {token}"}
        )

    valid = operation.body(world)
    sent = [
        (f"{path}={loose!r}", _with(valid, path, loose))
        for path, types in _typed_nodes(operation_id, world).items()
        for loose in _loose_types(types, _leaf(valid, path))
    ]
    sent.append(("unknown field", {**valid, "champ_inconnu": 1}))
    failures = []
    for label, body in sent:
        response, changed, _beyond = isolated(lambda b=body: send(b))
        problem = _detail_problem(response, changed, True)
        if not problem and response.status_code != 422:
            problem = f"{response.status_code}, not 422"
        field = label.split("=")[0] if "=" in label else "champ_inconnu"
        detail = _json_detail(response)
        if not problem and (f"« {field} »" not in detail or detail == f"Champ « {field} » invalide."):
            problem = f"the refusal does not say what « {field} » expects: {detail!r}"
        if problem:
            failures.append(f"{label}: {problem}")
    assert not failures, "\n".join(failures)
    response, _changed, _beyond = isolated(lambda: send({**valid, "champ_inconnu": 1}))
    assert response.json()["detail"] == "Champ inconnu : « champ_inconnu »."


def test_the_loose_types_sweep_reaches_every_typed_node(world):
    """The JSON types come from the OpenAPI document: a field whose valid value is null (`simultane`) and the
    objects and lists themselves are sent the wrong types too."""
    typed = {
        (operation_id, path)
        for operation_id, operation in OPERATIONS.items()
        if operation.body
        for path, types in _typed_nodes(operation_id, world).items()
        if _loose_types(types, _leaf(operation.body(world), path))
    }
    assert {
        ("duplicate_api_scores_put", "scores"),
        ("duplicate_api_scores_put", "scores.0"),
        ("duplicate_api_scores_put", "scores.0.score"),
        ("duplicate_api_result_patch", "warning"),
        ("duplicate_api_session_create", "simultane"),
        ("duplicate_api_session_create", "players.0"),
        ("duplicate_api_simultane_create", "game"),
        ("duplicate_api_simultane_create", "game.rounds.0.top_score"),
    } <= typed
