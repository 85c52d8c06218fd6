"""No action fails silently (issue 10): every button of the counter, the grid and the score sheet, pressed in the
browser as a user presses it, changes what the page says or shows a French message.

Each button is pressed on a page brought back to the same state, so that one button's effect never hides
another's. A button that changes nothing visible and shows no message fails the test, named by its label.
"""

import pytest
from playwright.sync_api import expect

from sheets import services as sheet_services
from sheets.models import Line

from .conftest import claires_game, htmx_settled, log_in, place_vague, square, touch, type_letters, type_word

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

MESSAGES = ".error, .message, .messages li, .warning, [role=alert], [role=status]"
# Buttons that only open or close a part of the page, or copy text: their effect is a change of what is shown.
BUTTONS = "main button:visible:enabled, main summary:visible"


def _label(button) -> str:
    return " ".join((button.inner_text() or button.get_attribute("aria-label") or "?").split())


def _snapshot(page) -> tuple[str, str]:
    """What the visitor sees: the main region's text, and its form fields' values."""
    values = page.evaluate(
        "[...document.querySelectorAll('main input, main select, main textarea')]"
        ".map(f => f.type === 'checkbox' || f.type === 'radio' ? f.checked : f.value).join('|')"
    )
    return page.locator("main").inner_text(), values


def press_every_button(page, prepare) -> list[str]:
    """Press each button of the page `prepare(page)` leaves; returns the labels of those that did nothing."""
    prepare(page)
    labels = [_label(button) for button in page.locator(BUTTONS).all()]
    assert labels, "no button found"
    silent = []
    for index, label in enumerate(labels):
        prepare(page)
        button = page.locator(BUTTONS).nth(index)
        before = _snapshot(page)
        button.click()
        page.wait_for_load_state()
        htmx_settled(page)
        page.wait_for_timeout(150)  # a copy button's "Copié" or a panel's opening
        if _snapshot(page) == before and not page.locator(MESSAGES).filter(visible=True).count():
            silent.append(label)
    return silent


def test_every_button_of_the_typed_counter(page):
    def prepare(page):
        page.goto("/")
        type_word(page, "écoles", tiles=6, total=8)

    assert press_every_button(page, prepare) == []


def test_every_button_of_the_grid(page):
    def prepare(page):
        page.context.clear_cookies()
        place_vague(page)
        touch(page, "G4")
        square(page, "G4").click()
        type_letters(page, "aions", total=18)
        page.locator("#rack").fill("EHLA?NI")

    assert press_every_button(page, prepare) == []


def test_every_button_of_a_members_score_sheet(page):
    member = log_in(page, "claire", first_name="Claire")
    game = claires_game(member, timer_seconds=60)

    def prepare(page):
        game.lines.all().delete()
        sheet_services.line_record(game=game, kind=Line.Kind.PLAY, points=26, move="H4 VAGUE")
        sheet_services.line_record(game=game, kind=Line.Kind.PLAY, points=12)
        page.goto(f"/parties/{game.pk}/")
        expect(page.locator("#total-0")).to_have_text("26")

    assert press_every_button(page, prepare) == []

    def prepare_finish(page):
        game.lines.all().delete()
        sheet_services.line_record(game=game, kind=Line.Kind.PLAY, points=26, move="H4 VAGUE")
        page.goto(f"/parties/{game.pk}/terminer/")

    assert press_every_button(page, prepare_finish) == []


def test_every_button_of_a_games_counter_and_grid(page):
    member = log_in(page, "claire", first_name="Claire")
    game = claires_game(member)

    def prepare_counter(page):
        game.lines.all().delete()
        page.goto(f"/parties/{game.pk}/compter/")
        type_word(page, "écoles", tiles=6, total=8)

    assert press_every_button(page, prepare_counter) == []

    def prepare_grid(page):
        game.lines.all().delete()
        sheet_services.line_record(game=game, kind=Line.Kind.PLAY, points=26, move="H4 VAGUE")
        page.goto(f"/parties/{game.pk}/grille/")
        touch(page, "G4")
        square(page, "G4").click()
        type_letters(page, "aions", total=18)

    assert press_every_button(page, prepare_grid) == []
