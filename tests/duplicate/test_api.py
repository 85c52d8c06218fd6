"""The duplicate API contract of issue 5, with token auth and the permission ladder."""

import json

import pytest
from django.core.management import call_command

from clubsite.models import ApiToken
from duplicate.models import Result, Session
from scoring.models import Edition, RuleSet
from tests.conftest import accept_invitations

pytestmark = pytest.mark.django_db


@pytest.fixture
def token(alice, lyon):
    return ApiToken.issue(alice)


def call(client, method, url, token=None, body=None):
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    data = json.dumps(body) if body is not None else None
    return getattr(client, method)(url, data=data, content_type="application/json", **headers)


def test_create_api_token_prints_a_working_token(alice, capsys, client):
    call_command("create_api_token", "alice")
    raw = capsys.readouterr().out.strip()
    assert len(raw) > 30
    assert ApiToken.objects.user_for(raw) == alice
    assert ApiToken.objects.get().digest != raw  # only the digest is stored


def test_the_contract(client, token, lyon):
    response = call(
        client,
        "post",
        "/api/duplicate/sessions",
        token,
        {"name": "Mardi", "edition": "fr", "players": ["Alice", "Bob"], "club": lyon.pk},
    )
    assert response.status_code == 201
    body = response.json()
    session = Session.objects.get()
    alice_id, bob_id = [p.pk for p in session.players.order_by("pk")]
    assert body == {"id": session.pk, "players": [{"id": alice_id, "name": "Alice"}, {"id": bob_id, "name": "Bob"}]}
    response = call(
        client, "post", f"/api/duplicate/sessions/{session.pk}/rounds", token, {"draw": "AECC?NU", "top": "H4 ChACUNE"}
    )
    assert (response.status_code, response.json()["number"], response.json()["top_score"]) == (201, 1, 76)
    response = call(
        client,
        "put",
        f"/api/duplicate/sessions/{session.pk}/rounds/1/scores",
        token,
        {"scores": [{"player": alice_id, "score": 76}, {"player": bob_id, "score": 70}]},
    )
    assert response.status_code == 200
    response = call(client, "get", f"/api/duplicate/sessions/{session.pk}/ranking", token)
    assert response.json() == {
        "tops_total": 76,
        "rows": [
            {"player": alice_id, "name": "Alice", "place": 1, "total": 76, "gap": 0, "percent": 100.0, "solos": 1},
            {"player": bob_id, "name": "Bob", "place": 2, "total": 70, "gap": -6, "percent": 92.1, "solos": 0},
        ],
    }
    response = call(client, "get", f"/api/duplicate/sessions/{session.pk}/ranking.csv", token)
    # below the session's name and date, an empty line, the header and the tops
    assert response.content.decode("utf-8-sig").splitlines()[5] == "1;;Alice;;;;76;0;100,0;1;;;;76;solo"


def test_sending_a_score_again_replaces_it_and_a_refusal_changes_nothing(client, token, lyon):
    session_id = call(
        client, "post", "/api/duplicate/sessions", token, {"name": "M", "players": ["A", "B"], "club": lyon.pk}
    ).json()["id"]
    a, b = Session.objects.get().players.order_by("pk")
    call(client, "post", f"/api/duplicate/sessions/{session_id}/rounds", token, {"draw": "VAGUEST", "top": "H4 VAGUE"})
    url = f"/api/duplicate/sessions/{session_id}/rounds/1/scores"
    call(client, "put", url, token, {"scores": [{"player": a.pk, "score": 20}, {"player": b.pk, "score": 18}]})
    call(client, "put", url, token, {"scores": [{"player": a.pk, "score": 22}]})
    response = call(
        client, "put", url, token, {"scores": [{"player": b.pk, "score": 10}, {"player": a.pk, "score": 30}]}
    )
    assert (response.status_code, response.json()) == (422, {"detail": "Score supérieur au top : faute de frappe ?"})
    assert sorted(Result.objects.values_list("score", flat=True)) == [18, 22]


