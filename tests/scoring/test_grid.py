"""Grid mode at /grille/: letters laid from a start square, the move placed and kept in the session."""

import json
import re
from html import unescape

import pytest

from scoring.boards import BoardStore, MemberBoardStore, VisitorBoardStore
from scoring.models import RuleSet

pytestmark = pytest.mark.django_db


def grid_post(client, **data):
    return client.post("/grille/", data)


def total(response):
    match = re.search(r'id="total">(\d+)<', response.content.decode())
    return int(match[1]) if match else None


def board_data(response):
    """What the grid gives its script, in #grid-app's data-board."""
    return json.loads(
        unescape(re.search(r'<div id="grid-app" class="grid-app" data-board="([^"]*)">', response.content.decode())[1])
    )


def error(response):
    match = re.search(r'<p class="error" role="alert">(.*?)</p>', response.content.decode())
    return match[1] if match else None


def test_empty_grid_page(client):
    response = client.get("/grille/")
    html = response.content.decode()
    assert response.status_code == 200
    assert html.count('role="gridcell"') == 225
    assert 'data-square="H8"' in html
    assert "Jetons encore à venir" in html
    assert "102 jetons hors de la grille" in html


def test_vague_then_avions_typed_around_the_v(client):
    response = grid_post(client, start="H4", direction="h", letters="vague")
    assert total(response) == 26
    response = grid_post(client, start="H4", direction="h", letters="VAGUE", action="place")
    assert "« H4 VAGUE » est posé sur la grille." in response.content.decode()
    response = grid_post(client, start="G4", direction="v", letters="AIONS")
    assert total(response) == 18
    assert "4G AVIONS" in response.content.decode()
    assert "(1 + 4 + 1 + 1 + 1 + 1) × 2 = 18" in response.content.decode()


def test_touching_a_new_tile_makes_it_a_blank(client):
    grid_post(client, start="H4", letters="VAGUE", action="place")
    response = grid_post(client, start="G4", direction="v", letters="AIONS", blanks="L4S")
    assert total(response) == 16
    assert "4G AVIONs" in response.content.decode()


def test_a_joker_mark_belongs_to_one_tile_on_one_square(client):
    """Seed 000's VAGUE is 26 even after a joker was marked on a tile of an abandoned move (issue 10)."""
    response = grid_post(client, start="H8", letters="MOT", blanks="H8M")
    assert total(response) == 4  # (0 + 1 + 1) × 2, against 8 with a real M
    response = grid_post(client, start="H4", letters="VAGUE", blanks="H8M")
    assert total(response) == 26
    assert 'id="blanks" name="blanks" value=""' in response.content.decode()  # the stale mark leaves the form
    response = grid_post(client, start="H4", letters="VAGUE", blanks="H8E")
    assert total(response) == 24  # the E on the star as a joker: (4 × 2 + 1 + 2 + 1 + 0) × 2
    assert 'id="blanks" name="blanks" value="H8E"' in response.content.decode()


def test_the_whole_word_typed_through_a_letter_on_the_board_reads_it_once(client):
    """Seed 000's AVIONS typed whole after H4 VAGUE: the V in H4 is passed through, not laid again (issue 10)."""
    grid_post(client, start="H4", letters="VAGUE", action="place")
    response = grid_post(client, start="G4", direction="v", letters="AVIONS")
    assert total(response) == 18
    assert '<p class="notation">4G AVIONS</p>' in response.content.decode()


def test_the_board_survives_a_reload_and_is_the_same_in_another_tab(client):
    grid_post(client, start="H4", letters="VAGUE", action="place")
    html = client.get("/grille/").content.decode()
    assert re.search(r'data-square="H5"[^>]*>\s*<span class="t">A</span>', html)
    assert "97 jetons hors de la grille" in html


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            {"start": "A1", "letters": "VAGUE"},
            "Le premier coup doit couvrir la case centrale H8 avec au moins deux lettres.",
        ),
        (
            {"start": "H8", "letters": "A"},
            "Le premier coup doit couvrir la case centrale H8 avec au moins deux lettres.",
        ),
        ({"start": "H12", "letters": "VAGUES"}, "Les lettres tapées sortent de la grille."),
        (
            {"start": "H8", "letters": "ABCDEFGH"},
            "Ce coup poserait 8 jetons nouveaux : un chevalet n&#x27;en porte que 7.",
        ),
        ({"start": "H8", "letters": "A1"}, "Caractère non accepté : « 1 ». Seules les lettres sont admises."),
    ],
)
def test_illegal_moves_are_refused_with_the_reason(client, data, message):
    response = grid_post(client, **data)
    assert error(response) == message
    assert total(response) is None


