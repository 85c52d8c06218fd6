"""The counter in the visitor's browser (issue 25): a print keeps the calculation."""

import pytest
from playwright.sync_api import expect

from .conftest import add_secondary_word, count_ecoles, place_vague, square, touch, type_letters, type_word

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


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

    page.emulate_media(media="screen")
    place_vague(page)
    page.emulate_media(media="print")
    touch(page, "G4")
    square(page, "G4").click()
    type_letters(page, "aions", total=18)
    expect(page.locator("#grid-result .words li")).to_be_visible()
    expect(page.locator("#grid-result .total")).to_be_visible()
    expect(page.locator("#letters")).to_be_hidden()