def test_scores_for_a_move_not_drawn_or_without_a_score_say_so(client, token, lyon):
    """Trial of issue 16: scores for move 3 before it was drawn answered 404 « Introuvable. », and a bulletin
    without a score « Un score est un nombre positif ou nul. »."""
    session_id = call(
        client, "post", "/api/duplicate/sessions", token, {"name": "M", "players": ["A"], "club": lyon.pk}
    ).json()["id"]
    (a,) = Session.objects.get().players.all()
    call(client, "post", f"/api/duplicate/sessions/{session_id}/rounds", token, {"draw": "VAGUEST", "top": "H4 VAGUE"})
    response = call(client, "put", f"/api/duplicate/sessions/{session_id}/rounds/3/scores", token, {"scores": []})
    assert (response.status_code, response.json()) == (404, {"detail": "Le coup 3 n'est pas tiré dans cette séance."})
    url = f"/api/duplicate/sessions/{session_id}/rounds/1/scores"
    response = call(client, "put", url, token, {"scores": [{"player": a.pk}]})
    assert (response.status_code, response.json()) == (422, {"detail": "Un bulletin donne un score ou un coup joué."})
    assert not Result.objects.exists()


def test_a_refused_player_leaves_no_session_behind(client, token, lyon):
    response = call(
        client,
        "post",
        "/api/duplicate/sessions",
        token,
        {"name": "M", "players": ["Alice", "@personne"], "club": lyon.pk},
    )
    assert (response.status_code, response.json()) == (422, {"detail": "Aucun membre « personne »."})
    assert Session.objects.count() == 0


def test_personal_session_without_club(client, bob):
    raw = ApiToken.issue(bob)
    response = call(client, "post", "/api/duplicate/sessions", raw, {"name": "Seul face aux tops", "players": ["Bob"]})
    assert response.status_code == 201
    assert Session.objects.get().club is None


def test_permission_ladder(client, token, lyon, bob, charlie, grenoble):
    session_id = call(
        client, "post", "/api/duplicate/sessions", token, {"name": "M", "players": ["A"], "club": lyon.pk}
    ).json()["id"]
    rounds = f"/api/duplicate/sessions/{session_id}/rounds"
    assert call(client, "post", rounds, None, {"draw": "VAGUEST"}).status_code == 401
    assert call(client, "post", rounds, None, {"draw": "VAGUEST"}).json() == {
        "detail": "Authentification requise : un jeton (Authorization: Bearer) ou une session."
    }
    response = call(client, "post", rounds, "faux-jeton", {"draw": "VAGUEST"})
    assert (response.status_code, response.json()) == (401, {"detail": "Jeton d'API invalide ou révoqué."})
    other = ApiToken.issue(charlie)  # another club's organiser: the same 404 as an unknown id
    assert call(client, "post", rounds, other, {"draw": "VAGUEST"}).status_code == 404
    response = call(client, "get", f"/api/duplicate/sessions/{session_id}/ranking", other)
    assert (response.status_code, response.json()) == (404, {"detail": "Séance introuvable."})
    response = call(client, "post", "/api/duplicate/sessions", other, {"name": "X", "club": lyon.pk})
    assert (response.status_code, response.json()) == (404, {"detail": "Club introuvable."})
    member = ApiToken.issue(bob)
    response = call(client, "post", "/api/duplicate/sessions", member, {"name": "X", "club": lyon.pk})
    assert response.status_code == 403
    assert response.json() == {"detail": "Seuls les organisateurs du club créent ses séances."}
    assert call(client, "get", f"/api/duplicate/sessions/{session_id}/ranking", member).status_code == 200
    response = call(client, "post", rounds, member, {"draw": "VAGUEST"})
    assert response.status_code == 403
    assert response.json() == {"detail": "Seuls les organisateurs de la séance peuvent la modifier."}
    call(client, "post", rounds, token, {"draw": "VAGUEST", "top": "H4 VAGUE"})
    player = Session.objects.get(pk=session_id).players.get()
    scores = {"scores": [{"player": player.pk, "score": 10}]}
    # A player (a member of the club) cannot write others' scores.
    assert call(client, "put", f"{rounds}/1/scores", member, scores).status_code == 403
    assert not Result.objects.exists()
    assert call(client, "get", "/api/duplicate/sessions/999/ranking", token).status_code == 404


