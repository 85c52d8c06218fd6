"""A player's recap in the browser (issue 15): from his list of sessions to the game replayed move by move, with
the buttons and the arrow keys, the top laid on each move's grid and his own move beside it."""

import re

import pytest
from playwright.sync_api import expect

from tests.duplicate.conftest import play_the_evening

from .conftest import PHONE, log_in_as

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def bobs_evening(page, alice, bob, lyon):
    """Alice runs the Club de Lyon's session; Bob, logged in, played it at table 1."""
    log_in_as(page, bob)
    return play_the_evening(alice, lyon, linked="bob")


def shown(page):
    return page.locator(".replay-move:not([hidden])")


def top_square(page, name):
    return shown(page).locator(f'.replay-board:not(.own) [data-square="{name}"]')


def own_square(page, name):
    return shown(page).locator(f'.replay-board.own [data-square="{name}"]')


@pytest.mark.parametrize("viewport", [PHONE], ids=["phone"])
def test_a_player_replays_his_session_move_by_move(page, alice, bob, lyon):
    session, bobs_seat, _paul = bobs_evening(page, alice, bob, lyon)
    page.goto("/duplicate/")
    page.get_by_role("link", name="mes coups et la partie rejouée").click()
    expect(page).to_have_url(f"/duplicate/{session.pk}/joueurs/{bobs_seat.pk}/recapitulatif/")
    expect(page.locator("#recap-place")).to_have_text("2")
    expect(page.locator("#recap-total")).to_have_text("75")
    status = page.locator("#replay-status")
    previous = page.get_by_role("button", name="Coup précédent")
    following = page.get_by_role("button", name="Coup suivant")

    # Move 1: the top VAGUE from H4 on an empty board, his VAGUE from H8 beside it.
    expect(status).to_have_text("Coup 1 sur 4")
    expect(previous).to_be_disabled()
    expect(shown(page)).to_have_count(1)
    expect(top_square(page, "H4")).to_have_text("V")
    expect(top_square(page, "H4")).to_contain_class("new")
    expect(own_square(page, "H8")).to_have_text("V")
    expect(own_square(page, "H8")).to_contain_class("new")
    expect(own_square(page, "H4")).to_have_text("")

    # "Coup suivant": AVIONS laid through the V of VAGUE, now on the board; he played the top, shown once.
    following.click()
    expect(status).to_have_text("Coup 2 sur 4")
    expect(top_square(page, "G4")).to_have_text("A")
    expect(top_square(page, "G4")).to_contain_class("new")
    expect(top_square(page, "H4")).to_contain_class("placed")
    expect(shown(page).locator(".replay-board.own")).to_have_count(0)
    expect(shown(page)).to_contain_text("le top (18)")
    expect(shown(page).locator(".replay-bag")).to_contain_text("Reliquat : TX")

    # The arrow keys: move 3 (a score alone), then move 4 and his HUE beside SOUHAITE; no move after the last.
    page.keyboard.press("ArrowRight")
    expect(status).to_have_text("Coup 3 sur 4")
    expect(shown(page)).to_contain_text("13 points (score seul, sans le coup)")
    page.keyboard.press("ArrowRight")
    expect(status).to_have_text("Coup 4 sur 4")
    expect(following).to_be_disabled()
    expect(top_square(page, "J3")).to_have_text("S")
    expect(own_square(page, "M6")).to_have_text("H")
    expect(own_square(page, "J3")).to_have_text("")
    page.keyboard.press("ArrowRight")
    expect(status).to_have_text("Coup 4 sur 4")

    page.keyboard.press("ArrowLeft")
    expect(status).to_have_text("Coup 3 sur 4")
    previous.click()
    expect(status).to_have_text("Coup 2 sur 4")
    expect(page).to_have_url(re.compile(r"\?coup=2"))
    expect(page.locator('#recap-table tr[data-number="2"]')).to_contain_class("current")

    # A move's number in the table opens it in the replay; the address keeps it for a reload.
    page.locator('#recap-table a[data-replay-goto="4"]').click()
    expect(status).to_have_text("Coup 4 sur 4")
    page.reload()
    expect(status).to_have_text("Coup 4 sur 4")
    expect(top_square(page, "J3")).to_have_text("S")


def test_the_chart_and_the_organisers_links(page, alice, lyon):
    """The organiser reaches every player's recap from the session's ranking; the chart has its three lines."""
    log_in_as(page, alice)
    session, _bob, paul = play_the_evening(alice, lyon, linked="bob")
    page.goto(f"/duplicate/{session.pk}/recapitulatif/")
    page.locator(".recap-scores").get_by_role("link", name="Paul").click()
    expect(page.locator("h1")).to_have_text("Paul")
    expect(page.locator("#recap-place")).to_have_text("1")
    expect(page.locator(".percent-chart polyline")).to_have_count(3)
    expect(page.locator(".chart-legend li")).to_have_text(
        ["Paul : 103,1 %", re.compile(r"Moyenne de la salle : \d+,\d %"), "Vainqueur : Paul : 103,1 %"]
    )
    expect(page).to_have_url(f"/duplicate/{session.pk}/joueurs/{paul.pk}/recapitulatif/")
