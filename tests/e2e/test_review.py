"""Issue 15: a game seen again in the browser, replayed move by move with the buttons and the arrow keys, and a
rack typed for a move."""

import pytest
from playwright.sync_api import expect

from sheets.models import Line

from .conftest import claires_game, log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def reviewed_game(member):
    """Claire's game against Paul: VAGUE, AVIONS, a pass, SEXE; the end of the game."""
    game = claires_game(member)
    claire, paul = game.players.all()
    for player, points, move, kind in (
        (claire, 26, "H4 VAGUE", Line.Kind.PLAY),
        (paul, 18, "4G AVIONS", Line.Kind.PLAY),
        (claire, 0, "", Line.Kind.PASS),
        (paul, 13, "L4 SEXE", Line.Kind.PLAY),
    ):
        Line.objects.create(game=game, player=player, points=points, move=move, kind=kind)
    return game


def test_the_game_replayed_move_by_move_and_a_rack_typed(page):
    member = log_in(page, "claire", first_name="Claire")
    game = reviewed_game(member)
    page.goto(f"/parties/{game.pk}/")
    page.get_by_role("link", name="Revoir la partie").first.click()
    expect(page).to_have_url(f"/parties/{game.pk}/revoir/")

    position = page.locator("#step-position")
    title = page.locator(".replay-step:visible h3")
    expect(position).to_have_text("1 / 5")
    expect(title).to_contain_text("H4 VAGUE, 26 points")
    expect(page.locator(".replay-step:visible .cell.new")).to_have_count(5)
    expect(page.get_by_role("button", name="← Coup précédent")).to_be_disabled()

    page.get_by_role("button", name="Coup suivant →").click()
    expect(position).to_have_text("2 / 5")
    expect(title).to_contain_text("4G AVIONS, 18 points")
    expect(page.locator(".replay-step:visible .cell.new")).to_have_count(5)  # the V was already there
    expect(page.locator(".replay-step:visible .step-scores")).to_have_text("Claire 26Paul 18")

    page.keyboard.press("ArrowRight")
    expect(title).to_contain_text("Passe")
    page.keyboard.press("ArrowRight")
    expect(title).to_contain_text("L4 SEXE, 13 points")
    page.keyboard.press("ArrowRight")
    expect(position).to_have_text("5 / 5")
    expect(title).to_have_text("La grille à ce jour")
    expect(page.get_by_role("button", name="Coup suivant →")).to_be_disabled()
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    expect(position).to_have_text("2 / 5")

    # Paul's rack for AVIONS: refused without the tiles played, then kept; the best moves follow.
    rack = page.get_by_label("Tirage de ce coup").locator("visible=true")
    rack.fill("EEEKLMW")
    rack.press("ArrowLeft")  # the arrow keys move the caret in the box, not the replay
    expect(position).to_have_text("2 / 5")
    page.get_by_role("button", name="Enregistrer").locator("visible=true").click()
    expect(page.locator(".replay-step:visible .error")).to_have_text(
        "Ce tirage ne contient pas les jetons posés par le coup : il y manque A, I, N, O, S."
    )
    expect(position).to_have_text("2 / 5")
    rack = page.get_by_label("Tirage de ce coup").locator("visible=true")
    rack.fill("aionset")
    page.get_by_role("button", name="Enregistrer").locator("visible=true").click()
    expect(page).to_have_url(f"/parties/{game.pk}/revoir/#coup-2")
    expect(position).to_have_text("2 / 5")
    expect(page.locator(".replay-step:visible .rack")).to_have_text("AIONSET")
    expect(page.locator(".replay-step:visible .tops li")).to_have_count(5)
    expect(page.locator(".replay-step:visible .points-left")).to_contain_text("Points laissés sur la table :")
    expect(page.locator(".score-chart polyline")).to_have_count(2)
