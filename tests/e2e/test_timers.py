"""The move timers of the site's pages (static/js/timer.js): a member's classic game counts down from its setting once
started, rings and vibrates once at zero and is reset; a duplicate session's countdown counts to the deadline the
server set, rings once when it passes, and never for a deadline already past when the page is drawn. (The sheet
kept in the browser has its own, in test_browser_sheet_duplicate.py.)"""

import datetime
import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from duplicate.services.rounds import round_add

from .conftest import RINGING, claires_game, club_session, log_in, log_in_as

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

VIBRATION = [300, 150, 300]


def test_a_games_timer_counts_down_rings_once_and_resets(page, no_script_error):
    member = log_in(page, "claire", first_name="Claire")
    game = claires_game(member, timer_seconds=60)
    page.add_init_script(RINGING)
    page.clock.install()
    page.goto(f"/parties/{game.pk}/")
    timer = page.locator(".timer")
    expect(timer.locator(".timer-display")).to_have_text("1:00")

    timer.get_by_role("button", name="Lancer le chrono").click()
    expect(timer.get_by_role("button", name="Relancer le chrono")).to_be_visible()
    expect(timer).to_contain_class("running")
    page.clock.run_for(30_000)
    expect(timer.locator(".timer-display")).to_have_text("0:30")
    assert page.evaluate("window.rang") == []
    page.clock.run_for(30_000)
    expect(timer.locator(".timer-display")).to_have_text("0:00")
    expect(timer).to_contain_class("expired")
    assert page.evaluate("window.rang") == ["beep", VIBRATION]
    page.clock.run_for(10_000)
    assert page.evaluate("window.rang") == ["beep", VIBRATION]  # once

    timer.get_by_role("button", name="Remettre à zéro").click()
    expect(timer.locator(".timer-display")).to_have_text("1:00")
    expect(timer).not_to_contain_class("expired")
    expect(timer.get_by_role("button", name="Lancer le chrono")).to_be_visible()
    expect(timer.get_by_role("button", name="Remettre à zéro")).to_be_disabled()


def started(session, seconds_left):
    """The session's timer as if started so long ago that `seconds_left` remain (none or fewer: already over)."""
    session.timer_started_at = timezone.now() - datetime.timedelta(seconds=session.move_seconds - seconds_left)
    session.save(update_fields=["timer_started_at"])


def test_a_sessions_countdown_rings_once_at_the_servers_deadline(page, no_script_error, alice, lyon):
    session = club_session(log_in_as(page, alice), lyon)
    round_add(session=session, draw_text="VAGUEST")
    started(session, 6)
    page.add_init_script(RINGING)
    page.goto(f"/duplicate/{session.pk}/")
    countdown = page.locator(".timer-line .countdown")
    expect(countdown).to_have_text(re.compile(r"^0:0[1-6]$"))
    assert page.evaluate("window.rang") == []
    expect(countdown).to_have_text("0:00", timeout=10_000)
    expect(countdown).to_contain_class("expired")
    assert page.evaluate("window.rang") == ["beep", VIBRATION]


def test_a_deadline_already_past_when_the_page_is_drawn_never_rings(page, no_script_error, alice, lyon):
    session = club_session(log_in_as(page, alice), lyon)
    round_add(session=session, draw_text="VAGUEST")
    started(session, -10)
    page.add_init_script(RINGING)
    page.goto(f"/duplicate/{session.pk}/")
    countdown = page.locator(".timer-line .countdown")
    expect(countdown).to_have_text("0:00")
    expect(countdown).to_contain_class("expired")
    assert page.evaluate("window.rang") == []
