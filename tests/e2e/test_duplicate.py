"""A duplicate session in Chromium: an organiser runs three moves for three players, one of whom enters his own
score on a phone, and the ranking page shows the places."""

import datetime

import pytest
from playwright.sync_api import expect

from duplicate.models import Session

from .conftest import PHONE, club_session, log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def test_organiser_runs_three_moves_and_a_player_enters_his_score_on_his_phone(page, browser, live_server):
    organiser = log_in(page, "arbitre")
    session = club_session(organiser)
    anne, bruno, chloe = session.players.all()
    page.goto(f"/duplicate/{session.pk}/")

    phone = browser.new_context(base_url=live_server.url, viewport=PHONE).new_page()
    moves = [
        ("VAGUEST", "H4 VAGUE", "26", {"Anne": "26", "Chloé": "20"}),
        ("ST+AIONX", "4G AVIONS", "18", {"Anne": "10", "Chloé": "18"}),
        ("TX+EEMNR", "M4 EX", "21", {}),  # EX 11 + AVIONSE 10
    ]
    for number, (draw, top, top_score, scores) in enumerate(moves, start=1):
        page.fill("#draw", draw)
        page.get_by_role("button", name="Saisir ce tirage").click()
        page.fill("#top", top)
        page.get_by_role("button", name="Placer le top").click()
        expect(page.locator("#top-score")).to_have_text(top_score)
        for name, score in scores.items():
            row = page.locator("tr", has_text=name)
            row.locator("input[name=score]").fill(score)
            row.locator("input[name=score]").press("Enter")
            expect(page.locator("tr", has_text=name).locator("input[name=score]")).to_have_value(score)
        phone.goto(f"/duplicate/joueur/{bruno.key}/")
        phone.fill("#score", "15")
        phone.get_by_role("button", name="Envoyer").click()
        expect(phone.locator("#my-total")).to_have_text(str(15 * number))

    page.get_by_role("link", name="Classement (projecteur)").click()
    rows = page.locator("table.ranking tbody tr")
    expect(rows).to_have_count(3)
    # Bruno 15 + 15 + 15, Chloé 20 + 18, Anne 26 + 10 (no bulletin on move 3).
    expect(rows.nth(0)).to_contain_text("Bruno")
    expect(rows.nth(0).locator("td").nth(2)).to_have_text("45")
    expect(rows.nth(1)).to_contain_text("Chloé")
    expect(rows.nth(1).locator("td").nth(2)).to_have_text("38")
    expect(rows.nth(2)).to_contain_text("Anne")
    expect(rows.nth(2).locator("td").nth(2)).to_have_text("36")
    expect(page.locator("#live-ranking .meta")).to_contain_text("total des tops 65")
    phone.context.close()


def test_the_new_session_form_is_sent_as_the_organiser_fills_it(page):
    """Issue 10: the date box holds today's date (ISO, or the browser shows it empty and refuses the form); a
    refused player line is said on the form and leaves no session behind (issue 9)."""
    organiser = log_in(page, "arbitre")
    page.goto("/duplicate/nouvelle/")
    expect(page.locator("#id_date")).to_have_value(datetime.date.today().isoformat())
    page.fill("#id_name", "Mardi soir")
    page.fill("#id_players", "1;Anne\n1;Bruno")
    page.get_by_role("button", name="Créer la séance").click()
    expect(page.locator(".error").first).to_contain_text("La table 1 est déjà prise.")
    assert Session.objects.count() == 0
    page.fill("#id_players", "1;Anne\n2;Bruno")
    page.get_by_role("button", name="Créer la séance").click()
    session = Session.objects.get(creator=organiser)
    expect(page).to_have_url(f"/duplicate/{session.pk}/")
    assert (session.date, session.players.count()) == (datetime.date.today(), 2)
