"""Grid mode at /grille/ in Chromium: touching squares, typing letters, blanks, and the board kept in the session."""

import pytest
from playwright.sync_api import expect

from .conftest import PHONE, count_avions, place, place_vague, square, touch, type_letters

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def test_vague_then_avions_through_its_v_and_a_blank_s(page):
    page.goto("/grille/")
    touch(page, "H4")
    expect(page.locator("#start")).to_have_value("H4")
    type_letters(page, "vague", total=26)
    expect(page.locator("#grid-result .notation")).to_have_text("H4 VAGUE")
    expect(page.locator("#grid-result .words li")).to_have_text("VAGUE (4 × 2 + 1 + 2 + 1 + 1) × 2 = 26")
    expect(square(page, "H8")).to_contain_class("new")

    place(page, "H4 VAGUE")
    expect(square(page, "H4")).to_contain_class("placed")
    expect(page.locator("#letters")).to_have_value("")
    expect(page.get_by_role("button", name="Retirer le dernier coup")).to_be_visible()

    count_avions(page)
    expect(page.locator("#grid-result .notation")).to_have_text("4G AVIONS")
    expect(page.locator("#grid-result .words li")).to_have_text("AVIONS (1 + 4 + 1 + 1 + 1 + 1) × 2 = 18")

    square(page, "L4").click()
    expect(page.locator("#grid-result #total")).to_have_text("16")
    expect(page.locator("#grid-result .notation")).to_have_text("4G AVIONs")
    expect(page.locator("#grid-result .words li")).to_have_text("AVIONs (1 + 4 + 1 + 1 + 1 + 0) × 2 = 16")
    expect(square(page, "L4").locator(".t")).to_have_class("t blank")


@pytest.mark.parametrize(
    ("start", "letters", "message"),
    [
        ("A1", "zoo", "Le premier coup doit couvrir la case centrale H8 avec au moins deux lettres."),
        # Issue 10: this refusal asked which letters were on the board; the grid knows.
        ("H4", "abcdefgh", "Ce coup poserait 8 jetons nouveaux : un chevalet n'en porte que 7."),
    ],
)
def test_a_refused_move_says_why_and_counts_nothing(page, start, letters, message):
    page.goto("/grille/")
    touch(page, start)
    page.locator("#letters").press_sequentially(letters)
    expect(page.locator("#grid-result .error")).to_have_text(message)
    expect(page.locator("#grid-result #total")).to_have_count(0)
    expect(page.locator("#board .new")).to_have_count(len(letters))


def test_the_board_survives_a_reload_and_shows_in_a_second_page(page):
    place_vague(page)
    vague = {"H4": "V", "H5": "A", "H6": "G", "H7": "U", "H8": "E"}

    page.reload()
    for name, letter in vague.items():
        expect(square(page, name)).to_have_text(letter)
    expect(page.locator("#board .placed")).to_have_count(5)
    expect(page.get_by_text("97 jetons hors de la grille")).to_be_visible()

    second = page.context.new_page()
    second.goto("/grille/")
    for name, letter in vague.items():
        expect(square(second, name)).to_have_text(letter)
    expect(second.locator("#board .placed")).to_have_count(5)


def test_undo_and_clear_empty_the_board(page):
    place_vague(page)
    count_avions(page)
    place(page, "4G AVIONS")
    expect(page.locator("#board .placed")).to_have_count(10)

    page.get_by_role("button", name="Retirer le dernier coup").click()
    expect(page.locator("#board .placed")).to_have_count(5)
    expect(square(page, "G4")).to_have_text("")
    page.get_by_role("button", name="Vider la grille").click()
    expect(page.locator("#board .placed")).to_have_count(0)
    expect(page.get_by_text("102 jetons hors de la grille")).to_be_visible()
    page.reload()
    expect(page.locator("#board .placed")).to_have_count(0)