def test_a_player_reads_his_session_and_an_outsider_finds_no_personal_one(client, token, bob, charlie):
    created = call(client, "post", "/api/duplicate/sessions", token, {"name": "M", "players": ["@charlie"]})
    url = f"/api/duplicate/sessions/{created.json()['id']}"
    player = ApiToken.issue(charlie)  # plays in Alice's personal session, in none of her clubs
    assert call(client, "get", f"{url}/ranking", player).status_code == 404  # until he accepts her invitation
    accept_invitations(Session.objects.get().players.all())
    assert call(client, "get", f"{url}/ranking", player).status_code == 200
    response = call(client, "post", f"{url}/rounds", player, {"draw": "VAGUEST"})
    assert response.status_code == 403
    assert response.json() == {"detail": "Seuls les organisateurs de la séance peuvent la modifier."}
    response = call(
        client, "get", f"{url}/ranking", ApiToken.issue(bob)
    )  # Alice's club-mate, but the session is personal
    assert (response.status_code, response.json()) == (404, {"detail": "Séance introuvable."})


def test_bad_input_is_a_french_4xx(client, token, lyon):
    response = call(
        client, "post", "/api/duplicate/sessions", token, {"name": "M", "club": lyon.pk, "move_seconds": 45}
    )
    assert (response.status_code, response.json()) == (
        422,
        {"detail": "Temps par coup à choisir parmi : 60, 120, 150, 180 secondes."},
    )
    session_id = call(client, "post", "/api/duplicate/sessions", token, {"name": "M", "club": lyon.pk}).json()["id"]
    response = call(client, "post", f"/api/duplicate/sessions/{session_id}/rounds", token, {"draw": "VAGUE1T"})
    assert response.status_code == 422
    assert "« 1 »" in response.json()["detail"]
    response = call(client, "put", f"/api/duplicate/sessions/{session_id}/rounds/9/scores", token, {"scores": []})
    assert response.status_code == 404


def test_a_nul_character_or_a_score_beyond_the_column_is_refused(client, token, lyon):
    """Issue 12: both reached PostgreSQL, which refused them (a 500)."""
    body = {"name": "Mardi", "players": ["Al\x00ice"], "club": lyon.pk}
    response = call(client, "post", "/api/duplicate/sessions", token, body)
    assert (response.status_code, response.json()) == (
        422,
        {"detail": "Champ « players.0 » : caractère nul (U+0000) non accepté."},  # the API parser refuses it first
    )
    session_id = call(client, "post", "/api/duplicate/sessions", token, {**body, "players": ["Alice"]}).json()["id"]
    call(client, "post", f"/api/duplicate/sessions/{session_id}/rounds", token, {"draw": "VAGUEST"})
    player = Session.objects.get().players.get().pk
    scores = {"scores": [{"player": player, "score": 99_999_999_999}]}
    response = call(client, "put", f"/api/duplicate/sessions/{session_id}/rounds/1/scores", token, scores)
    assert (response.status_code, response.json()) == (
        422,
        {"detail": "Champ « scores.0.score » : 2147483647 au plus."},
    )
    assert not Result.objects.exists()


def test_a_move_drawn_without_its_top_gets_it_through_the_api(client, alice, lyon):
    from .conftest import make_session

    session = make_session(alice, lyon)
    client.force_login(alice)
    drawn = client.post(
        f"/api/duplicate/sessions/{session.pk}/rounds", {"draw": "VAGUEST"}, content_type="application/json"
    )
    assert drawn.json()["top"] is None
    url = f"/api/duplicate/sessions/{session.pk}/rounds/1/top"
    refused = client.put(url, {}, content_type="application/json")
    assert (refused.status_code, refused.json()["detail"]) == (422, "Donnez le top en notation (« H4 VAGUE »).")
    placed = client.put(url, {"top": "H4 VAGUE"}, content_type="application/json")
    assert placed.json() == {"number": 1, "draw": "VAGUEST", "top": "H4 VAGUE", "top_score": 26}
    assert (
        client.post(
            f"/api/duplicate/sessions/{session.pk}/rounds", {"draw": "ST+AIONX"}, content_type="application/json"
        ).status_code
        == 201
    )


