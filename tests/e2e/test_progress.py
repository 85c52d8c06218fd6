"""A member's progress page in the browser (issue 15): from his account page to his numbers, then the filters."""

import datetime

import pytest
from playwright.sync_api import expect

from tests.duplicate.conftest import play_the_evening
from tests.duplicate.test_progress import bobs_session
from tests.sheets.test_progress import finished

from .conftest import PHONE, log_in_as

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def bobs_numbers(page, alice, bob, lyon):
    """Bob, logged in: the Lyon evening (58.6 %), every top in Lyon on 1 December (100 %), his own session of
    10 January (82.8 %), a classic game lost to Alice (27 against 43) and one won (50 + E = 51 against 48 − E = 47)."""
    log_in_as(page, bob)
    play_the_evening(alice, lyon, linked="bob")
    bobs_session(alice, lyon, ["H4 VAGUE", 18, "L4 SEXE", "J3 SOUHAITE"], date=datetime.date(2026, 12, 1))
    bobs_session(bob, None, [20, 10, 5, 71], date=datetime.date(2027, 1, 10), name="Chez moi")
    finished(alice, ("Alice", "Bob"), [alice, bob], [40, 30], {0: "", 1: "EAU"})
    finished(bob, ("Bob", "Paul"), [bob, None], [50, 48], {0: "", 1: "E"})
    return bob


@pytest.mark.parametrize("viewport", [PHONE], ids=["phone"])
def test_a_member_reads_his_progress_and_filters_it(page, alice, bob, lyon):
    bobs_numbers(page, alice, bob, lyon)
    page.goto("/compte/")
    page.get_by_role("link", name="Ma progression").click()
    expect(page).to_have_url("/compte/progres/")
    expect(page.locator("#progress-sessions")).to_have_text("3")
    expect(page.locator("#progress-average")).to_have_text("80,5")
    expect(page.locator("#progress-scrabbles")).to_have_text("2 / 3")
    expect(page.locator(".progress-svg .progress-dot")).to_have_count(3)
    expect(page.locator("#progress-won")).to_have_text("1")
    expect(page.locator("#progress-lost")).to_have_text("1")
    expect(page.locator("#progress-score")).to_have_text("39,0")  # (27 + 51) / 2

    # The Club de Lyon in November: the evening alone.
    page.get_by_label("Club", exact=True).select_option(label="Club de Lyon")
    page.get_by_label("Du", exact=True).fill("2026-11-01")
    page.get_by_label("Au", exact=True).fill("2026-11-30")
    page.get_by_role("button", name="Filtrer").click()
    expect(page).to_have_url("/compte/progres/?club=lyon&du=2026-11-01&au=2026-11-30")
    expect(page.locator("#progress-sessions")).to_have_text("1")
    expect(page.locator("#progress-average")).to_have_text("58,6")
    expect(page.locator("#progress-scope")).to_contain_text("Club de Lyon")
    expect(page.get_by_text("le filtre par club ne s'y applique pas")).to_be_visible()

    # A period that ends before it starts: said on its field, nothing counted.
    page.get_by_label("Du", exact=True).fill("2026-12-31")
    page.get_by_role("button", name="Filtrer").click()
    expect(page.locator("#id_au_error")).to_have_text("La fin de la période précède son début.")
    expect(page.locator("#progress-sessions")).to_have_count(0)

    page.get_by_role("link", name="Tout afficher").click()
    expect(page).to_have_url("/compte/progres/")
    expect(page.locator("#progress-sessions")).to_have_text("3")