def test_the_keyboard_moves_the_start_and_lays_letters_on_the_board(page):
    page.goto("/grille/")
    page.locator("#board").focus()
    for _ in range(4):
        page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowDown")
    expect(page.locator("#start")).to_have_value("H4")
    expect(square(page, "H4")).to_contain_class("start")

    page.keyboard.type("vaguez")
    expect(page.locator("#letters")).to_have_value("VAGUEZ")
    expect(page.locator("#board .new")).to_have_count(6)
    expect(square(page, "H9")).to_have_text("Z")
    page.keyboard.press("Backspace")
    expect(page.locator("#grid-result #total")).to_have_text("26")
    expect(page.locator("#board .new")).to_have_count(5)
    for name, letter in {"H4": "V", "H5": "A", "H6": "G", "H7": "U", "H8": "E"}.items():
        expect(square(page, name)).to_have_text(letter)
    expect(page.locator("#board")).to_be_focused()

    page.keyboard.press(" ")
    expect(page.locator("#board")).to_have_attribute("data-direction", "v")
    expect(square(page, "L4")).to_have_text("E")
    expect(page.locator("#grid-result .error")).to_have_text(
        "Le premier coup doit couvrir la case centrale H8 avec au moins deux lettres."
    )


def test_a_joker_marked_on_an_abandoned_word_does_not_follow_the_square(page):
    """Issue 10: MOT from H8 with its M a joker, then VAGUE from H4 counts 26, not 10."""
    page.goto("/grille/")
    touch(page, "H8")
    type_letters(page, "mot", total=8)
    square(page, "H8").click()
    expect(page.locator("#grid-result #total")).to_have_text("4")
    touch(page, "H4")
    page.locator("#letters").fill("")
    type_letters(page, "vague", total=26)
    expect(page.locator("#grid-result .notation")).to_have_text("H4 VAGUE")


def test_the_whole_word_typed_through_the_v_counts_avions_once(page):
    """Issue 10: A V I O N S typed from G4 down after H4 VAGUE is seed 000's AVIONS, 18 points."""
    place_vague(page)
    touch(page, "G4")
    square(page, "G4").click()
    expect(page.locator("#board")).to_have_attribute("data-direction", "v")
    type_letters(page, "avions", total=18)
    expect(page.locator("#grid-result .notation")).to_have_text("4G AVIONS")


def test_a_start_square_typed_wrong_says_why(page):
    page.goto("/grille/")
    page.locator("#start").fill("8H")
    page.locator("#letters").click()
    expect(page.locator("#grid-result .error")).to_have_text(
        "« 8H » : une case s'écrit ligne puis colonne (H8) ; le sens se choisit avec « Horizontal » ou « Vertical »."
    )
    page.locator("#start").fill("Z9")
    page.locator("#letters").click()
    expect(page.locator("#grid-result .error")).to_contain_text("« Z9 » n'est pas une case de la grille")


@pytest.mark.parametrize("viewport", [PHONE], ids=["phone"])
def test_a_best_move_laid_from_the_list_brings_the_board_into_view(page):
    """Trial of issue 10: on a phone, touching a proposed move left the page scrolled to its foot."""
    place_vague(page)
    page.locator("#rack").fill("EHLA?NI")
    page.get_by_role("button", name="Meilleurs coups").click()
    best = page.locator(".best-moves button").first
    expect(best).to_contain_text("5E HALAIENt")
    best.scroll_into_view_if_needed()
    best.click()
    expect(page.locator("#grid-result #total")).to_have_text("90")
    expect(page.locator("#board")).to_be_in_viewport()


@pytest.mark.parametrize("viewport", [PHONE], ids=["phone"])
def test_on_a_phone_the_board_and_the_letters_being_laid_are_in_sight_together(page):
    """Issue 10: after touching the start square, the letters typed and the tiles they lay are both on screen."""
    place_vague(page)
    touch(page, "G4")
    square(page, "G4").click()
    expect(page.locator("#letters")).to_be_focused()
    type_letters(page, "avions", total=18)
    expect(page.locator("#letters")).to_be_in_viewport(ratio=1)
    for name in ("G4", "H4", "L4"):
        expect(square(page, name)).to_be_in_viewport(ratio=1)
    size = square(page, "H8").bounding_box()
    assert size["width"] >= 22  # as large as 390 px allow for 15 squares and their labels