def test_a_session_created_through_the_api_says_who_enters_the_scores(client, token, lyon):
    body = {"name": "M", "players": ["A"], "club": lyon.pk}
    assert call(client, "post", "/api/duplicate/sessions", token, body).status_code == 201
    assert call(client, "post", "/api/duplicate/sessions", token, {**body, "entry": "players"}).status_code == 201
    assert list(Session.objects.order_by("pk").values_list("entry", flat=True)) == ["arbiter", "players"]
    refused = call(client, "post", "/api/duplicate/sessions", token, {**body, "entry": "nobody"})
    assert refused.status_code == 422


def test_the_apis_players_are_taken_as_given_never_split(client, token, lyon):
    """Issue 23: each item of `players` went through the paste parser, « Dupont, Jean » stored as « Dupont Jean » (the
    comma read as a column). A JSON item is split already: a text is a name, an object gives the player's fields
    (table, licence, club, series), each taken as it is."""
    players = [
        "Dupont, Jean",
        "1;Ann",
        {"name": "Durand, Luc", "table": 3, "licence": "123A", "club": "Lyon, Rhône", "series": "B"},
        {"name": "Ben"},
    ]
    created = call(client, "post", "/api/duplicate/sessions", token, {"name": "M", "club": lyon.pk, "players": players})
    assert created.status_code == 201, created.content
    assert [player["name"] for player in created.json()["players"]] == [
        "Dupont, Jean",
        "1;Ann",
        "Durand, Luc",
        "Ben",
    ]
    stored = Session.objects.get().players.order_by("pk")
    assert [(p.table, p.name, p.licence, p.club_name, p.series) for p in stored] == [
        (None, "Dupont, Jean", "", "", ""),
        (None, "1;Ann", "", "", ""),
        (3, "Durand, Luc", "123A", "Lyon, Rhône", "B"),
        (None, "Ben", "", "", ""),
    ]


@pytest.mark.parametrize(
    ("player", "message"),
    [
        ({"name": "Ann", "licence": "12-3"}, "Champ « players.1.licence » : des lettres et des chiffres seulement."),
        ({"name": "A" * 81}, "Champ « players.1.name » : 80 caractères au plus."),
        (
            {"name": "Ann\u202e"},
            "Champ « players.1.name » : caractère invisible ou de contrôle de sens d'écriture (U+202E) non accepté.",
        ),
        ({"name": "Ann", "club": "C" * 81}, "Champ « players.1.club » : 80 caractères au plus."),
        ({"name": "Ann", "series": "S" * 11}, "Champ « players.1.series » : 10 caractères au plus."),
        ({"name": "Ann", "table": 0}, "Champ « players.1.table » : 1 au moins."),
        ({"name": "Ann", "table": 10_000}, "Champ « players.1.table » : 9999 au plus."),
        ({"name": "Ann", "table": "3"}, "Champ « players.1.table » : un nombre entier est attendu."),
        ({"name": "Ann", "seat": 3}, "Champ inconnu : « players.1.seat »."),
        ({"table": 3}, "Champ « players.1.name » manquant."),
        (10, "Champ « players.1 » : un nom ou un objet JSON est attendu."),
        ([], "Champ « players.1 » : un nom ou un objet JSON est attendu."),
        ("   ", "Champ « players.1 » : un texte fait seulement d'espaces n'est pas accepté."),
        ("B" * 81, "Champ « players.1 » : 80 caractères au plus."),
        ({"name": "Ann", "table": 1}, "La table 1 est déjà prise."),
    ],
)
def test_the_apis_players_are_checked_field_by_field(client, token, lyon, player, message):
    """Taken as given, still checked: each field's length, no hidden character, a licence of letters and digits."""
    body = {"name": "M", "club": lyon.pk, "players": [{"name": "Zoé", "table": 1}, player]}
    refused = call(client, "post", "/api/duplicate/sessions", token, body)
    assert (refused.status_code, refused.json()) == (422, {"detail": message})
    assert not Session.objects.exists()


