"""The score sheet's corrections of issue 10, pressed in Chromium as a member does: unnamed players, a move
counted in typed mode leaving the tile tracking, an exchange read as one, remaining letters checked, results
best first, a new game with the same players, and a finished game through GCG and back."""

import pytest
from playwright.sync_api import expect

from sheets.models import Game

from .conftest import claires_game, log_in, touch, type_letters

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def remaining(page, letter):
    return page.locator(".remaining", has=page.locator(f"b:text-is('{letter}')"))


def test_three_unnamed_players_from_the_counter_to_a_new_game(page):
    log_in(page, "claire")
    page.goto("/parties/nouvelle/")
    page.select_option("#id_player_count", "3")
    page.locator("main button[type=submit]").click()
    expect(page.locator(".score-card .name")).to_have_text(["Joueur 1", "Joueur 2", "Joueur 3"])
    game_url = page.url

    page.get_by_role("link", name="Compter le coup").click()
    page.wait_for_load_state()  # htmx listens once the page has loaded: typing before would send nothing
    page.locator("#w0").fill("kiwi")
    expect(page.locator("#total")).to_have_text("22")
    page.get_by_role("button", name="Inscrire pour Joueur 1").click()
    expect(page.locator(".messages")).to_contain_text("22 points inscrits pour Joueur 1.")
    page.goto(game_url)
    expect(remaining(page, "K")).to_have_text("K 0")
    expect(remaining(page, "W")).to_have_text("W 0")
    expect(remaining(page, "I")).to_have_text("I 6")

    page.get_by_role("button", name="Changer").click()
    expect(page.locator(".lines tbody tr").nth(1)).to_contain_text("Échange")
    page.fill("#points", "40")
    page.get_by_role("button", name="Inscrire pour Joueur 3").click()
    expect(page.locator("#total-2")).to_have_text("40")

    page.get_by_role("link", name="Terminer la partie").click()
    page.fill("#rack0", "")
    page.fill("#rack1", "ZZ")
    page.fill("#rack2", "A")
    page.get_by_role("button", name="Calculer le résultat").click()
    expect(page.locator("main .error")).to_have_text("Joueur 2 : 2 × Z, mais il n'en reste que 1 hors de la grille.")
    expect(page.locator("#rack1")).to_have_value("ZZ")
    page.fill("#rack1", "Z")
    page.get_by_role("button", name="Calculer le résultat").click()
    rows = page.locator(".final-results tbody tr")
    expect(rows).to_have_count(3)
    # Joueur 1 went out: +10 +1; Joueur 3 keeps A, Joueur 2 Z.
    expect(rows.nth(0)).to_have_text("1Joueur 340-139")
    expect(rows.nth(1)).to_have_text("2Joueur 122+1133")
    expect(rows.nth(2)).to_have_text("3Joueur 20-10-10")

    page.get_by_role("button", name="Nouvelle partie avec les mêmes joueurs").click()
    expect(page.locator(".messages")).to_contain_text("Nouvelle partie avec les mêmes joueurs.")
    expect(page.locator(".score-card .total")).to_have_text(["0", "0", "0"])
    assert page.url != game_url


def test_a_finished_game_exported_and_imported_comes_back_finished(page, tmp_path):
    member = log_in(page, "claire", first_name="Claire")
    game = claires_game(member)
    page.goto(f"/parties/{game.pk}/grille/")
    touch(page, "H4")
    type_letters(page, "vague", total=26)
    page.get_by_role("button", name="Inscrire pour Claire").click()
    expect(page.locator("#grid-result .message")).to_contain_text("26 points inscrits pour Claire")
    page.goto(f"/parties/{game.pk}/terminer/")
    page.fill("#rack0", "")
    page.fill("#rack1", "EAU")
    page.get_by_role("button", name="Calculer le résultat").click()
    expect(page.locator("#ranking-text")).to_have_text("1. Claire : 29 (26 +3)\n2. Paul : -3 (0 -3)")

    with page.expect_download() as download:
        page.get_by_role("link", name="Exporter en GCG").click()
    record = tmp_path / "partie.gcg"
    download.value.save_as(record)

    page.goto("/parties/importer/")
    page.set_input_files("#id_file", str(record))
    page.select_option("#id_rule_set", label="Règles de la boîte")  # the file's own rules must win
    page.get_by_role("button", name="Importer").click()
    expect(page.locator("h1")).to_contain_text("Partie du")
    expect(page.locator("main .meta")).to_have_text("Français · Règles de tournoi (FISF) · Terminée · Revoir la partie")
    expect(page.locator("#ranking-text")).to_have_text("1. Claire : 29 (26 +3)\n2. Paul : -3 (0 -3)")
    expect(page.get_by_text("À Paul de jouer")).to_have_count(0)
    assert Game.objects.filter(owner=member).count() == 2


def test_the_new_game_form_shows_the_seats_of_the_chosen_number_of_players(page):
    """Trial of issue 10: a name typed in the third seat made a third player although 2 were chosen."""
    member = log_in(page, "claire")
    page.goto("/parties/nouvelle/")
    expect(page.locator(".player-row:visible")).to_have_count(2)
    page.select_option("#id_player_count", "4")
    expect(page.locator(".player-row:visible")).to_have_count(4)
    page.fill("#id_name3", "Chloé")
    page.select_option("#id_player_count", "2")
    page.locator("main button[type=submit]").click()
    expect(page.locator(".score-card .name")).to_have_text(["Joueur 1", "Joueur 2"])
    assert [p.display_name for p in member.games.get().players.all()] == ["Joueur 1", "Joueur 2"]
