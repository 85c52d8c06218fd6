"""The sheet kept in the browser: its page, open to all, and "Enregistrer dans mon compte", which copies one of
its games into a member's account (seeds 000 and 003) through the API (`POST /api/sheets/local-games`)."""

import datetime
import json
import re

import pytest
from django.test import Client
from django.utils import timezone

from clubsite.models import ApiToken
from scoring.models import RuleSet
from sheets.local import GAMES_KEPT, MAX_LINES
from sheets.models import Game
from sheets.sheet import build_sheet

pytestmark = pytest.mark.django_db

URL = "/parties/locale/"
SAVE_URL = "/api/sheets/local-games"


def local_game(**fields):
    """A game as the page keeps it: Claire 26, Paul 18, Claire passes, Paul loses a challenge (5 points)."""
    return {
        "edition": "fr",
        "rules": "tournoi",
        "players": ["Claire", "Paul"],
        "lines": [
            {"player": 0, "kind": "play", "points": 26},
            {"player": 1, "kind": "play", "points": 18},
            {"player": 0, "kind": "pass", "points": 0},
            {"player": 1, "kind": "challenge", "points": -5, "words": 1},
        ],
        "racks": None,
        "started": "2025-03-02T14:30:00.000Z",
    } | fields


def one_line(**fields):
    """A game of one line: Claire scores 5, unless `fields` say otherwise."""
    return {"lines": [{"player": 0, "kind": "play", "points": 5} | fields]}


def save(client, game, **extra):
    return client.post(SAVE_URL, json.dumps(game), content_type="application/json", **extra)


def refusal(response) -> str:
    return response.json()["detail"]


# The page.


def test_it_is_open_to_visitors_and_sends_nothing_by_itself(client):
    response = client.get(URL)
    html = response.content.decode()
    assert response.status_code == 200
    assert "Cette feuille reste dans ce navigateur, sur cet appareil : rien n'est envoyé au serveur." in html
    assert f"Les {GAMES_KEPT} dernières parties sont gardées, dans ce navigateur seulement." in html
    assert "data-save-url" not in html  # a visitor is not offered "Enregistrer dans mon compte"
    # In the site header, for everyone, under a name of its own: a member's game is his "Feuille de marque".
    assert 'href="/parties/locale/">Feuille de ce navigateur</a>' in html


def test_it_gives_the_script_the_rule_sets_as_the_admin_left_them(client):
    tournament = RuleSet.objects.get(code="tournoi")
    tournament.challenge_penalty, tournament.max_move_points = 7, 1500
    tournament.move_seconds, tournament.move_seconds_choices = 120, "60,120,180"
    tournament.save()  # as the admin does
    html = client.get(URL).content.decode()
    config = json.loads(re.search(r'<script id="local-sheet-config" type="application/json">(.*?)</script>', html)[1])
    rules = {rules["code"]: rules for rules in config["rules"]}
    assert rules["tournoi"] == {
        "code": "tournoi",
        "name": "Règles de tournoi (FISF)",
        "min_players": 2,
        "max_players": 2,
        "fallback_code": "boite",
        "max_move_points": 1500,
        "challenge_penalty": 7,
        "penalty_offer": 7,
        "consecutive_pass_limit": 6,
        "passes_per_player_limit": 3,
        "pass_rounds_limit": 0,
        "end_of_game": "finisher_gains_others",
        "solo_bonus": 10,
        "solo_min_players": 16,
        "move_seconds": 120,
        "move_seconds_choices": [60, 120, 180],
        "is_default": True,
    }
    # A classic game takes the seats the rule sets admit; a duplicate game as many, or one alone against the tops.
    assert config["players"] == {"classic": {"min": 2, "max": 4}, "duplicate": {"min": 1, "max": 4}}
    assert rules["boite"]["penalty_offer"] == 10 and rules["boite"]["pass_rounds_limit"] == 2
    french = config["editions"][0]
    assert french["code"] == "fr" and french["is_default"]
    assert [french["values"][letter] for letter in "EAUZ"] == [1, 1, 1, 10]
    assert french["counts"]["?"] == 2 and sum(french["counts"].values()) == 102