def test_an_empty_correction_of_a_result_that_does_not_exist_is_a_french_422(client, token, lyon):
    """Issue 23: `PATCH …/results/{player}` with `{}` on a player without a result on that move answered 500."""
    session_id = call(
        client, "post", "/api/duplicate/sessions", token, {"name": "M", "players": ["A", "B"], "club": lyon.pk}
    ).json()["id"]
    a, b = Session.objects.get().players.order_by("pk")
    call(client, "post", f"/api/duplicate/sessions/{session_id}/rounds", token, {"draw": "VAGUEST", "top": "H4 VAGUE"})
    call(client, "put", f"/api/duplicate/sessions/{session_id}/rounds/1/scores", token,
         {"scores": [{"player": a.pk, "score": 20}]})  # fmt: skip
    url = f"/api/duplicate/sessions/{session_id}/rounds/1/results"
    for body in ({}, {"zero": False}):
        response = call(client, "patch", f"{url}/{b.pk}", token, body)
        assert (response.status_code, response.json()) == (
            422,
            {"detail": "Ce joueur n'a pas de résultat sur le coup 1 : donnez un score, un coup ou une marque."},
        )
    assert not Result.objects.filter(player=b).exists()
    response = call(client, "patch", f"{url}/{a.pk}", token, {})  # nothing to change: his result as it is
    assert (response.status_code, response.json()["score"]) == (200, 20)


def _session_with_a_move(client, token, lyon):
    session_id = call(
        client, "post", "/api/duplicate/sessions", token, {"name": "M", "players": ["A", "B"], "club": lyon.pk}
    ).json()["id"]
    call(client, "post", f"/api/duplicate/sessions/{session_id}/rounds", token, {"draw": "VAGUEST", "top": "H4 VAGUE"})
    return session_id, *Session.objects.get().players.order_by("pk")


def test_integers_are_integers_and_booleans_booleans(client, token, lyon):
    """Issue 23: `{"score": "10"}` was taken as 10 and `"warning": "yes"` as true."""
    session_id, a, _b = _session_with_a_move(client, token, lyon)
    url = f"/api/duplicate/sessions/{session_id}/rounds/1"
    refusals = [
        ("put", "scores", {"scores": [{"player": a.pk, "score": "10"}]}, "un nombre entier est attendu"),
        ("put", "scores", {"scores": [{"player": a.pk, "score": 10.0}]}, "un nombre entier est attendu"),
        ("put", "scores", {"scores": [{"player": str(a.pk), "score": 10}]}, "un nombre entier est attendu"),
        ("patch", f"results/{a.pk}", {"score": 10, "warning": "yes"}, "vrai ou faux est attendu"),
        ("patch", f"results/{a.pk}", {"score": 10, "zero": 1}, "vrai ou faux est attendu"),
    ]
    for method, path, body, message in refusals:
        response = call(client, method, f"{url}/{path}", token, body)
        assert response.status_code == 422, body
        assert message in response.json()["detail"], body
    assert not Result.objects.exists()
    response = call(client, "put", f"{url}/scores", token, {"scores": [{"player": a.pk, "score": 10}]})
    assert (response.status_code, response.json()) == (200, {"saved": 1})


