"""The help pages in the browser (issue 25): a worked example of the points guide touched on a phone opens in the
counter with the example's score; the guide printed keeps its examples without the menus; a screen of each page
on a phone and a desktop for docs/screenshots/."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP, PHONE, tile

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def shoot(page, name):
    page.screenshot(path=SCREENSHOTS / name, animations="disabled", caret="hide")


@pytest.mark.parametrize("viewport", [PHONE], ids=["phone"])
def test_a_touched_example_opens_in_the_counter(page):
    """ZÈBRE with a blank B on a double word: 26 on the guide, 26 in the counter, the B a blank on its pink square."""
    page.goto("/aide/points/")
    example = page.locator("#exemple-zebre-joker")
    expect(example.locator(".example-total")).to_have_text("Total : 26 points")
    example.get_by_role("link", name="Ouvrir « ZEbRE » dans le compteur").tap()
    expect(page).to_have_url(re.compile(r"/\?etat="))
    expect(page.locator("#total")).to_have_text("26")
    expect(page.locator("#calc-0")).to_have_text("ZEbRE (10 + 1 + 0 + 1 + 1) × 2 = 26")
    expect(tile(page, 3).get_by_label("Joker (vaut 0)")).to_be_checked()
    expect(tile(page, 3).get_by_label("Mot compte double")).to_be_checked()


def test_the_counters_help_link_leads_to_the_guide(page):
    page.goto("/")
    page.get_by_role("link", name="Aide : comprendre les points").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Comprendre les points")
    page.get_by_role("navigation", name="Pages d’aide").get_by_role("link", name="Questions fréquentes").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Feuille de marque : questions fréquentes")


def test_a_printed_guide_keeps_the_examples_without_menus(page):
    page.goto("/aide/points/")
    page.emulate_media(media="print")
    for hidden in (".site-header", ".help-nav", ".help-toc", ".example-link"):
        expect(page.locator(hidden).first).to_be_hidden()
    expect(page.locator("#exemple-ecoles .example-calc")).to_be_visible()
    expect(page.locator("#exemple-ecoles .example-total")).to_have_text("Total : 22 points")


@pytest.mark.parametrize(("device", "viewport"), [("phone", PHONE), ("desktop", DESKTOP)], ids=["phone", "desktop"])
def test_help_screenshots(page, device):
    """A screen of each page, where its content starts: the guide at its first examples, the letters at the French
    table."""
    for path, start, name in (
        ("/aide/points/", "#somme", "points"),
        ("/aide/feuille/", "h1", "sheet"),
        ("/aide/lettres/", "#fr", "letters"),
    ):
        page.goto(path)
        page.evaluate("(selector) => document.querySelector(selector).scrollIntoView()", start)
        shoot(page, f"help-{name}-{device}.png")