def test_the_sheet_sits_under_the_counter_and_the_grid_for_visitors_and_members(client, alice):
    """Issue 25: the sheet kept in the browser, under the site's own counter, typed and grid, with the same figures
    as on its page; not under a member's game or a duplicate session, which have their sheet."""
    for user in (None, alice):
        if user:
            client.force_login(user)
        for url in ("/", "/grille/"):
            html = client.get(url).content.decode()
            assert '<div id="local-sheet" data-below-counter' in html, url
            assert '<h2 id="browser-sheet-title">Feuille de marque de ce navigateur</h2>' in html
            assert html.count('id="local-sheet-config"') == 1 and html.count('id="sheet-edition"') == 1
            assert ('data-save-url="/api/sheets/local-games"' in html) == bool(user)
    assert "data-below-counter" not in client.get(URL).content.decode()


def test_the_counter_s_htmx_answers_swap_the_counter_only_never_the_sheet(client):
    """Typing sends nothing now (issue 25); a button the counter still posts (a share link) swaps #counter alone,
    so the sheet under it, with what the browser keeps, is never replaced."""
    response = client.post("/", {"words": "1", "w0": "ECOLES", "edition": "fr"}, headers={"HX-Request": "true"})
    html = response.content.decode()
    assert response.status_code == 200 and response["HX-Reselect"] == "#counter"
    assert html.index('id="counter"') < html.index('id="local-sheet"')


def test_a_member_s_game_counter_has_no_browser_sheet(client, alice, game):
    client.force_login(alice)
    for url in (f"/parties/{game.pk}/compter/", f"/parties/{game.pk}/grille/"):
        response = client.get(url)
        assert response.status_code == 200 and "local-sheet" not in response.content.decode(), url


def test_it_rejects_post_on_the_page(client):
    assert client.post(URL).status_code == 405


def test_a_member_is_offered_saving_and_finds_the_page_from_his_history(client, alice):
    client.force_login(alice)
    html = client.get(URL).content.decode()
    assert f'data-save-url="{SAVE_URL}"' in html and "data-csrf=" in html
    assert 'href="/parties/locale/">Feuille de marque de ce navigateur</a>' in client.get("/parties/").content.decode()


# "Enregistrer dans mon compte": the permission ladder.


def test_a_visitor_cannot_save(client):
    response = save(client, local_game())
    assert (response.status_code, refusal(response)) == (
        401,
        "Authentification requise : un jeton (Authorization: Bearer) ou une session.",
    )
    assert Game.objects.count() == 0


def test_it_needs_the_csrf_token(alice):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    response = save(client, local_game())
    assert response.status_code == 403
    assert refusal(response).startswith("Vérification CSRF refusée : avec une session, envoyez le jeton CSRF")
    assert Game.objects.count() == 0


def test_the_page_sends_its_csrf_token_and_saves(alice):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    html = client.get(URL).content.decode()
    token = re.search(r'data-csrf="([^"]+)"', html)[1]
    assert save(client, local_game(), headers={"X-CSRFToken": token}).status_code == 201
    assert Game.objects.get().owner == alice


def test_a_script_saves_with_its_token(client, alice):
    response = save(client, local_game(), headers={"Authorization": f"Bearer {ApiToken.issue(alice)}"})
    assert response.status_code == 201
    assert Game.objects.get().owner == alice


def test_it_rejects_get(client, alice):
    client.force_login(alice)
    assert client.get(SAVE_URL).status_code == 405


def test_the_former_address_is_gone(client, alice):
    client.force_login(alice)
    assert client.post("/parties/locale/enregistrer/", "{}", content_type="application/json").status_code == 404


def test_a_member_saves_a_game_in_progress(client, alice):
    client.force_login(alice)
    response = save(client, local_game())
    game = Game.objects.get()
    assert response.status_code == 201
    assert response.json() == {"id": game.pk, "url": f"/parties/{game.pk}/"}
    assert game.owner == alice and game.rule_set.code == "tournoi" and game.edition.code == "fr"
    assert game.created_at.isoformat() == "2025-03-02T14:30:00+00:00"
    sheet = build_sheet(game)
    assert [player.display_name for player in sheet.players] == ["Claire", "Paul"]
    assert [(row.line.kind, row.line.points, row.cumulative) for row in sheet.rows] == [
        ("play", 26, 26),
        ("play", 18, 18),
        ("pass", 0, 26),
        ("challenge", -5, 13),
    ]
    assert sheet.totals == [26, 13]
    assert sheet.turn.position == 1  # the challenge used no turn: Paul plays after Claire's pass
    assert not game.is_finished
    assert game in Game.objects.for_user(alice)


