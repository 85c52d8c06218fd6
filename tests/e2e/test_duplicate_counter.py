"""The counter on a duplicate session's move, in Chromium: the organiser places the top from the typed counter,
inscribes a counted move for a player in typed mode and on the grid, and finds the scores on the session's page."""

import pytest
from playwright.sync_api import expect

from duplicate.models import Result
from duplicate.services.results import result_set
from duplicate.services.rounds import round_add

from .conftest import PHONE, club_session, htmx_settled, log_in_as, set_tile, touch, type_letters, type_word

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def score_box(page, name):
    return page.locator("tr", has_text=name).locator("input[name=score]")


def test_organiser_places_the_top_and_inscribes_a_players_points_from_the_typed_counter(page, alice, lyon):
    organiser = log_in_as(page, alice)
    session = club_session(organiser, lyon)
    round_ = round_add(session=session, draw_text="VAGUEST")
    page.goto(f"/duplicate/{session.pk}/compteur/")
    expect(page.locator(".game-banner")).to_contain_text("Coup 1 · tirage VAGUEST")

    # Without a starting square the typed counter cannot place a top: it says so and keeps the word.
    type_word(page, "vague", tiles=5, total=9)
    page.get_by_role("button", name="Placer comme top").click()
    expect(page.locator("#counter .error")).to_have_text(
        "Donnez la case de départ du top : H4 pour un mot horizontal, 4H pour un mot vertical."
    )
    expect(page.locator("#w0")).to_have_value("vague")
    htmx_settled(page)
    page.fill("#position", "H4")
    page.get_by_role("button", name="Placer comme top").click()
    expect(page.locator(".messages")).to_have_text(
        "Top du coup 1 : H4 VAGUE, 26 points. Le compteur donnait 9 points : la grille de la séance fait foi."
    )
    expect(page.locator(".game-banner")).to_contain_text("top H4 VAGUE (26)")
    expect(page.locator("#w0")).to_have_value("")

    # Bruno's move, counted by hand: ÉCOLES with its C on a double letter and its S on a double word.
    type_word(page, "écoles", tiles=6, total=8)
    set_tile(page, 2, "Lettre compte double")
    set_tile(page, 6, "Mot compte double")
    expect(page.locator("#total")).to_have_text("22")
    page.locator("#player").select_option(label="2 · Bruno")
    page.get_by_role("button", name="Inscrire pour le joueur").click()
    expect(page.locator(".messages")).to_have_text("22 points inscrits pour Bruno (coup 1).")
    expect(page.locator("#player option").nth(2)).to_have_text("2 · Bruno (inscrit : 22)")
    expect(page.locator("#player")).to_have_value(str(session.players.get(name="Anne").pk))

    page.get_by_role("link", name=f"← {session.name}").click()
    expect(score_box(page, "Bruno")).to_have_value("22")
    expect(page.locator("#top-score")).to_have_text("26")
    assert Result.objects.get(round=round_).player.name == "Bruno"


def test_organiser_inscribes_a_move_counted_on_the_grid_without_placing_it(page, alice, lyon):
    organiser = log_in_as(page, alice)
    session = club_session(organiser, lyon)
    round_ = round_add(session=session, draw_text="VAGUEST")
    page.goto(f"/duplicate/{session.pk}/grille/")
    touch(page, "H4")
    type_letters(page, "vague", total=26)
    page.locator("#player").select_option(label="3 · Chloé")
    page.get_by_role("button", name="Inscrire pour le joueur").click()
    expect(page.locator("#grid-result .message")).to_have_text("26 points inscrits pour Chloé (coup 1).")
    htmx_settled(page)
    # The move is still being typed, not placed: Anne found it too.
    expect(page.locator("#letters")).to_have_value("vague")
    page.locator("#player").select_option(label="1 · Anne")
    page.get_by_role("button", name="Inscrire pour le joueur").click()
    expect(page.locator("#grid-result .message")).to_have_text("26 points inscrits pour Anne (coup 1).")
    round_.refresh_from_db()
    assert (round_.top, sorted(Result.objects.values_list("player__name", "score"))) == (
        "",
        [("Anne", 26), ("Chloé", 26)],
    )
    page.goto(f"/duplicate/{session.pk}/")
    expect(score_box(page, "Chloé")).to_have_value("26")
    expect(score_box(page, "Anne")).to_have_value("26")


@pytest.mark.parametrize("viewport", [PHONE])
def test_the_counter_fits_a_phone_with_long_player_names(page, alice, lyon):
    organiser = log_in_as(page, alice)
    session = club_session(
        organiser, lyon, players=[f"Joueuse numéro {n} de la table de Villeurbanne" for n in range(1, 21)]
    )
    round_ = round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    for player in session.players.all()[:10]:
        result_set(round_=round_, player=player, score=26)
    for path in (f"/duplicate/{session.pk}/compteur/", f"/duplicate/{session.pk}/grille/"):
        page.goto(path)
        expect(page.locator("#player")).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], path
