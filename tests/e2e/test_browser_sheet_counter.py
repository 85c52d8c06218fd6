"""The sheet kept in the browser under the counter (issue 25, seed 000): a move counted above it goes on the sheet in
one touch for whose turn it is, typed or on the grid, for a visitor and a member; the sheet stays in localStorage
across a reload, and no request carries it. Seed 003's rules: an empty Points box counts 0, and × takes a line off
with an "Annuler" beside the message, never silently."""

import json
from urllib.parse import unquote_plus, urlsplit

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP, PHONE, correct_line, count_ecoles, expect_totals, log_in, start_game, touch, type_letters

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

# Names no counter sends: a request holding one of them carries the sheet.
NAMES = ("Zéphyrine", "Octave")
STORAGE_KEY = "clubsite.local-sheet.v1"


def carrying_the_sheet(requests):
    """Requests holding a player's name, in their address or their body (the counter's own POSTs hold the word)."""
    found = []
    for request in requests:
        body = request.post_data_buffer.decode("utf-8", "replace") if request.post_data_buffer else ""
        where = unquote_plus(request.url + body)
        if any(name in where or name.encode("unicode_escape").decode() in where for name in NAMES + (STORAGE_KEY,)):
            found.append((request.method, request.url))
    return found


def counter_result(page, detail):
    """What the counter sends when its count changes (its own script, issue 25): a move, or None."""
    page.evaluate("detail => document.dispatchEvent(new CustomEvent('counter:result', { detail }))", detail)


def watch_inscriptions(page):
    page.evaluate("window.inscribed = []; document.addEventListener('sheet:inscribed', e => inscribed.push(e.detail))")


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_move_counted_above_the_sheet_is_inscribed_in_one_touch(page, sent):
    count_ecoles(page)
    expect(page.locator("#browser-sheet-title")).to_have_text("Feuille de marque de ce navigateur")
    expect(page.locator("#browser-sheet .kept-here")).to_contain_text("rien n'est envoyé au serveur")
    start_game(page, *NAMES)
    expect(page.locator("#points")).to_have_value("22")
    expect(page.locator("#counted-note")).to_have_text("Coup compté au compteur : ECOLES, 22 points.")
    watch_inscriptions(page)

    page.get_by_role("button", name="Inscrire pour Zéphyrine").click()
    expect(page.locator("#toast")).to_have_text("22 points inscrits pour Zéphyrine.")
    expect_totals(page, 22, 0)
    expect(page.locator("#turn-title")).to_have_text("À Octave de jouer")
    expect(page.locator("#lines-body .kind")).to_have_text(["Coup · ECOLES"])
    expect(page.locator("#lines-body .cumulative")).to_have_text(["22"])
    expect(page.locator("#points")).to_have_value("")
    expect(page.locator("#counted-note")).to_be_hidden()
    assert page.evaluate("window.inscribed") == [{"score": 22}]

    counter_result(
        page,
        {
            "score": 27,
            "words": [{"word": "CAFÉ", "score": 18}, {"word": "FONDE", "score": 9}],
            "detail_text": "CAFÉ 18\nFONDE 9",
            "tiles_used": 4,
        },
    )
    expect(page.locator("#counted-note")).to_have_text("Coup compté au compteur : CAFÉ + FONDE, 27 points.")
    expect(page.locator("#points")).to_have_value("27")
    page.get_by_role("button", name="Inscrire pour Octave").click()
    expect(page.locator("#toast")).to_have_text("27 points inscrits pour Octave.")
    expect_totals(page, 22, 27)
    expect(page.locator("#lines-body .kind")).to_have_text(["Coup · ECOLES", "Coup · CAFÉ + FONDE"])

    # A score typed by hand stays, whatever the counter counts next; no valid move leaves the box as it is.
    page.fill("#points", "30")
    counter_result(page, {"score": 12, "words": [{"word": "KIWI", "score": 12}], "detail_text": "", "tiles_used": 4})
    expect(page.locator("#counted-note")).to_have_text("Coup compté au compteur : KIWI, 12 points.")
    expect(page.locator("#points")).to_have_value("30")
    counter_result(page, None)
    expect(page.locator("#counted-note")).to_be_hidden()
    expect(page.locator("#points")).to_have_value("30")
    page.get_by_role("button", name="Inscrire pour Zéphyrine").click()
    expect(page.locator("#lines-body .kind").nth(2)).to_have_text("Coup")
    expect(page.locator("#lines-body .cumulative").nth(2)).to_have_text("52")

    page.reload()
    expect_totals(page, 52, 27)
    expect(page.locator("#turn-title")).to_have_text("À Octave de jouer")
    kept = json.loads(page.evaluate(f"localStorage.getItem('{STORAGE_KEY}')"))
    assert [line["points"] for line in kept["games"][0]["lines"]] == [22, 27, 30]
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    assert "etat=" not in page.url
    assert carrying_the_sheet(sent) == []


