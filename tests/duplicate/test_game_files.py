"""Issue 16, "Game files": a session's game exports as JSON, and a session created from such a file plays its
moves in order, refusing a draw or a top typed against it."""

import json

import pytest
from django.contrib.messages import get_messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from duplicate import games
from duplicate.errors import DuplicateError
from duplicate.models import Session
from duplicate.services import game_files
from duplicate.services.rounds import round_add, round_reveal_top, round_set_top
from duplicate.services.sheet import game_document
from scoring.models import Edition, RuleSet

from .conftest import TOPS, make_session

GAME = [
    {"number": 1, "draw": "VAGUEST", "top": "H4 VAGUE", "top_score": 26},
    {"number": 2, "draw": "ST+AIONX", "top": "4G AVIONS", "top_score": 18},
    {"number": 3, "draw": "TX+EEHSU", "top": "L4 SEXE", "top_score": 13},
    {"number": 4, "draw": "HSTU+AEI", "top": "J3 SOUHAITE", "top_score": 71},
]


def game_file(rounds=GAME, edition="fr", **extra) -> bytes:
    return json.dumps({"edition": edition, "rounds": rounds, **extra}).encode()


def engines(code):
    return (Edition.objects.engine(code), RuleSet.objects.engine("tournoi")) if code == "fr" else None


def read(raw):
    return games.game_from_file(raw, engines)


@pytest.fixture
def played(alice, lyon):
    session = make_session(alice, lyon)
    for draw, top in TOPS:
        round_add(session=session, draw_text=draw, top_text=top)
    return session


@pytest.fixture
def from_file(alice, lyon):
    _code, rounds = read(game_file())
    return make_session(alice, lyon, game=rounds)


# Export


def test_a_played_session_exports_its_game_move_by_move(played):
    document = game_document(played)
    assert document["format"] == "clubsite.duplicate.game"
    assert document["edition"] == "fr"
    assert document["rules"] == "tournoi"
    assert document["date"] == "2026-11-24"
    assert document["rounds"] == GAME


def test_a_move_without_its_top_is_not_in_the_file(alice, lyon):
    session = make_session(alice, lyon)
    round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    round_add(session=session, draw_text="ST+AIONX")
    assert game_document(session)["rounds"] == GAME[:1]


def test_the_exported_file_reads_back_as_the_same_game(played):
    raw = json.dumps(game_document(played)).encode()
    code, rounds = read(raw)
    assert code == "fr"
    assert [r.as_dict() for r in rounds] == GAME


# Playing a game file


def test_a_session_from_a_file_draws_the_files_moves_in_order(from_file):
    first = round_add(session=from_file)
    assert (first.number, first.draw, first.drawn_by_server) == (1, "VAGUEST", False)
    round_reveal_top(round_=first)
    first.refresh_from_db()
    assert (first.top, first.top_score) == ("H4 VAGUE", 26)
    second = round_reveal_top(round_=round_add(session=from_file))
    assert (second.draw, second.top, second.top_score) == ("ST+AIONX", "4G AVIONS", 18)


def test_a_draw_typed_against_the_file_is_refused_without_saying_the_files(from_file):
    with pytest.raises(DuplicateError) as refused:
        round_add(session=from_file, draw_text="EAIRSTU")
    assert str(refused.value) == ("Ce tirage n'est pas celui de la partie jouée (coup 1) : « Tirer » donne le sien.")
    assert from_file.rounds.count() == 0


def test_the_files_draw_typed_in_another_order_is_taken(from_file):
    round_ = round_add(session=from_file, draw_text="GAVEUST")
    assert round_.draw == "VAGUEST"


def test_a_top_typed_against_the_file_is_refused(from_file):
    round_ = round_add(session=from_file)
    with pytest.raises(DuplicateError) as refused:
        round_set_top(round_=round_, top_text="H8 VAGUE")
    assert "n'est pas celui de la partie jouée (coup 1)" in str(refused.value)
    round_.refresh_from_db()
    assert round_.top == ""
    round_set_top(round_=round_, top_text="h4 vague")  # the file's top, typed
    round_.refresh_from_db()
    assert (round_.top, round_.top_score) == ("H4 VAGUE", 26)