def test_a_finished_game_keeps_its_results(client, alice):
    """Seed 000: the player left with E, A and U loses 3 points, which the one who finished gains."""
    client.force_login(alice)
    save(client, local_game(racks=["EAU", ""]))
    sheet = build_sheet(Game.objects.get())
    assert [(p.display_name, f.before, f.adjustment, f.final, f.place) for p, f in sheet.results] == [
        ("Claire", 26, -3, 23, 1),
        ("Paul", 13, 3, 16, 2),
    ]
    assert sheet.results_text() == "1. Claire : 23 (26 -3)\n2. Paul : 16 (13 +3)"


def test_unnamed_players_and_a_penalty(client, alice):
    client.force_login(alice)
    lines = [{"player": 2, "kind": "penalty", "points": -10}, {"player": 0, "kind": "exchange", "points": 0}]
    save(client, local_game(rules="boite", players=["", "Paul", "", ""], lines=lines))
    sheet = build_sheet(Game.objects.get())
    assert [player.display_name for player in sheet.players] == ["Joueur 1", "Paul", "Joueur 3", "Joueur 4"]
    assert sheet.totals == [0, 0, -10, 0]
    assert sheet.turn.position == 1


def test_tournament_rules_at_three_players_become_the_box_rules(client, alice):
    client.force_login(alice)
    save(client, local_game(players=["A", "B", "C"], lines=[{"player": 2, "kind": "play", "points": 12}]))
    assert Game.objects.get().rule_set.code == "boite"


# Bad input: a French sentence and a 4xx, nothing written.


UNREADABLE = "Corps de la requête illisible : du JSON est attendu."


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        (b"{not json", 400, UNREADABLE),
        (b"\xff\xfe", 400, UNREADABLE),
        (b"[1, 2]", 422, "Le corps de la requête doit être un objet JSON."),
        (b"[" * 30_000 + b"]" * 30_000, 400, UNREADABLE),
        (b'{"players": ["A", "B"], "lines": [{"points": ' + b"9" * 5000 + b"}]}", 400, UNREADABLE),
    ],
)
def test_it_refuses_what_is_not_a_game(client, alice, body, status, message):
    client.force_login(alice)
    response = client.post(SAVE_URL, body, content_type="application/json")
    assert (response.status_code, refusal(response)) == (status, message)
    assert Game.objects.count() == 0


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"players": ["A", "B", "C", "D", "E"]}, "Une partie classique se joue de 2 à 4 joueurs."),
        ({"players": ["A"]}, "Une partie classique se joue de 2 à 4 joueurs."),
        ({"players": "AB"}, "Champ « players » : une liste est attendue."),
        ({"players": ["A" * 61, "B"]}, "Champ « players.0 » : 60 caractères au plus."),
        ({"players": [1, "B"]}, "Champ « players.0 » : du texte est attendu."),
        (
            {"players": ["A\u200b", "B"]},
            "Un nom de joueur ne peut contenir de caractère invisible ou de contrôle de sens d'écriture (U+200B).",
        ),
        ({"edition": "xx"}, "Édition inconnue."),
        ({"rules": "poker"}, "Jeu de règles inconnu."),
        ({"rules": None}, "Champ « rules » : du texte est attendu."),
        ({"edition": "fr", "variant": "x"}, "Champ inconnu : « variant »."),
        ({"lines": None}, "Champ « lines » : une liste est attendue."),
        (one_line(points=2001), "Ligne 1 : un coup vaut de 0 à 2000 points."),
        (one_line(points=-1), "Ligne 1 : un coup vaut de 0 à 2000 points."),
        (one_line(points=12.5), "Champ « lines.0.points » : un nombre entier est attendu."),
        (one_line(points=True), "Champ « lines.0.points » : un nombre entier est attendu."),
        (one_line(points=10**12), "Champ « lines.0.points » : 100000 au plus."),
        (one_line(points=None), "Champ « lines.0.points » : un nombre entier est attendu."),
        (one_line(points="5"), "Champ « lines.0.points » : un nombre entier est attendu."),
        (one_line(player=2), "Ligne 1 : joueur inconnu."),
        (one_line(player=False), "Champ « lines.0.player » : un nombre entier est attendu."),
        (one_line(player=-1), "Champ « lines.0.player » : 0 au moins."),
        (one_line(kind="board"), "Champ « lines.0.kind » : valeur inconnue."),
        ({"lines": ["play"]}, "Champ « lines.0 » : un objet JSON est attendu."),
        (one_line(kind="pass", points=30), "Ligne 1 : 30 points sur la feuille, 0 selon les règles."),
        (one_line(kind="challenge", points=-5, words=2), "Ligne 1 : -5 points sur la feuille, -10 selon les règles."),
        (one_line(kind="challenge", points=-45, words=9), "Ligne 1 : de 1 à 8 mots contestés."),
        (
            one_line(kind="challenge", points=-5) | {"rules": "boite"},
            "Ligne 1 : ces règles ne prévoient pas de pénalité de contestation.",
        ),
        (one_line(kind="penalty", points=10), "Ligne 1 : une pénalité retire de 1 à 1000 points."),
        ({"lines": [{"player": 0, "kind": "pass", "points": 0}] * 401}, "Champ « lines » : 400 éléments au plus."),
        ({"racks": ["EAU"]}, "Fin de partie illisible : une case de lettres restantes par joueur."),
        ({"racks": ["", ""]}, "Un seul joueur peut avoir terminé : laissez vide une seule case."),
        ({"racks": ["E3", ""]}, "Claire : caractère non accepté : « 3 ». Seules les lettres sont admises."),
        ({"racks": ["ZZ", ""]}, "Claire : 2 × Z, mais il n'en reste que 1 hors de la grille."),
        ({"racks": ["²", ""]}, "La valeur des lettres restantes va de 0 à 999."),
        ({"racks": ["1000", ""]}, "La valeur des lettres restantes va de 0 à 999."),
        ({"racks": ["E" * 31, ""]}, "Champ « racks.0 » : 30 caractères au plus."),
        ({"started": "hier"}, "Champ « started » : une date ISO 8601 est attendue (AAAA-MM-JJTHH:MM:SS)."),
        ({"started": 10}, "Champ « started » : une date ISO 8601 est attendue (AAAA-MM-JJTHH:MM:SS)."),
    ],
)
def test_it_refuses_a_bad_game_and_writes_nothing(client, alice, fields, message):
    client.force_login(alice)
    response = save(client, local_game(**fields))
    assert (response.status_code, refusal(response)) == (422, message)
    assert Game.objects.count() == 0


