"""The arbiter's console after a user trial: "Terminer la séance" counts the bulletins missing at the click, not
when the page was drawn, and on a phone "Tirer" leaves the draw and the timer in sight."""

import pytest
from playwright.sync_api import expect

from duplicate.services.rounds import round_add

from .conftest import PHONE, club_session, log_in_as

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def test_ending_the_session_counts_the_bulletins_missing_at_the_click(page, alice, lyon):
    organiser = log_in_as(page, alice)
    session = club_session(organiser, lyon)
    round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    cautious = page.context.new_page()  # no automatic "OK" here: this arbiter answers "Annuler"
    asked = []

    def answer(dialog):
        asked.append(dialog.message)
        dialog.dismiss()

    cautious.on("dialog", answer)
    cautious.goto(f"/duplicate/{session.pk}/")
    finish = cautious.get_by_role("button", name="Terminer la séance")
    finish.click()
    cautious.locator("#bulletin-table").focus()
    cautious.keyboard.type("1\n20\n2\n18\n")
    expect(cautious.locator("#bulletin-count")).to_contain_text("2/3 bulletins")
    finish.click()
    cautious.locator("#bulletin-table").focus()
    cautious.keyboard.type("3\n10\n")
    expect(cautious.locator("#bulletin-count")).to_have_text("3/3 bulletins")
    finish.click()
    question = "Terminer la séance ? Les joueurs ne pourront plus saisir leurs scores."
    assert asked == [
        f"{question} 3 bulletins manquent encore au coup 1.",
        f"{question} 1 bulletin manque encore au coup 1.",
        question,
    ]
    session.refresh_from_db()
    assert (session.rounds.get().results.count(), session.finished_at) == (3, None)  # "Annuler" each time


@pytest.mark.parametrize(("viewport", "focused"), [(PHONE, False), ({"width": 1280, "height": 800}, True)])
def test_the_draw_and_the_timer_stay_in_sight_on_a_phone(page, viewport, focused, alice, lyon):
    organiser = log_in_as(page, alice)
    session = club_session(organiser, lyon, players=[f"Joueur {n}" for n in range(1, 21)])
    page.goto(f"/duplicate/{session.pk}/")
    page.get_by_role("button", name="Tirer (serveur, règles FISF)").click()
    expect(page.locator(".timer-line .countdown")).to_be_visible()
    if focused:
        expect(page.locator("#bulletin-table")).to_be_focused()
    else:
        expect(page.locator("#bulletin-table")).not_to_be_focused()
        expect(page.locator("#duplicate-move h2")).to_be_in_viewport()
        expect(page.locator(".timer-line")).to_be_in_viewport()