def test_past_the_files_last_move_nothing_is_drawn(from_file):
    for _game_round in GAME:
        round_reveal_top(round_=round_add(session=from_file))
    with pytest.raises(DuplicateError) as refused:
        round_add(session=from_file)
    assert str(refused.value) == "Tous les coups de la partie jouée sont joués : terminez la séance."


# Files refused, each with its reason


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b"\xff\xfe{", "Le fichier de partie n'est pas en UTF-8."),
        (b"{rounds: 1}", "Le fichier de partie n'est pas du JSON lisible."),
        (b"[1, 2]", "Le fichier de partie doit être un objet JSON avec « edition » et « rounds »."),
        (game_file(edition="xx"), "Édition du fichier de partie inconnue : xx."),
        (game_file(rounds=[]), "Le fichier de partie n'a aucun coup (« rounds » : une liste de coups)."),
        (
            game_file(rounds=[{**GAME[0], "number": 2}]),
            "Les coups sont numérotés 1, 2, 3… : le coup n° 1 porte le numéro 2.",
        ),
        (
            game_file(rounds=[GAME[0], {**GAME[1], "top_score": 20}]),
            "Coup 2 : 4G AVIONS vaut 18 points sur cette grille, pas 20.",
        ),
        (
            game_file(rounds=[GAME[0], {**GAME[1], "draw": "ES+AIONX"}]),
            "Coup 2 : les lettres gardées (ES) ne sont pas le reliquat du coup précédent (ST).",
        ),
        (
            game_file(rounds=[{**GAME[0], "top": "H4 VAGUER"}]),
            "Coup 1 : le top H4 VAGUER ne se joue pas avec le tirage VAGUEST.",
        ),
        (
            game_file(rounds=[{**GAME[0], "draw": "VAGUE\x00T"}]),
            "Coup 1 : tirage et top sont des textes de 1 à 40 caractères.",
        ),
        (b" " * (games.MAX_FILE_BYTES + 1), "Fichier de partie trop gros (64 Ko au plus)."),
    ],
)
def test_a_wrong_file_is_refused_with_its_reason(db, raw, message):
    with pytest.raises(DuplicateError) as refused:
        read(raw)
    assert str(refused.value) == message


def test_an_upload_too_big_is_refused_before_it_is_read(db):
    class Huge:
        size = games.MAX_FILE_BYTES + 1

        def read(self):
            raise AssertionError("a file over the limit is not read")

    with pytest.raises(DuplicateError) as refused:
        game_files.read_game_file(Huge(), RuleSet.objects.get(code="tournoi"))
    assert str(refused.value) == "Fichier de partie trop gros (64 Ko au plus)."


def test_a_file_with_too_many_moves_is_refused_before_any_is_checked(db):
    rounds = [{**GAME[0], "number": n} for n in range(1, games.MAX_ROUNDS + 2)]
    with pytest.raises(DuplicateError) as refused:
        read(game_file(rounds=rounds))
    assert str(refused.value) == "Une partie a 100 coups au plus."


# Pages


def upload(raw=None, name="partie.json"):
    return SimpleUploadedFile(name, raw if raw is not None else game_file(), content_type="application/json")


def new_session_form(**fields):
    return {
        "name": "Partie de Paris",
        "date": "2026-12-05",
        "club": "",
        "edition": Edition.objects.get(code="fr").pk,
        "rule_set": RuleSet.objects.get(code="tournoi").pk,
        "move_seconds": 180,
        "entry": "arbiter",
        "players": "1;Alice\n2;Bob",
        **fields,
    }


def test_a_session_is_created_from_an_uploaded_file(client, alice):
    client.force_login(alice)
    response = client.post(reverse("duplicate:new"), new_session_form(game_file=upload()))
    session = Session.objects.get(name="Partie de Paris")
    assert response.status_code == 302
    assert [r["draw"] for r in session.game] == ["VAGUEST", "ST+AIONX", "TX+EEHSU", "HSTU+AEI"]
    assert [str(message) for message in get_messages(response.wsgi_request)] == [
        "Séance « Partie de Paris » créée avec les 4 coups du fichier."
    ]
    page = client.get(reverse("duplicate:session", args=[session.pk]))
    assert "Partie importée d'un fichier (4 coups)" in page.content.decode()
    assert "Tirer le coup suivant de la partie" in page.content.decode()


