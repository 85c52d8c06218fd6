"""« Type de partie : Duplicate : le même tirage pour tous » on the sheet kept in the browser (issue 25, seed 000): a
line per move with the top, then each player's score, every cell editable; a score above the top flagged as a typo;
each player's total, gap to the tops and percentage of them; the move's timer, ringing and vibrating at zero; the
counter's move put in a player's next empty cell or noted as the top. Nothing leaves the browser."""

import json

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP, PHONE, RINGING, count_ecoles
from .test_browser_sheet_counter import NAMES, STORAGE_KEY, carrying_the_sheet, counter_result

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

URL = "/parties/locale/"


def start_duplicate(page, *names, count=None):
    page.locator("#game-type").select_option(label="Duplicate : le même tirage pour tous")
    page.locator("#player-count").select_option(str(count or len(names)))
    for seat, name in enumerate(names):
        page.fill(f"#name-{seat}", name)
    page.get_by_role("button", name="Commencer la partie").click()
    expect(page.locator("#duplicate")).to_be_visible()


def score_cell(page, move, name):
    return page.get_by_label(f"{name}, coup {move}", exact=True)


def top_cell(page, move):
    return page.get_by_label(f"Top du coup {move}", exact=True)


def write(field, value):
    """Type a cell and leave it, as one does going to the next."""
    field.fill(str(value))
    field.press("Tab")


def write_move(page, move, top, *scores):
    if move > page.locator("#moves-body tr").count():
        page.get_by_role("button", name="Nouveau coup").click()
        expect(page.locator("#toast")).to_have_text(f"Coup {move} ajouté.")
    write(top_cell(page, move), top)
    for name, score in zip(NAMES, scores, strict=False):
        write(score_cell(page, move, name), score)


def expect_against_tops(page, *figures):
    for seat, (total, against) in enumerate(figures):
        expect(page.locator(f"#local-total-{seat}")).to_have_text(str(total))
        expect(page.locator(f"#local-against-tops-{seat}")).to_have_text(against)


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_seed_000_s_duplicate_game_of_three_moves(page, sent):
    """Tops 24, 36 and 18 (78): 24, 30 and 18 make 72, gap -6, 92.3 % of the tops; 20, 36 and 9 make 65, gap -13,
    83.3 %. The first wins."""
    page.goto(URL)
    page.locator("#game-type").select_option(label="Duplicate : le même tirage pour tous")
    expect(page.locator("#players-legend")).to_have_text("Joueurs (de 1 à 4, noms facultatifs)")
    expect(page.locator("#player-count option")).to_have_text(["1", "2", "3", "4"])
    expect(page.locator("#game-type-note")).to_be_visible()
    start_duplicate(page, *NAMES)
    expect(page.locator("#game-meta")).to_have_text("Français · Règles de tournoi (FISF) · Duplicate")
    expect(page.locator("#switched-note")).to_be_hidden()  # two players or four, a duplicate game keeps its rules
    expect(page.locator("#entry")).to_be_hidden()
    expect(page.get_by_role("button", name="Terminer la partie")).to_be_hidden()
    expect(page.locator("#moves-head th")).to_have_text(["N°", "Top", *NAMES, "Actions"])
    expect(top_cell(page, 1)).to_be_focused()

    write_move(page, 1, 24, 24, 20)
    write_move(page, 2, 36, 30, 36)
    write_move(page, 3, 18, 18, 9)
    expect_against_tops(page, (72, "écart -6 · 92,3 % du top"), (65, "écart -13 · 83,3 % du top"))
    expect(page.locator("#moves-foot td")).to_have_text(["78", "72", "65", ""])
    expect(page.locator("#duplicate-ranking-text")).to_have_text(
        "1. Zéphyrine : 72 (écart -6, 92,3 % du top)\n2. Octave : 65 (écart -13, 83,3 % du top)"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]

    # Every cell stays editable; an empty one counts 0, and a top left empty too.
    write(score_cell(page, 2, "Octave"), "")
    expect_against_tops(page, (72, "écart -6 · 92,3 % du top"), (29, "écart -49 · 37,2 % du top"))
    write(score_cell(page, 2, "Octave"), 36)
    write(top_cell(page, 3), "")
    expect_against_tops(page, (72, "écart +12 · 120,0 % du top"), (65, "écart +5 · 108,3 % du top"))
    write(top_cell(page, 3), 18)

    page.reload()
    expect_against_tops(page, (72, "écart -6 · 92,3 % du top"), (65, "écart -13 · 83,3 % du top"))
    expect(score_cell(page, 2, "Zéphyrine")).to_have_value("30")
    previous_game = json.loads(page.evaluate(f"localStorage.getItem('{STORAGE_KEY}')"))["games"][0]
    assert previous_game["moves"][1] == {"top": 36, "scores": [30, 36]}
    assert carrying_the_sheet(sent) == []


