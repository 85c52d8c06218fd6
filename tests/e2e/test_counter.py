"""The typed counter at / in Chromium: tiles set through their panels, htmx updates, share links, verdicts."""

import pytest
from playwright.sync_api import expect

from .conftest import add_secondary_word, count_ecoles, set_tile, tile, type_word

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

WORD_LIST_BOX = "Vérifier les mots dans une liste de mots libre"
WORD_LIST_NOTE = "Liste libre (Grammalecte), pas l'ODS : un repère sans valeur officielle."


def test_ecoles_with_a_double_letter_and_a_double_word(page):
    count_ecoles(page)
    expect(page.locator("#calc-0")).to_have_text("ECOLES (1 + 3 × 2 + 1 + 1 + 1 + 1) × 2 = 22")
    expect(page.locator("#total")).to_have_text("22")
    expect(page.locator("#tiles-placed")).to_have_text("6")
    expect(page.locator("#detail-text")).to_contain_text("ECOLES : (1 + 3 × 2 + 1 + 1 + 1 + 1) × 2 = 22")


def test_the_tile_panel_works_with_the_keyboard_alone(page):
    page.goto("/")
    type_word(page, "écoles", tiles=6, total=8)
    panel = tile(page, 2)
    summary = panel.locator("summary")
    summary.focus()
    page.keyboard.press("Enter")
    expect(panel).to_have_js_property("open", True)
    page.keyboard.press("Tab")
    expect(panel.get_by_label("Case simple")).to_be_focused()
    page.keyboard.press("ArrowDown")
    expect(panel.get_by_label("Lettre compte double")).to_be_focused()
    expect(panel.get_by_label("Lettre compte double")).to_be_checked()
    expect(page.locator("#total")).to_have_text("11")
    page.keyboard.press("ArrowDown")
    expect(panel.get_by_label("Lettre compte triple")).to_be_checked()
    expect(page.locator("#total")).to_have_text("14")
    page.keyboard.press("ArrowUp")
    expect(page.locator("#total")).to_have_text("11")
    page.keyboard.press("Escape")
    expect(panel).to_have_js_property("open", False)
    expect(summary).to_be_focused()
    expect(page.locator("#calc-0")).to_have_text("ECOLES 1 + 3 × 2 + 1 + 1 + 1 + 1 = 11")


def test_seven_tiles_get_the_bonus_and_a_secondary_word_is_added(page):
    page.goto("/")
    type_word(page, "moutons", tiles=7, total=58)
    set_tile(page, 1, "Lettre compte double")
    set_tile(page, 5, "Mot compte double")
    expect(page.locator("#calc-0")).to_have_text("MOUTONS (2 × 2 + 1 + 1 + 1 + 1 + 1 + 1) × 2 = 20")
    expect(page.locator("#total")).to_have_text("70")
    expect(page.locator("#result .bonus")).to_have_text("Prime pour 7 jetons posés : +50")

    add_secondary_word(page, 1)
    expect(page.locator("#w0")).to_have_value("moutons")
    expect(tile(page, 1).get_by_label("Lettre compte double")).to_be_checked()
    expect(tile(page, 5).get_by_label("Mot compte double")).to_be_checked()
    expect(page.locator("#total")).to_have_text("70")

    type_word(page, "os", tiles=2, total=72, word=1)
    set_tile(page, 1, "Déjà posé sur le plateau", word=1)
    expect(page.locator("#calc-1")).to_have_text("OS 1 + 1 = 2")
    expect(page.locator("#tiles-placed")).to_have_text("7")
    expect(page.locator("#result .bonus")).to_have_text("Prime pour 7 jetons posés : +50")
    expect(page.locator("#total")).to_have_text("72")


def test_a_digit_gets_an_inline_message_and_no_total(page):
    page.goto("/")
    type_word(page, "vague", tiles=5, total=9)
    page.locator("#w0").fill("VA3UE")
    expect(page.locator("#tiles-0 .error")).to_have_text(
        "Caractère non accepté : « 3 ». Seules les lettres sont admises."
    )
    expect(page.locator("#total")).to_have_count(0)
    expect(page.locator("#calc-0")).to_be_empty()
    expect(page.locator("#result .hint")).to_be_visible()


def test_a_share_link_restores_the_calculation_and_every_setting(page):
    count_ecoles(page)
    set_tile(page, 3, "Joker (vaut 0)")
    expect(page.locator("#calc-0")).to_have_text("ECoLES (1 + 3 × 2 + 0 + 1 + 1 + 1) × 2 = 20")

    page.get_by_role("button", name="Créer un lien de partage").click()
    share_url = page.locator("#share-url")
    expect(share_url).to_be_visible()
    link = share_url.input_value()
    assert link.startswith(page.url + "?etat=")

    shared = page.context.new_page()
    shared.goto(link)
    expect(shared.locator("#calc-0")).to_have_text("ECoLES (1 + 3 × 2 + 0 + 1 + 1 + 1) × 2 = 20")
    expect(shared.locator("#total")).to_have_text("20")
    expect(shared.locator("#w0")).to_have_value("écoles")
    expect(tile(shared, 1).get_by_label("Case simple")).to_be_checked()
    expect(tile(shared, 2).get_by_label("Lettre compte double")).to_be_checked()
    expect(tile(shared, 3).get_by_label("Joker (vaut 0)")).to_be_checked()
    expect(tile(shared, 6).get_by_label("Mot compte double")).to_be_checked()
    expect(shared.locator("#tiles-0 input[type=radio]:checked")).to_have_count(6)
    expect(shared.locator("#tiles-0 input[type=checkbox]:checked")).to_have_count(1)


def test_word_list_verdicts_leave_the_move_counted(page):
    page.goto("/")
    page.get_by_label(WORD_LIST_BOX).check()
    type_word(page, "ZÈBRE", tiles=5, total=16)
    expect(page.locator("#calc-0 .verdict")).to_have_text("Dans la liste")

    add_secondary_word(page, 1)
    expect(page.get_by_text(WORD_LIST_NOTE)).to_be_visible()
    type_word(page, "FAQIR", tiles=5, total=31, word=1)
    expect(page.locator("#calc-0")).to_have_text("ZEBRE 10 + 1 + 3 + 1 + 1 = 16 Dans la liste")
    expect(page.locator("#calc-1")).to_have_text("FAQIR 4 + 1 + 8 + 1 + 1 = 15 Absent de la liste")
    expect(page.get_by_label(WORD_LIST_BOX)).to_be_checked()


def test_ticking_the_word_list_box_shows_its_note(page):
    page.goto("/")
    type_word(page, "ZÈBRE", tiles=5, total=16)
    page.get_by_label(WORD_LIST_BOX).check()
    expect(page.locator("#calc-0 .verdict")).to_have_text("Dans la liste")
    # The verdict came with the response that had to bring the note: no need to wait the full timeout.
    expect(page.get_by_text(WORD_LIST_NOTE)).to_be_visible(timeout=1_000)


def test_a_square_stays_with_its_letter_when_a_letter_is_typed_in_front(page):
    """Trial of issue 10: Home then P in front of ÉCOLES moved the C's double letter onto the E."""
    count_ecoles(page)
    word = page.locator("#w0")
    word.press("Home")
    word.press_sequentially("p")
    expect(page.locator("#calc-0")).to_have_text("PECOLES (3 + 1 + 3 × 2 + 1 + 1 + 1 + 1) × 2 = 28")
    expect(page.locator("#total")).to_have_text("78")  # seven new tiles: the 50-point bonus
