"""The counter counts in the visitor's browser (issue 25): typed and grid mode score in the page, every request
recorded; the counted move announced to the page; a print keeps the calculation; the grid's two gestures on a
pending tile told apart; the joker marks of an emptied word dropped; "1 point" in the singular; and without
JavaScript the form still counts on the server."""

import re

import pytest
from playwright.sync_api import expect

from .conftest import (
    DESKTOP,
    PHONE,
    add_secondary_word,
    count_ecoles,
    place_vague,
    set_tile,
    square,
    tile,
    touch,
    type_letters,
    type_word,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def record_requests(page) -> list:
    """Every request the page makes from now on."""
    requests = []
    page.on("request", lambda request: requests.append(request))
    return requests


def not_static(requests) -> list[str]:
    """The requests that are not a static file, each as the test prints it, with what it sent."""
    return [f"{r.method} {r.url} {r.post_data or ''}" for r in requests if "/static/" not in r.url]


def watch_results(page):
    """Keep every counter:result event's detail in window.counted."""
    page.evaluate(
        "() => { window.counted = [];"
        " document.addEventListener('counter:result', (event) => window.counted.push(event.detail)); }"
    )


def last_result(page):
    return page.evaluate("() => window.counted.at(-1)")


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_no_request_carries_what_the_visitor_types(page):
    """ÉCOLES, KIWI with a blank, seven tiles and their bonus, a secondary word added and removed, then AVIONS laid on
    the grid through the V of VAGUE and a blank S: every score is the seeds', and the page asks the server nothing."""
    page.goto("/")
    requests = record_requests(page)
    type_word(page, "écoles", tiles=6, total=8)
    set_tile(page, 2, "Lettre compte double")
    set_tile(page, 6, "Mot compte double")
    expect(page.locator("#calc-0")).to_have_text("ECOLES (1 + 3 × 2 + 1 + 1 + 1 + 1) × 2 = 22")
    expect(page.locator("#total")).to_have_text("22")

    type_word(page, "kiwi", tiles=4, total=22)
    set_tile(page, 1, "Lettre compte triple")
    expect(page.locator("#total")).to_have_text("42")
    set_tile(page, 1, "Joker (vaut 0)")
    expect(page.locator("#calc-0")).to_have_text("kIWI 0 × 3 + 1 + 10 + 1 = 12")
    expect(page.locator("#total")).to_have_text("12")

    type_word(page, "moutons", tiles=7, total=58)
    set_tile(page, 1, "Lettre compte double")
    set_tile(page, 5, "Mot compte double")
    expect(page.locator("#calc-0")).to_have_text("MOUTONS (2 × 2 + 1 + 1 + 1 + 1 + 1 + 1) × 2 = 20")
    expect(page.locator("#result .bonus")).to_have_text("Prime pour 7 jetons posés : +50")
    expect(page.locator("#total")).to_have_text("70")

    add_secondary_word(page, 1)
    type_word(page, "os", tiles=2, total=72, word=1)
    page.get_by_role("button", name="Retirer le mot secondaire 1").click()
    expect(page.locator("#w1")).to_have_count(0)
    expect(page.locator("#total")).to_have_text("70")
    assert not_static(requests) == []

    place_vague(page)  # "Poser sur la grille" keeps the move on the board: the one request the grid makes
    page.reload()
    requests = record_requests(page)
    touch(page, "G4")
    square(page, "G4").click()
    expect(page.locator("#board")).to_have_attribute("data-direction", "v")
    type_letters(page, "avions", total=18)
    expect(page.locator("#grid-result .notation")).to_have_text("4G AVIONS")
    expect(page.locator("#grid-result .words li")).to_have_text("AVIONS (1 + 4 + 1 + 1 + 1 + 1) × 2 = 18")
    square(page, "L4").click()
    expect(page.locator("#grid-result #total")).to_have_text("16")
    expect(page.locator("#grid-result .words li")).to_have_text("AVIONs (1 + 4 + 1 + 1 + 1 + 0) × 2 = 16")
    assert not_static(requests) == []


def check_words(page):
    """Tick « Vérifier les mots dans une liste de mots libre » and wait for the list to be in the page."""
    page.get_by_label("Vérifier les mots dans une liste de mots libre").check()
    expect(page.locator("#word-list-status")).to_have_text(re.compile(r"Liste de mots téléchargée \(400\s344 mots\)"))


def test_the_word_check_downloads_the_list_once_and_sends_no_word(page, live_server):
    """Seed 000: the box downloads the free list, « Seul ce fichier transite : les lettres tapées ne quittent pas le
    navigateur ». Ticking it and typing words makes one request, the list's file, which carries nothing typed; the
    browser keeps the file, so that the next visit, typed or grid, makes none."""
    page.goto("/")
    address = page.evaluate("() => JSON.parse(document.getElementById('word-lists').textContent).fr")
    requests = record_requests(page)
    check_words(page)
    type_word(page, "écoles", tiles=6, total=8)
    expect(page.locator("#calc-0 .verdict")).to_have_text("Dans la liste")
    type_word(page, "zebrex", tiles=6, total=26)
    expect(page.locator("#calc-0 .verdict")).to_have_text("Absent de la liste")
    add_secondary_word(page, 1)
    type_word(page, "kiwi", tiles=4, total=48, word=1)
    expect(page.locator("#calc-1 .verdict")).to_have_text("Dans la liste")
    assert not_static(requests) == [f"GET {live_server.url}{address} "]

    again = page.context.new_page()
    again.goto("/")
    requests = record_requests(again)
    check_words(again)
    type_word(again, "cœur", tiles=5, total=7)
    expect(again.locator("#calc-0 .verdict")).to_have_text("Dans la liste")
    again.goto("/grille/")
    requests += record_requests(again)
    check_words(again)
    touch(again, "H4")
    type_letters(again, "vague", total=26)
    expect(again.locator("#grid-result .words li .verdict")).to_have_text("Dans la liste")
    assert [request for request in not_static(requests) if "/grille/" not in request] == []


def test_the_counted_move_is_announced_to_the_page(page):
    """The browser sheet under the counter hears each counted move: its score, words, detail and the tiles it
    took from the rack; null while there is none."""
    page.goto("/")
    watch_results(page)
    type_word(page, "écoles", tiles=6, total=8)
    set_tile(page, 2, "Lettre compte double")
    set_tile(page, 6, "Mot compte double")
    expect(page.locator("#total")).to_have_text("22")
    assert last_result(page) == {
        "score": 22,
        "words": [{"word": "ECOLES", "score": 22}],
        "detail_text": "ECOLES : (1 + 3 × 2 + 1 + 1 + 1 + 1) × 2 = 22\nJetons posés depuis le chevalet : 6\n"
        "Total : 22 points",
        "tiles_used": ["E", "C", "O", "L", "E", "S"],
        "move": None,
    }
    page.locator("#w0").fill("VA3UE")
    expect(page.locator("#tiles-0 .error")).to_be_visible()
    assert last_result(page) is None

    place_vague(page)
    watch_results(page)
    touch(page, "G4")
    square(page, "G4").click()
    type_letters(page, "aions", total=18)
    square(page, "L4").click()
    expect(page.locator("#grid-result #total")).to_have_text("16")
    assert last_result(page) == {
        "score": 16,
        "words": [{"word": "AVIONs", "score": 16}],
        "detail_text": "AVIONs : (1 + 4 + 1 + 1 + 1 + 0) × 2 = 16\nJetons posés depuis le chevalet : 5\n"
        "Total : 16 points",
        "tiles_used": ["A", "I", "O", "N", "?"],
        "move": "4G AVIONs",
    }


def test_a_print_keeps_each_words_calculation_and_the_total(page):
    """Seed 002: « l'impression garde le résultat et son détail »; the print stylesheet hid every form."""
    count_ecoles(page)
    add_secondary_word(page, 1)
    type_word(page, "es", tiles=2, total=24, word=1)
    page.emulate_media(media="print")
    expect(page.locator("#calc-0")).to_be_visible()
    expect(page.locator("#calc-0")).to_have_text("ECOLES (1 + 3 × 2 + 1 + 1 + 1 + 1) × 2 = 22")
    expect(page.locator("#calc-1")).to_have_text("ES 1 + 1 = 2")
    expect(page.locator("#result .total")).to_be_visible()
    expect(page.locator("#result .total")).to_have_text("Total : 24 points")
    expect(page.locator("#w0")).to_be_hidden()
    expect(page.get_by_role("button", name="Créer un lien de partage")).to_be_hidden()
    expect(page.locator("#browser-sheet")).to_be_hidden()  # no game on the sheet: not its empty « Nouvelle partie »

    page.emulate_media(media="screen")
    place_vague(page)
    page.emulate_media(media="print")
    touch(page, "G4")
    square(page, "G4").click()
    type_letters(page, "aions", total=18)
    expect(page.locator("#grid-result .words li")).to_be_visible()
    expect(page.locator("#grid-result .total")).to_be_visible()
    expect(page.locator("#letters")).to_be_hidden()
    # The board prints its squares' colours, whatever the browser's "background graphics" setting.
    assert page.locator(".board").evaluate("board => getComputedStyle(board).printColorAdjust") == "exact"


def test_one_point_is_singular(page):
    page.goto("/")
    type_word(page, "a", tiles=1, total=1)
    expect(page.locator("#result .total")).to_have_text("Total : 1 point")
    expect(page.locator("#detail-text")).to_contain_text("Total : 1 point")
    expect(page.locator("#detail-text")).not_to_contain_text("points")
    set_tile(page, 1, "Joker (vaut 0)")
    expect(page.locator("#result .total")).to_have_text("Total : 0 point")
    type_word(page, "es", tiles=2, total=2)
    expect(page.locator("#result .total")).to_have_text("Total : 2 points")


def test_emptying_the_letters_drops_every_joker_mark(page):
    """Seed 000's ZÈBRE from H6 with its B touched into a blank is 26; the letters emptied and ZEBRE typed again,
    the B is a B again (the hidden field kept H8B)."""
    page.goto("/grille/")
    touch(page, "H6")
    type_letters(page, "zebre", total=32)
    square(page, "H8").click()
    expect(page.locator("#grid-result #total")).to_have_text("26")
    expect(page.locator("#grid-result .notation")).to_have_text("H6 ZEbRE")
    expect(page.locator("#blanks")).to_have_value("H8B")

    page.locator("#letters").fill("")
    expect(page.locator("#board .new")).to_have_count(0)
    expect(page.locator("#blanks")).to_have_value("")
    type_letters(page, "zebre", total=32)
    expect(page.locator("#grid-result .notation")).to_have_text("H6 ZEBRE")
    expect(square(page, "H8").locator(".t")).to_have_class("t")


def test_a_touch_on_a_pending_tile_makes_a_joker_and_says_so(page):
    """With ÉCOLES pending from H3, a touch on H4 to start MOUTONS made its C a blank, and MOUTONS went from H3
    (68, not 70), without a word. The touch on a pending tile still makes a joker, as seed 000 says, and the page
    says so; starting the word there is another gesture."""
    page.goto("/grille/")
    touch(page, "H3")
    type_letters(page, "écoles", total=22)
    square(page, "H4").click()
    status = page.locator("#touch-status")
    expect(status).to_contain_text("Le C posé en H4 devient un joker.")
    expect(page.locator("#grid-result #total")).to_have_text("10")
    expect(square(page, "H4").locator(".t")).to_have_class("t blank")
    expect(page.locator("#start")).to_have_value("H3")

    square(page, "H4").click()
    expect(status).to_contain_text("Le C posé en H4 n'est plus un joker.")
    expect(page.locator("#grid-result #total")).to_have_text("22")
    square(page, "H4").click()
    expect(page.locator("#grid-result #total")).to_have_text("10")

    status.get_by_role("button", name="Commencer un mot en H4").click()
    expect(status).to_have_text("Case de départ H4, sens horizontal.")
    expect(page.locator("#letters")).to_have_value("")
    expect(page.locator("#blanks")).to_have_value("")
    expect(square(page, "H4")).to_contain_class("start")
    type_letters(page, "moutons", total=70)
    expect(page.locator("#grid-result .notation")).to_have_text("H4 MOUTONS")
    expect(page.locator("#grid-result .bonus")).to_have_text("Prime pour 7 jetons posés : +50")

    page.locator("#letters").fill("")
    square(page, "A1").click()
    expect(status).to_have_text("Case de départ A1, sens horizontal.")
    square(page, "A1").click()
    expect(status).to_have_text("Case de départ A1, sens vertical.")


def test_without_javascript_the_form_still_counts_on_the_server(browser, live_server):
    context = browser.new_context(base_url=live_server.url, java_script_enabled=False, locale="fr-FR")
    page = context.new_page()
    page.goto("/")
    page.locator("#w0").fill("écoles")
    page.get_by_role("button", name="Compter").click()
    for number, label in ((2, "Lettre compte double"), (6, "Mot compte double")):
        tile(page, number).locator("summary").click()  # a <details>: it opens and shuts without a script
        tile(page, number).get_by_label(label).check()
        tile(page, number).locator("summary").click()
    page.get_by_role("button", name="Compter").click()
    expect(page.locator("#calc-0")).to_have_text("ECOLES (1 + 3 × 2 + 1 + 1 + 1 + 1) × 2 = 22")
    expect(page.locator("#total")).to_have_text("22")

    page.goto("/grille/")
    page.locator("#start").fill("H4")
    page.locator("#letters").fill("vague")
    page.get_by_role("button", name="Compter").click()
    expect(page.locator("#grid-result #total")).to_have_text("26")
    context.close()
