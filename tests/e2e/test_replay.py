"""Issue 15 in Chromium: "Rejouer cette séance" from the recap of a finished session, its two moves played on the
phone against the room's tops, then the place the total would have had in the room."""

import pytest
from playwright.sync_api import expect

from duplicate.services.results import result_set
from duplicate.services.rounds import round_add
from duplicate.services.sessions import session_finish
from tests.duplicate.conftest import make_session

from .conftest import PHONE, log_in_as

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


@pytest.fixture
def viewport():
    return PHONE


def test_a_member_replays_a_finished_session_on_his_phone(page, alice, bob, lyon):
    session = make_session(alice, lyon, players=("Anne", "Bruno"))
    anne, bruno = session.players.order_by("table")
    for draw, top, scores in (("VAGUEST", "H4 VAGUE", (26, 20)), ("ST+AIONX", "4G AVIONS", (10, 18))):
        round_ = round_add(session=session, draw_text=draw, top_text=top, by=alice)
        result_set(round_=round_, player=anne, score=scores[0])
        result_set(round_=round_, player=bruno, score=scores[1])
    session_finish(session=session, by=alice)
    log_in_as(page, bob)

    page.goto(f"/duplicate/{session.pk}/recapitulatif/")
    page.get_by_role("button", name="Rejouer cette séance").click()
    expect(page.locator("#replay-of")).to_have_text(
        "Rejeu de « Mardi soir » du 24 novembre 2026 : les mêmes tirages, face aux mêmes tops."
    )
    page.get_by_role("button", name="Premier tirage").click()
    expect(page.locator(".entry-panel .draw")).to_have_text("VAGUEST")
    expect(page.locator(".countdown")).to_be_visible()  # the timer of the session's time per move
    page.get_by_label("ou mon coup").fill("H4 VAGUE")
    page.get_by_role("button", name="Jouer").click()
    expect(page.locator("#top-score")).to_have_text("26")
    page.get_by_role("button", name="Coup suivant").click()
    expect(page.locator(".entry-panel .draw")).to_have_text("ST+AIONX")
    page.get_by_label("Mon score").fill("12")
    page.get_by_role("button", name="Jouer").click()
    expect(page.locator("#against-top")).to_contain_text("12")
    page.get_by_role("button", name="Terminer et voir ma place").click()
    expect(page.locator("#replay-standing")).to_contain_text("Votre total : 38 sur 44 (86,4 % des tops).")
    expect(page.locator("#replay-standing")).to_contain_text(
        "Dans la salle, vous auriez été 1er ex aequo sur 3 joueurs (vainqueur : 38)."  # Bruno's 20 + 18
    )