def test_a_score_above_the_top_is_flagged_as_a_typo_and_a_move_taken_off_can_be_put_back(page, sent):
    page.goto(URL)
    start_duplicate(page, *NAMES)
    write_move(page, 1, 24, 24, 20)
    write_move(page, 2, 36, 30, 36)
    cell = score_cell(page, 2, "Octave")
    write(cell, 63)
    flag = page.locator("#typo-1-1")
    expect(flag).to_be_visible()
    expect(flag).to_have_text("Plus que le top : faute de frappe ?")
    expect(cell).to_have_attribute("aria-invalid", "true")
    expect(cell).to_have_accessible_description("Plus que le top : faute de frappe ?")
    expect(page.locator(".typo-flag:visible")).to_have_count(1)
    write(top_cell(page, 2), 63)  # the top was the typo
    expect(flag).to_be_hidden()
    expect(cell).to_have_attribute("aria-invalid", "false")
    write(top_cell(page, 2), 36)
    expect(flag).to_be_visible()
    write(cell, 36)
    expect(flag).to_be_hidden()

    write(cell, "2001")
    expect(page.locator("#moves-error")).to_have_text("Un score va de 0 à 2000 points, ou reste vide.")
    expect(cell).to_have_attribute("aria-invalid", "true")
    write(cell, "36")
    expect(page.locator("#moves-error")).to_be_hidden()

    page.get_by_role("button", name="Supprimer le coup 1").click()
    expect(page.locator("#toast")).to_have_text("Coup 1 supprimé.")
    expect(page.locator("#moves-body tr")).to_have_count(1)
    expect(top_cell(page, 1)).to_have_value("36")
    expect(page.locator("#local-total-0")).to_have_text("30")
    page.get_by_role("button", name="Annuler").click()
    expect(page.locator("#toast")).to_have_text("Coup 1 rétabli.")
    expect(page.locator("#moves-body tr")).to_have_count(2)
    expect(top_cell(page, 1)).to_have_value("24")
    expect(page.locator("#local-total-0")).to_have_text("54")
    assert carrying_the_sheet(sent) == []


def test_alone_against_the_tops(page, sent):
    page.goto(URL)
    start_duplicate(page, count=1)
    expect(page.locator("#moves-head th")).to_have_text(["N°", "Top", "Joueur 1", "Actions"])
    write(top_cell(page, 1), 80)
    write(score_cell(page, 1, "Joueur 1"), 60)
    expect(page.locator("#local-against-tops-0")).to_have_text("écart -20 · 75,0 % du top")
    page.get_by_role("button", name="Nouvelle partie", exact=True).click()
    expect(page.locator("#game-type")).to_be_focused()
    page.locator("#game-type").select_option(label="Classique")
    expect(page.locator("#player-count option")).to_have_text(["2", "3", "4"])
    expect(page.locator("#players-legend")).to_have_text("Joueurs (de 2 à 4, noms facultatifs)")
    page.get_by_role("button", name="Commencer la partie").click()
    expect(page.locator("#entry")).to_be_visible()
    expect(page.locator("#duplicate")).to_be_hidden()
    previous = page.locator("#previous-list li")
    expect(previous).to_contain_text("Joueur 1 60")
    expect(previous).to_contain_text("Français · Règles de tournoi (FISF) · Duplicate")
    assert carrying_the_sheet(sent) == []