def test_a_move_that_does_not_touch_is_refused_and_not_placed(client):
    grid_post(client, start="H4", letters="VAGUE", action="place")
    response = grid_post(client, start="A1", letters="ZOO", action="place")
    assert response.status_code == 400
    assert "Le mot doit toucher une lettre déjà posée sur la grille." in response.content.decode()
    assert client.session["grid"]["moves"] == ["H4 VAGUE"]


def test_undo_and_clear(client):
    grid_post(client, start="H4", letters="VAGUE", action="place")
    grid_post(client, start="G4", direction="v", letters="AIONS", action="place")
    assert client.session["grid"]["moves"] == ["H4 VAGUE", "4G AVIONS"]
    response = grid_post(client, action="undo")
    assert "« 4G AVIONS » est retiré de la grille." in response.content.decode()
    assert client.session["grid"]["moves"] == ["H4 VAGUE"]
    response = grid_post(client, action="clear")
    assert "La grille est vidée." in response.content.decode()
    assert client.session["grid"]["moves"] == []
    response = grid_post(client, action="undo")
    assert (response.status_code, error(response)) == (400, "La grille est déjà vide.")


@pytest.mark.parametrize(
    ("start", "message"),
    [
        ("Z9", "« Z9 » n&#x27;est pas une case de la grille : une ligne de A à O puis une colonne de 1 à 15 (H8)."),
        ("H16", "« H16 » n&#x27;est pas une case de la grille : une ligne de A à O puis une colonne de 1 à 15 (H8)."),
        (
            "8h",
            "« 8H » : une case s&#x27;écrit ligne puis colonne (H8) ; le sens se choisit avec « Horizontal » ou "
            "« Vertical ».",
        ),
    ],
)
def test_a_start_square_that_is_no_square_says_why(client, start, message):
    response = grid_post(client, start=start, letters="VAGUE")
    assert error(response) == message
    assert total(response) is None


def test_typing_stores_nothing(client):
    grid_post(client, start="H4", letters="VAGUE")
    assert "grid" not in client.session


def test_tracking_counts_blanks_and_the_bag_for_the_players(client):
    grid_post(client, start="H4", letters="VAGUE", blanks="H4V", action="place")
    html = grid_post(client, players="3").content.decode()
    assert re.search(r"<b>\?</b> 1<", html)
    assert re.search(r"<b>V</b> 2<", html)
    assert '<span id="bag">76</span>' in html  # 97 off the board, 21 on three racks


def player_options(html):
    select = re.search(r'<select id="players" name="players" form="grid-form">(.*?)</select>', html, re.S)[1]
    return re.findall(r'<option value="(\d+)"( selected)?>', select)


def test_the_tracking_offers_from_one_rack_to_the_most_players_a_rule_set_admits(client):
    """The players' list follows the rule sets as the admin left them: one rack up to the most any set admits,
    the fewest chosen until the visitor picks."""
    assert player_options(client.get("/grille/").content.decode()) == [
        ("1", ""),
        ("2", " selected"),
        ("3", ""),
        ("4", ""),
    ]
    RuleSet.objects.filter(code="boite").update(max_players=6)
    RuleSet.objects.update(min_players=3)
    html = client.get("/grille/").content.decode()
    assert [number for number, _selected in player_options(html)] == ["1", "2", "3", "4", "5", "6"]
    assert ("3", " selected") in player_options(html)
    assert '<span id="bag">81</span>' in html  # 102 tiles, 21 on three racks
    html = grid_post(client, players="6").content.decode()
    assert ("6", " selected") in player_options(html)
    assert '<span id="bag">60</span>' in html