def test_a_player_twice_in_one_batch_is_refused_naming_both_positions(client, token, lyon):
    """Issue 23: two entries for one player answered "saved": 2 for the one row written."""
    session_id, a, b = _session_with_a_move(client, token, lyon)
    url = f"/api/duplicate/sessions/{session_id}/rounds/1/scores"
    scores = [{"player": a.pk, "score": 20}, {"player": b.pk, "score": 18}, {"player": a.pk, "score": 26}]
    response = call(client, "put", url, token, {"scores": scores})
    assert (response.status_code, response.json()) == (
        422,
        {"detail": f"Le joueur {a.pk} figure deux fois dans la liste (positions 1 et 3)."},
    )
    assert not Result.objects.exists()
    response = call(client, "put", url, token, {"scores": scores[:2]})
    assert (response.status_code, response.json()) == (200, {"saved": 2})
    assert Result.objects.count() == 2


def test_a_field_the_api_does_not_know_is_refused_by_name(client, token, lyon):
    """Issue 23: `"varaint"` or any typo was ignored, and the session created as if it were not there."""
    response = call(client, "post", "/api/duplicate/sessions", token, {"name": "M", "varaint": "x", "club": lyon.pk})
    assert (response.status_code, response.json()) == (422, {"detail": "Champ inconnu : « varaint »."})
    assert not Session.objects.exists()
    session_id, a, _b = _session_with_a_move(client, token, lyon)
    url = f"/api/duplicate/sessions/{session_id}/rounds/1/scores"
    response = call(client, "put", url, token, {"scores": [{"player": a.pk, "score": 20, "points": 3}]})
    assert (response.status_code, response.json()) == (422, {"detail": "Champ inconnu : « scores.0.points »."})
    response = client.post("/api/score", json.dumps({"move": "H4 VAGUE", "bord": []}), content_type="application/json")
    assert (response.status_code, response.json()) == (422, {"detail": "Champ inconnu : « bord »."})


def test_every_request_body_of_the_api_refuses_unknown_fields_and_loose_types():
    """Each operation's body schema, as the OpenAPI document states it: no field beyond those named."""
    from clubsite.api import api

    schema = api.get_openapi_schema()
    components = schema["components"]["schemas"]
    bodies = []
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            body = operation.get("requestBody", {}).get("content", {}).get("application/json")
            if body:
                bodies.append((method, path, body["schema"]["$ref"].rsplit("/", 1)[-1]))
    assert len(bodies) >= 9
    open_bodies = [body for body in bodies if components[body[2]].get("additionalProperties") is not False]
    assert open_bodies == []
    for nested in ("PlayerScoreIn", "GameIn", "GameRoundIO"):  # the objects inside a body, too
        assert components[nested]["additionalProperties"] is False, nested


def test_a_session_given_no_time_per_move_takes_its_rule_sets(client, token, lyon):
    """Trial: the API wrote 180 seconds whatever the rule set said."""
    RuleSet.objects.filter(code="tournoi").update(move_seconds=150)
    body = {"name": "M", "players": ["A"], "club": lyon.pk, "rules": "tournoi"}
    assert call(client, "post", "/api/duplicate/sessions", token, body).status_code == 201
    assert Session.objects.get().move_seconds == 150
    refused = call(client, "post", "/api/duplicate/sessions", token, {**body, "move_seconds": 90})
    assert refused.status_code == 422
    assert refused.json()["detail"] == "Temps par coup à choisir parmi : 60, 120, 150, 180 secondes."


def test_a_session_given_no_edition_nor_rules_takes_the_sites_defaults(client, token, lyon):
    """Trial: the API read « fr » and « tournoi » whatever the admin made the default."""
    Edition.objects.update(is_default=False)
    Edition.objects.filter(code="en").update(is_default=True)
    RuleSet.objects.update(is_default=False)
    RuleSet.objects.filter(code="boite").update(is_default=True)
    body = {"name": "M", "players": ["A"], "club": lyon.pk}
    assert call(client, "post", "/api/duplicate/sessions", token, body).status_code == 201
    session = Session.objects.get()
    assert (session.edition.code, session.rule_set.code) == ("en", "boite")
    fields = client.get("/api/openapi.json").json()["components"]["schemas"]["SessionIn"]["properties"]
    assert fields["rules"]["description"] == "Code du jeu de règles ; absent : le jeu de règles par défaut du site."
