"""Issue 12 in Chromium: a rack the set cannot give, and a visitor past his rate of searches, are told why in
French where the list would be, on the grid ("Meilleurs coups") and in the word finder ("Chercher")."""

import pytest
from playwright.sync_api import expect

from .conftest import place_vague

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def test_a_rack_of_three_blanks_is_refused_with_its_reason(page):
    place_vague(page)
    page.locator("#rack").fill("EHL???")
    page.get_by_role("button", name="Meilleurs coups").click()
    expect(page.locator(".best-moves .error")).to_have_text("Le tirage compte 3 « ? » : le jeu n'en a que 2.")


def test_past_the_rate_meilleurs_coups_and_chercher_say_why(page, settings):
    settings.NINJA_DEFAULT_THROTTLE_RATES = {**settings.NINJA_DEFAULT_THROTTLE_RATES, "visitor_search": "1/min"}
    place_vague(page)
    page.locator("#rack").fill("EHLA?NI")
    page.get_by_role("button", name="Meilleurs coups").click()
    expect(page.locator(".best-moves button").first).to_contain_text("5E HALAIENt")
    page.get_by_role("button", name="Meilleurs coups").click()
    expect(page.locator(".best-moves .error")).to_contain_text("Trop de demandes en peu de temps : réessayez dans")
    expect(page.locator(".best-moves button")).to_have_count(0)
    page.goto("/mots/")
    page.locator("#letters").fill("KIWI")
    page.get_by_role("button", name="Chercher").click()
    expect(page.locator("p.error")).to_contain_text("Trop de demandes en peu de temps : réessayez dans")
    expect(page.locator("#letters")).to_have_value("KIWI")