def test_the_counters_own_stores_keep_the_board_store_contract(rf, django_user_model):
    request = rf.get("/grille/")
    request.session = {}
    assert isinstance(VisitorBoardStore(request), BoardStore)
    assert isinstance(MemberBoardStore(django_user_model.objects.create_user("alice")), BoardStore)
    assert not isinstance(object(), BoardStore)


def test_nothing_typed_is_sent_as_it_is_typed(client):
    """The page counts in the browser: the grid's form is posted by a button only, never on a letter, a touch, the
    players' count or the edition."""
    html = grid_post(client, start="H4", letters="VAGUE").content.decode()
    form = re.search(r'<form id="grid-form"[^>]*>', html)[0]
    assert 'hx-trigger="submit"' in form and 'hx-target="#grid-app"' in form
    assert re.findall(r"hx-trigger=\"([^\"]*)\"", html) == ["submit"]
    assert 'id="players" name="players" form="grid-form">' in html


def test_a_button_sent_by_htmx_redraws_the_grid(client):
    response = client.post("/grille/", {"start": "H4", "letters": "VAGUE", "action": "place"}, HTTP_HX_REQUEST="true")
    assert (response["HX-Retarget"], response["HX-Reselect"]) == ("#grid-app", "#grid-app")
    assert board_data(response) == {"moves": ["H4 VAGUE"], "off_board_tiles": [], "players": None}


def test_the_page_gives_the_browser_the_board_it_counts_on(client):
    html = client.get("/grille/").content.decode()
    assert '<script id="counter-figures" type="application/json">' in html
    assert '<script id="counter-texts" type="application/json">' in html
    grid_post(client, start="H4", letters="VAGUE", action="place")
    response = client.get("/grille/")
    assert board_data(response)["moves"] == ["H4 VAGUE"]
    figures = json.loads(
        re.search(r'id="counter-figures" type="application/json">(.*?)</script>', response.content.decode())[1]
    )
    assert [edition["code"] for edition in figures["editions"]] == ["fr"]  # a board laid in French stays French


def test_one_point_is_singular(client):
    grid_post(client, start="H4", letters="VAGUE", action="place")
    response = grid_post(client, start="G5", direction="v", letters="L", blanks="G5L")
    assert '<p class="total">Total : <strong id="total">1</strong> point</p>' in response.content.decode()


def test_alert_names_a_letter_played_more_often_than_the_set_holds(client):
    grid_post(client, start="H6", letters="FFF", action="place")
    html = client.get("/grille/").content.decode()
    assert "Attention : la grille porte 3 F, le jeu n'en contient que 2." in html


def test_a_members_board_is_kept_on_his_account(client, django_user_model):
    member = django_user_model.objects.create_user("alice", "alice@example.org", "x")
    client.force_login(member)
    grid_post(client, start="H4", letters="VAGUE", action="place")
    assert "grid" not in client.session
    client.logout()
    client.force_login(member)  # another device: a new session
    html = client.get("/grille/").content.decode()
    assert "97 jetons hors de la grille" in html
    from scoring.models import GridBoard

    assert GridBoard.objects.get(user=member).moves == ["H4 VAGUE"]


def test_best_moves_for_a_rack_and_laying_one_on_the_grid(client):
    grid_post(client, start="H4", letters="VAGUE", action="place")
    html = grid_post(client, rack="EHLA?NI", action="best").content.decode()
    assert "7762 coups possibles avec la liste libre" in html
    assert re.findall(r'<span class="best-notation">([^<]+)</span> <strong>(\d+)</strong>', html)[:2] == [
        ("5E HALAIENt", "90"),
        ("5E INHALErA", "90"),
    ]
    response = grid_post(
        client, rack="EHLA?NI", start="E5", direction="v", letters="HALIENT", blanks="L5T", action="show"
    )
    assert total(response) == 90
    assert "5E HALAIENt" in response.content.decode()


def test_best_moves_need_a_rack(client):
    html = grid_post(client, action="best").content.decode()
    assert "Tapez d&#x27;abord le tirage." in html