def test_a_wrong_upload_says_why_on_its_field_and_creates_nothing(client, alice):
    client.force_login(alice)
    bad = game_file(rounds=[GAME[0], {**GAME[1], "top_score": 20}])
    response = client.post(reverse("duplicate:new"), new_session_form(game_file=upload(bad)))
    assert response.status_code == 400
    assert response.context["form"].errors["game_file"] == [
        "Coup 2 : 4G AVIONS vaut 18 points sur cette grille, pas 20."
    ]
    assert not Session.objects.exists()


def test_a_new_session_and_a_new_simultane_take_a_json_game_file(client, alice, comite, eve):
    for user, page, help_text in [
        (alice, "duplicate:new", "Une partie exportée d'une autre séance (JSON)"),
        (eve, "duplicate:simultane_new", "Sans fichier, le serveur tire la partie maintenant"),
    ]:
        client.force_login(user)
        field = client.get(reverse(page)).context["form"]["game_file"]
        assert (field.label, field.field.required, field.field.widget.attrs) == (
            "Fichier de partie (facultatif)",
            False,
            {"accept": ".json,application/json"},
        )
        assert str(field.help_text).startswith(help_text)


def test_an_automatic_game_refuses_a_file_and_creates_nothing(client, alice):
    client.force_login(alice)
    response = client.post(reverse("duplicate:new"), new_session_form(automatic="on", game_file=upload()))
    assert response.status_code == 400
    assert response.context["form"].errors["game_file"] == [
        "Une partie automatique tire ses coups : pas de fichier de partie."
    ]
    assert not Session.objects.exists()


def test_the_game_file_downloads_for_whoever_reads_the_session(client, played, alice, bob, charlie):
    url = reverse("duplicate:game", args=[played.pk])
    assert client.get(url).status_code == 302  # anonymous: to the login page
    client.force_login(charlie)  # another club's organiser
    assert client.get(url).status_code == 404
    for reader in (alice, bob):
        client.force_login(reader)
        response = client.get(url)
        assert response.status_code == 200
        assert response["Content-Disposition"] == 'attachment; filename="2026-11-24-mardi-soir-partie.json"'
        assert json.loads(response.content)["rounds"] == GAME


def test_the_console_reveals_the_files_top(client, alice, from_file):
    client.force_login(alice)
    client.post(reverse("duplicate:round_add", args=[from_file.pk]), {"action": "server"})
    response = client.post(reverse("duplicate:round_top", args=[from_file.pk, 1]), {"action": "reveal"})
    assert response.status_code == 302
    assert from_file.rounds.get().top == "H4 VAGUE"


def test_a_draw_typed_against_the_file_at_the_console_is_refused_on_its_field(client, alice, from_file):
    client.force_login(alice)
    response = client.post(reverse("duplicate:round_add", args=[from_file.pk]), {"action": "typed", "draw": "EAIRSTU"})
    assert response.status_code == 400
    assert response.context["error_field"] == "draw"
    assert "n'est pas celui de la partie jouée" in response.context["error"]
    assert not from_file.rounds.exists()


# API


def test_the_api_gives_a_sessions_game(client, played, alice, charlie):
    client.force_login(alice)
    response = client.get(f"/api/duplicate/sessions/{played.pk}/game")
    assert response.status_code == 200
    assert response.json()["edition"] == "fr"
    assert response.json()["rounds"] == GAME
    client.force_login(charlie)
    assert client.get(f"/api/duplicate/sessions/{played.pk}/game").status_code == 404


def test_past_the_files_last_move_the_console_says_to_finish(client, alice, from_file):
    for _game_round in GAME:
        round_reveal_top(round_=round_add(session=from_file))
    client.force_login(alice)
    page = client.get(reverse("duplicate:session", args=[from_file.pk])).content.decode()
    assert "Tous les coups de la partie jouée sont joués : terminez la séance." in page
    assert "Tirer le coup suivant de la partie" not in page
