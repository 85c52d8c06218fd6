"""Recording from the counter: "Inscrire pour <joueur>" in typed and grid mode, and the game's own board."""

import json
import re
from dataclasses import replace

import pytest

from scoring.boards import BoardStore
from scoring.engine.moves import Board, Move
from scoring.models import Edition, RuleSet
from sheets import services
from sheets.boards import GameBoardStore
from sheets.models import Line
from sheets.sheet import build_sheet

from .conftest import make_game

pytestmark = pytest.mark.django_db


def test_typed_counter_inscribes_for_the_player_whose_turn_it_is(client, game, alice):
    client.force_login(alice)
    url = f"/parties/{game.pk}/compter/"
    html = client.get(url).content.decode()
    assert "Inscrire pour Alice" in html
    assert 'name="edition" value="fr"' in html  # the game's edition, not a choice
    response = client.post(url, {"w0": "écoles", "w0_1_sq": "LD", "w0_5_sq": "MD", "action": "inscribe"})
    assert response.status_code == 302 and response["Location"] == url
    line = game.lines.get()
    assert (line.player.position, line.points, line.kind, line.move) == (0, 22, Line.Kind.PLAY, "")
    assert line.tiles == ["E", "C", "O", "L", "E", "S"]  # off the tile tracking, though on no board
    assert (
        line.detail
        == "ECOLES : (1 + 3 × 2 + 1 + 1 + 1 + 1) × 2 = 22 · Jetons posés depuis le chevalet : 6 · Total : 22 points"
    )
    html = client.get(url).content.decode()
    assert "22 points inscrits pour Alice." in html
    assert "Inscrire pour Bob" in html
    assert 'value="ECOLES"' not in html  # the counter is cleared


def test_typed_counter_with_htmx_redirects_the_page(client, game, alice):
    client.force_login(alice)
    url = f"/parties/{game.pk}/compter/"
    response = client.post(url, {"w0": "MOT", "action": "inscribe"}, HTTP_HX_REQUEST="true")
    assert response["HX-Redirect"] == url
    assert game.lines.get().points == 4


def test_nothing_to_inscribe_is_a_400(client, game, alice):
    client.force_login(alice)
    response = client.post(f"/parties/{game.pk}/compter/", {"w0": "", "action": "inscribe"})
    assert response.status_code == 400
    assert "Rien à inscrire : tapez d&#x27;abord un coup complet." in response.content.decode()
    assert game.lines.count() == 0


def test_grid_inscribes_and_keeps_the_move_on_the_games_board(client, game, alice):
    client.force_login(alice)
    url = f"/parties/{game.pk}/grille/"
    response = client.post(url, {"start": "H4", "direction": "h", "letters": "VAGUE", "action": "inscribe"})
    assert "26 points inscrits pour Alice (H4 VAGUE)." in response.content.decode()
    response = client.post(url, {"start": "G4", "direction": "v", "letters": "AIONS"})
    assert re.search(r'id="total">18<', response.content.decode())
    client.post(url, {"start": "G4", "direction": "v", "letters": "AIONS", "action": "inscribe"})
    sheet = build_sheet(game)
    assert sheet.totals == [26, 18]
    assert [row.line.move for row in sheet.rows] == ["H4 VAGUE", "4G AVIONS"]
    assert sheet.board.tile_count == 10
    assert sheet.bag == 102 - 10 - 14
    html = client.get(f"/parties/{game.pk}/").content.decode()
    assert "Jetons encore à venir" in html and "78 dans le sac, chevalets pleins." in html


@pytest.fixture
def box_game_of_40(alice, bob):
    """A game of Alice's under the box rules, whose whole-rack bonus the admin set to 40."""
    box = RuleSet.objects.get(code="boite")
    box.bingo_bonus = 40
    box.save()
    return make_game(alice, members=[alice, bob], rules="boite")


def figures(html) -> dict:
    return json.loads(re.search(r'<script id="counter-figures" type="application/json">(.*?)</script>', html)[1])


def test_the_grid_counts_with_the_games_own_rule_set(client, box_game_of_40, alice):
    """Trial: the grid counted every game with the default rule set, the tournament's +50: the box game's
    MOUTONS (7 tiles) was worth 70 where its rules give 20 + 40."""
    game = box_game_of_40
    client.force_login(alice)
    url = f"/parties/{game.pk}/grille/"
    html = client.post(url, {"start": "H4", "direction": "h", "letters": "MOUTONS"}).content.decode()
    assert '<p class="bonus">Prime pour 7 jetons posés : +40</p>' in html
    assert re.search(r'id="total">60<', html)
    assert figures(html)["rules"]["bingo_bonus"] == 40  # and the browser counts with the same figures
    client.post(url, {"start": "H4", "direction": "h", "letters": "MOUTONS", "action": "inscribe"})
    assert game.lines.get().points == 60


def test_the_typed_counter_counts_with_the_games_own_rule_set(client, box_game_of_40, alice):
    game = box_game_of_40
    client.force_login(alice)
    url = f"/parties/{game.pk}/compter/"
    moutons = {"w0": "MOUTONS", "w0_0_sq": "LD", "w0_4_sq": "MD"}
    html = client.post(url, moutons).content.decode()
    assert '<p class="bonus">Prime pour 7 jetons posés : +40</p>' in html
    assert re.search(r'id="total">60<', html)
    assert figures(html)["rules"]["bingo_bonus"] == 40
    client.post(url, {**moutons, "action": "inscribe"})
    assert game.lines.get().points == 60


