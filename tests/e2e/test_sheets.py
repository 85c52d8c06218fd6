"""A classic game in Chromium: two players, moves from the counter, the end of the game and its results."""

import pytest
from playwright.sync_api import expect

from sheets import services as sheet_services
from sheets.models import Line

from .conftest import PHONE, claires_game, log_in, square, touch, type_letters

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def inscribe(page, name):
    page.get_by_role("button", name=f"Inscrire pour {name}").click()


def test_a_two_player_game_from_the_counter_to_the_results(page):
    log_in(page, "claire")
    page.goto("/parties/nouvelle/")
    page.fill("#id_name1", "Claire")
    page.fill("#id_name2", "Paul")
    page.locator("main button[type=submit]").click()
    expect(page.locator("h1")).to_contain_text("Partie du")
    game_url = page.url

    page.get_by_role("link", name="Compter sur la grille").click()
    touch(page, "H4")
    type_letters(page, "vague", total=26)
    inscribe(page, "Claire")
    expect(page.locator("#grid-result .message")).to_have_text("26 points inscrits pour Claire (H4 VAGUE).")
    touch(page, "G4")
    square(page, "G4").click()
    expect(page.locator("#board")).to_have_attribute("data-direction", "v")
    type_letters(page, "aions", total=18)
    inscribe(page, "Paul")
    expect(page.locator("#grid-result .message")).to_have_text("18 points inscrits pour Paul (4G AVIONS).")

    page.goto(game_url)
    page.get_by_role("link", name="Compter le coup").click()
    page.locator("#w0").fill("mot")
    expect(page.locator("#total")).to_have_text("4")
    inscribe(page, "Claire")
    expect(page.locator(".messages")).to_contain_text("4 points inscrits pour Claire.")

    page.goto(game_url)
    expect(page.locator("#total-0")).to_have_text("30")
    expect(page.locator("#total-1")).to_have_text("18")
    page.get_by_role("button", name="Passer").click()
    page.get_by_role("link", name="Terminer la partie").click()
    page.fill("#rack0", "EAU")
    page.fill("#rack1", "")
    page.locator("main button[type=submit]").click()
    rows = page.locator(".results tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_have_text("1Claire30-327")
    expect(rows.nth(1)).to_have_text("2Paul18+321")
    expect(page.locator("#ranking-text")).to_have_text("1. Claire : 27 (30 -3)\n2. Paul : 21 (18 +3)")


@pytest.mark.parametrize("viewport", [PHONE])
def test_another_member_cannot_open_the_game(page, browser, live_server):
    log_in(page, "claire")
    page.goto("/parties/nouvelle/")
    page.locator("main button[type=submit]").click()
    game_url = page.url
    other = browser.new_context(base_url=live_server.url, viewport=PHONE).new_page()
    log_in(other, "intrus")
    response = other.goto(game_url)
    assert response.status == 404
    expect(other.locator("h1")).to_have_text("Page introuvable")
    other.context.close()


def test_deleting_a_line_asks_first_and_annuler_keeps_it(page):
    """Trial of issue 10: the × of a sheet line deleted it at once, with no way back."""
    member = log_in(page, "claire", first_name="Claire")
    game = claires_game(member)
    sheet_services.line_record(game=game, kind=Line.Kind.PLAY, points=26)
    cautious = page.context.new_page()  # no automatic "OK" here: this user answers for himself
    questions = []

    def answer(dialog, accept):
        questions.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    cautious.once("dialog", lambda dialog: answer(dialog, accept=False))
    cautious.goto(f"/parties/{game.pk}/")
    cautious.get_by_role("button", name="Supprimer la ligne 1").click()
    expect(cautious.locator("#total-0")).to_have_text("26")
    assert game.lines.count() == 1
    cautious.once("dialog", lambda dialog: answer(dialog, accept=True))
    cautious.get_by_role("button", name="Supprimer la ligne 1").click()
    expect(cautious.locator("#total-0")).to_have_text("0")
    assert (questions, game.lines.count()) == (["Supprimer la ligne 1 de la feuille ?"] * 2, 0)


def test_importing_a_file_that_is_not_what_it_says_names_its_line(page):
    """Issue 12: a file that says UTF-8 and is not was a server error; the form now names the line, and a good
    file then goes through."""
    log_in(page, "claire")
    page.goto("/parties/importer/")
    record = b"#character-encoding UTF-8\n#player1 ann Ann\n#player2 ben Ben\n>ann: AEGUV?? 8D VAGUE +26 26\n"
    bad = record.replace(b"VAGUE +26", b"VAGU\xc9 +26")
    page.set_input_files("#id_file", files=[{"name": "partie.gcg", "mimeType": "text/plain", "buffer": bad}])
    page.locator("main button[type=submit]").click()
    expect(page.locator(".error")).to_have_text(
        "Ligne 4 : le fichier se dit en UTF-8 (#character-encoding) mais ce texte ne l'est pas."
    )
    page.set_input_files("#id_file", files=[{"name": "partie.gcg", "mimeType": "text/plain", "buffer": record}])
    page.locator("main button[type=submit]").click()
    expect(page.locator("#total-0")).to_have_text("26")