def test_the_move_s_timer_rings_and_vibrates_at_zero(page, sent):
    """The rule set's times (the tournament's 1, 2, 2 min 30 and 3 min, 3 min by default, article 1.3)."""
    page.add_init_script(RINGING)
    page.clock.install()
    page.goto(URL)
    start_duplicate(page, *NAMES)
    times = page.get_by_label("Chrono du coup")
    expect(times.locator("option")).to_have_text(["1 min", "2 min", "2 min 30 s", "3 min"])
    expect(times).to_have_value("180")
    expect(page.locator("#timer-display")).to_have_text("3:00")
    times.select_option(label="1 min")
    expect(page.locator("#timer-display")).to_have_text("1:00")

    page.get_by_role("button", name="Lancer le chrono").click()
    expect(page.get_by_role("button", name="Relancer le chrono")).to_be_visible()
    page.clock.run_for(30_000)
    expect(page.locator("#timer-display")).to_have_text("0:30")
    assert page.evaluate("window.rang") == []
    page.clock.run_for(30_000)
    expect(page.locator("#timer-display")).to_have_text("0:00")
    expect(page.locator("#timer-done")).to_have_text("Temps écoulé : le coup est terminé.")
    assert page.evaluate("window.rang") == ["beep", [300, 150, 300]]
    page.clock.run_for(10_000)
    assert page.evaluate("window.rang") == ["beep", [300, 150, 300]]  # once

    page.get_by_role("button", name="Remettre à zéro").click()
    expect(page.locator("#timer-display")).to_have_text("1:00")
    expect(page.locator("#timer-done")).to_be_hidden()
    expect(page.get_by_role("button", name="Lancer le chrono")).to_be_focused()
    page.reload()
    expect(page.get_by_label("Chrono du coup")).to_have_value("60")  # kept with the game
    assert carrying_the_sheet(sent) == []


def test_the_counter_s_move_goes_in_a_player_s_next_empty_cell_or_as_the_top(page, sent):
    count_ecoles(page)
    start_duplicate(page, *NAMES)
    counted = page.locator("#counted")
    expect(counted.locator("#counted-move")).to_have_text("Coup compté au compteur : ECOLES, 22 points.")
    expect(counted.get_by_role("button")).to_have_text(
        ["Inscrire pour Zéphyrine", "Inscrire pour Octave", "Noter comme top"]
    )
    counted.get_by_role("button", name="Noter comme top").click()
    expect(page.locator("#toast")).to_have_text("22 points notés comme top du coup 1.")
    counted.get_by_role("button", name="Inscrire pour Zéphyrine").click()
    expect(page.locator("#toast")).to_have_text("22 points inscrits pour Zéphyrine au coup 1.")
    expect(top_cell(page, 1)).to_have_value("22")
    expect(score_cell(page, 1, "Zéphyrine")).to_have_value("22")

    counter_result(page, {"score": 1, "words": [{"word": "A", "score": 1}], "detail_text": "", "tiles_used": 1})
    counted.get_by_role("button", name="Inscrire pour Octave").click()
    expect(page.locator("#toast")).to_have_text("1 point inscrit pour Octave au coup 1.")
    counter_result(page, {"score": 30, "words": [], "detail_text": "", "tiles_used": 5})
    expect(counted.locator("#counted-move")).to_have_text("Coup compté au compteur : 30 points.")
    counted.get_by_role("button", name="Inscrire pour Zéphyrine").click()
    expect(page.locator("#toast")).to_have_text("30 points inscrits pour Zéphyrine au coup 2.")
    expect(page.locator("#moves-body tr")).to_have_count(2)
    expect(top_cell(page, 2)).to_have_value("")
    counted.get_by_role("button", name="Noter comme top").click()
    expect(top_cell(page, 2)).to_have_value("30")
    expect(page.locator("#local-against-tops-0")).to_have_text("écart 0 · 100,0 % du top")
    expect(page.locator("#local-against-tops-1")).to_have_text("écart -51 · 1,9 % du top")

    counter_result(page, None)
    expect(counted).to_be_hidden()
    assert carrying_the_sheet(sent) == []