def test_a_move_laid_on_the_grid_is_inscribed_for_whose_turn_it_is(page, sent):
    page.goto("/grille/")
    expect(page.locator("#local-sheet")).to_have_attribute("data-below-counter", "")
    start_game(page, *NAMES)
    touch(page, "H4")
    type_letters(page, "vague", total=26)
    expect(page.locator("#counted-note")).to_have_text("Coup compté au compteur : VAGUE, 26 points.")
    page.get_by_role("button", name="Inscrire pour Zéphyrine").click()
    expect(page.locator("#toast")).to_have_text("26 points inscrits pour Zéphyrine.")
    expect_totals(page, 26, 0)
    expect(page.get_by_role("button", name="Inscrire pour Octave")).to_be_visible()
    # The same move, still on the counter, is not offered again.
    expect(page.locator("#points")).to_have_value("")
    expect(page.locator("#counted-note")).to_be_hidden()
    assert carrying_the_sheet(sent) == []


def test_a_member_finds_the_sheet_under_the_counter_and_saves_it_himself(page, sent):
    log_in(page, "claire")
    expect(page.get_by_role("link", name="Feuille de ce navigateur")).to_be_visible()
    page.goto("/")
    start_game(page, *NAMES)
    page.fill("#points", "26")
    page.get_by_role("button", name="Inscrire pour Zéphyrine").click()
    before = len(sent)
    page.locator("#current-save").get_by_role("button", name="Enregistrer dans mon compte").click()
    expect(page.locator("#current-save")).to_contain_text("Enregistrée dans votre compte")
    assert [(r.method, urlsplit(r.url).path) for r in sent[before:]] == [("POST", "/api/sheets/local-games")]
    # That explicit save carries the game, and nothing else did.
    assert [(method, urlsplit(url).path) for method, url in carrying_the_sheet(sent[before:])] == [
        ("POST", "/api/sheets/local-games")
    ]
    assert carrying_the_sheet(sent[:before]) == []


def test_an_empty_points_box_counts_0_and_a_line_taken_off_can_be_put_back(page, sent):
    """Seed 003: « Saisissez 0, ou laissez la case vide. Les deux comptent pour zéro. » A tap on × takes the line off
    and says so beside an "Annuler" that puts it back."""
    page.goto("/")
    start_game(page, *NAMES)
    expect(page.locator("#points-note")).to_have_text("Une case laissée vide compte 0.")
    page.get_by_role("button", name="Inscrire pour Zéphyrine").click()
    expect(page.locator("#toast")).to_have_text("0 point inscrit pour Zéphyrine.")
    page.fill("#points", "26")
    page.get_by_role("button", name="Inscrire pour Octave").click()
    expect_totals(page, 0, 26)

    correct_line(page, 2, "")
    expect(page.locator("#toast")).to_have_text("Ligne 2 corrigée : 0 point.")
    expect_totals(page, 0, 0)
    correct_line(page, 2, 26)
    expect_totals(page, 0, 26)

    page.get_by_role("button", name="Supprimer la ligne 2").click()
    expect(page.locator("#toast")).to_have_text("Ligne 2 supprimée.")
    undo = page.locator("#toast-undo")
    expect(undo).to_have_text("Annuler")
    expect(undo).to_be_focused()
    expect(page.locator("#lines-body tr")).to_have_count(1)
    expect_totals(page, 0, 0)
    undo.click()
    expect(page.locator("#toast")).to_have_text("Ligne 2 rétablie.")
    expect(undo).to_be_hidden()
    expect(page.locator("#lines-body tr")).to_have_count(2)
    expect(page.locator("#lines-body .player")).to_have_text(["Zéphyrine", "Octave"])
    expect(page.get_by_label("Points de la ligne 2")).to_have_value("26")
    expect_totals(page, 0, 26)
    page.reload()
    expect_totals(page, 0, 26)
    assert carrying_the_sheet(sent) == []