def test_place_without_scoring(client, game, alice):
    client.force_login(alice)
    url = f"/parties/{game.pk}/grille/"
    html = client.get(url).content.decode()
    assert "Poser sur la grille sans marquer" in html
    assert "Vider la grille" not in html
    client.post(url, {"start": "H4", "letters": "VAGUE", "action": "place"})
    line = game.lines.get()
    assert (line.kind, line.points, line.move) == (Line.Kind.BOARD, 0, "H4 VAGUE")
    assert build_sheet(game).turn.position == 0  # no turn used


def test_undoing_the_last_line_takes_its_move_off_the_board(client, game, alice):
    client.force_login(alice)
    client.post(f"/parties/{game.pk}/grille/", {"start": "H4", "letters": "VAGUE", "action": "inscribe"})
    client.post(f"/parties/{game.pk}/lignes/annuler/")
    assert build_sheet(game).board.tile_count == 0


def test_counter_pages_of_a_game_follow_the_permission_ladder(client, game, bob, charlie):
    for url in (f"/parties/{game.pk}/compter/", f"/parties/{game.pk}/grille/"):
        assert client.get(url).status_code == 302
        client.force_login(charlie)
        assert client.get(url).status_code == 404
        client.force_login(bob)
        assert client.get(url).status_code == 403
        client.logout()


def test_grid_inscribe_on_a_finished_game_is_refused(client, game, alice):
    from sheets import services

    services.game_finish(game=game, racks={0: "", 1: "E"})
    client.force_login(alice)
    response = client.post(f"/parties/{game.pk}/grille/", {"start": "H4", "letters": "VAGUE", "action": "inscribe"})
    assert response.status_code == 400
    assert "La partie est terminée : rouvrez-la pour la corriger." in response.content.decode()
    assert game.lines.count() == 0


def test_the_games_board_keeps_the_board_store_contract(game):
    store = GameBoardStore(game)
    assert isinstance(store, BoardStore)
    assert (store.player_count, store.edition_locked, store.template_name) == (2, True, "sheets/grid.html")


def test_a_grid_button_through_htmx_redraws_the_grid_with_the_sheets_banner_and_buttons(client, game, alice):
    client.force_login(alice)
    url = f"/parties/{game.pk}/grille/"
    data = {"start": "H4", "direction": "h", "letters": "VAGUE", "action": "inscribe"}
    response = client.post(url, data, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert (response["HX-Retarget"], response["HX-Reselect"]) == ("#grid-app", "#grid-app")
    assert "26 points inscrits pour Alice (H4 VAGUE)." in html
    assert "Inscrire pour Bob" in html and "Poser sur la grille sans marquer" in html
    assert f'href="/parties/{game.pk}/compter/"' in html  # typed mode, for this game
    assert "Vider la grille" not in html


def test_a_finished_games_counter_and_grid_offer_no_inscription(client, game, alice):
    """Trial of issue 10: a finished game's pages showed "Inscrire pour" with no name, doing nothing."""
    services.game_finish(game=game, racks={0: "", 1: "E"})
    client.force_login(alice)
    for page in ("compter", "grille"):
        html = client.get(f"/parties/{game.pk}/{page}/").content.decode()
        assert "Inscrire pour" not in html
        assert "La partie est terminée : rouvrez-la depuis la feuille pour y inscrire un coup." in html


def test_the_games_grid_tracking_counts_the_moves_counted_in_typed_mode(client, game, alice):
    """Trial of issue 10: ZEBRE counted in typed mode left the sheet's tracking but not the grid page's."""
    client.force_login(alice)
    client.post(f"/parties/{game.pk}/compter/", {"w0": "zebre", "action": "inscribe"})
    html = client.get(f"/parties/{game.pk}/grille/").content.decode()
    assert "97 jetons hors de la grille" in html
    assert re.search(r"<b>Z</b> 0<", html) and re.search(r"<b>E</b> 13<", html)
    assert '<span id="bag">83</span>' in html  # 97 less two racks


def test_the_games_grid_says_which_move_no_longer_fits_the_board(client, game, alice):
    """Trial of issue 10: with a line deleted under a later move, the grid page left the move off in silence."""
    client.force_login(alice)
    url = f"/parties/{game.pk}/grille/"
    client.post(url, {"start": "H4", "letters": "VAGUE", "action": "inscribe"})
    client.post(url, {"start": "G4", "direction": "v", "letters": "AIONS", "action": "inscribe"})
    client.post(url, {"start": "L4", "letters": "OT", "action": "inscribe"})
    client.post(f"/parties/{game.pk}/lignes/{game.lines.get(move='4G AVIONS').pk}/supprimer/")
    html = client.get(url).content.decode()
    assert "« L4 SOT » ne tient plus sur la grille : le mot doit toucher une lettre déjà posée sur la grille." in html


def test_a_grid_lines_detail_names_the_bonus(client, game, alice):
    """Trial of issue 10: an 80-point line's detail added up to 30, the bonus unsaid."""
    client.force_login(alice)
    client.post(f"/parties/{game.pk}/grille/", {"start": "H2", "letters": "MOUTONS", "action": "inscribe"})
    line = game.lines.get()
    assert line.points == 68
    assert line.detail == "MOUTONS : (2 + 1 + 1 × 2 + 1 + 1 + 1 + 1) × 2 = 18 · Prime pour 7 jetons posés : +50"


def test_the_bonus_in_a_lines_detail_counts_the_rule_sets_rack():
    """Trial: the detail said « sept jetons » whatever the rule set's rack, here six tiles."""
    edition, rules = Edition.objects.engine("fr"), replace(RuleSet.objects.engine("tournoi"), rack_size=6)
    play = Board().evaluate(Move.parse("H3 MOUTON", edition), edition, rules)
    assert (
        services.play_detail(play) == "MOUTON : (2 + 1 × 2 + 1 + 1 + 1 + 1) × 2 = 16 · Prime pour 6 jetons posés : +50"
    )