def test_it_refuses_a_body_over_64_kb(client, alice):
    client.force_login(alice)
    response = save(client, local_game(padding="x" * 64 * 1024))
    assert response.status_code == 413
    assert refusal(response) == "Partie trop volumineuse : 64 Ko au plus."
    assert Game.objects.count() == 0


def test_a_long_game_is_saved_in_one_piece(client, alice):
    client.force_login(alice)
    lines = [{"player": n % 4, "kind": "play", "points": n % 60} for n in range(MAX_LINES)]
    response = save(client, local_game(rules="boite", players=["A", "B", "C", "D"], lines=lines))
    assert response.status_code == 201
    assert Game.objects.get().lines.count() == MAX_LINES


@pytest.mark.parametrize(
    "started",
    [
        "0001-01-01T00:30:00+01:00",  # before year 1 in UTC: a 500 (OverflowError) when written
        "0001-01-01T00:00:00",
        "1999-12-31T23:59:59+00:00",
        "9999-12-31T23:59:59-01:00",
        "2999-01-01T00:00:00+00:00",
    ],
)
def test_a_date_out_of_range_is_refused(client, alice, started):
    """Trial of issue 24: a game is dated from 2000-01-01 to tomorrow (a browser's clock a little ahead)."""
    client.force_login(alice)
    response = save(client, local_game(started=started))
    assert (response.status_code, refusal(response)) == (
        422,
        "Date de la partie impossible : du 1er janvier 2000 à aujourd'hui.",
    )
    assert Game.objects.count() == 0


def test_a_date_a_little_ahead_becomes_now(client, alice):
    """A browser whose clock runs ahead (by less than a day) dates its game now, never later."""
    client.force_login(alice)
    ahead = timezone.now() + datetime.timedelta(hours=3)
    assert save(client, local_game(started=ahead.isoformat())).status_code == 201
    assert Game.objects.get().created_at <= timezone.now()


def test_the_first_day_of_2000_is_a_date(client, alice):
    client.force_login(alice)
    assert save(client, local_game(started="2000-01-01T00:00:00+00:00")).status_code == 201
    assert Game.objects.get().created_at.isoformat() == "2000-01-01T00:00:00+00:00"


@pytest.mark.parametrize("started", ["1700000000", "1700000000.5", "demain", "2026-13-01T00:00:00"])
def test_a_date_that_is_not_iso_8601_text_is_refused(client, alice, started):
    """Attacker's trial of issue 23: the text "1700000000" was read as seconds since 1970."""
    client.force_login(alice)
    response = save(client, local_game(started=started))
    assert response.status_code == 422
    assert "started" in refusal(response)
    assert Game.objects.count() == 0
