"""The sheet kept in the browser (seeds 000 and 003), as a visitor uses it on a phone: a short game, a reload,
a new game and the previous one reopened, the end of the game with E, A and U, the passes' limits; and a member
who saves a local game into his account. Nothing but that save may leave the browser."""

from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP, PHONE, correct_line, expect_totals, log_in, play, start_game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

URL = "/parties/locale/"


@pytest.fixture
def viewport():
    return PHONE


def carrying_the_sheet(requests):
    """Requests that could carry a game: anything but a plain GET, or a GET with a query string."""
    return [(r.method, r.url) for r in requests if r.method != "GET" or r.post_data or urlsplit(r.url).query]


def fits_the_phone(page):
    return page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_a_visitor_plays_a_short_game_and_finds_it_after_a_reload(page, sent):
    page.goto(URL)
    expect(page.locator(".kept-here")).to_contain_text("rien n'est envoyé au serveur")
    expect(page.get_by_role("button", name="Enregistrer dans mon compte")).to_have_count(0)
    start_game(page, "Claire", "Paul")
    expect(page.locator("#game-meta")).to_have_text("Français · Règles de tournoi (FISF)")
    expect(page.locator("#turn-title")).to_have_text("À Claire de jouer")

    play(page, 26, "Claire")
    page.fill("#points", "2001")
    page.get_by_role("button", name="Inscrire pour Paul").click()
    expect(page.locator("#points-error")).to_have_text("Un coup vaut de 0 à 2000 points.")
    expect(page.locator("#points")).to_have_attribute("aria-invalid", "true")
    play(page, 18, "Paul")
    expect(page.locator("#points-error")).to_be_hidden()

    page.get_by_role("button", name="Passer").click()
    expect(page.locator("#toast")).to_have_text("Passe : 0 point pour Claire, à Paul de jouer.")
    expect(page.locator("#turn-title")).to_have_text("À Paul de jouer")

    page.locator("#penalty-panel summary").click()
    expect(page.locator("#penalty-points")).to_have_value("5")  # the tournament rules' figure
    page.locator("#penalty-player").select_option(label="Paul")
    page.fill("#penalty-points", "1001")
    page.get_by_role("button", name="Retirer les points").click()
    expect(page.locator("#penalty-points-error")).to_have_text("Une pénalité retire de 1 à 1000 points.")
    page.fill("#penalty-points", "10")
    page.get_by_role("button", name="Retirer les points").click()
    expect(page.locator("#toast")).to_have_text("10 points retirés à Paul.")
    expect_totals(page, 26, 8)
    expect(page.locator("#turn-title")).to_have_text("À Paul de jouer")  # a penalty uses no turn

    page.get_by_role("button", name="Annuler la dernière ligne").click()
    expect(page.locator("#toast")).to_have_text("Ligne 4 annulée.")
    expect_totals(page, 26, 18)

    correct_line(page, 1, 30)
    expect(page.locator("#toast")).to_have_text("Ligne 1 corrigée : 30 points.")
    expect_totals(page, 30, 18)
    page.get_by_label("Points de la ligne 2").fill("-4")
    page.locator("#lines-body tr").nth(1).get_by_role("button", name="Corriger").click()
    expect(page.locator("#lines-body .error")).to_have_text("Un coup vaut de 0 à 2000 points.")
    assert fits_the_phone(page)

    page.reload()
    expect_totals(page, 30, 18)
    expect(page.locator("#turn-title")).to_have_text("À Paul de jouer")
    expect(page.locator("#lines-body tr")).to_have_count(3)
    expect(page.locator("#lines-body tr").nth(2)).to_contain_text("Claire")
    page.get_by_role("button", name="Supprimer la ligne 3").click()
    expect(page.locator("#toast")).to_have_text("Ligne 3 supprimée.")
    expect(page.locator("#turn-title")).to_have_text("À Claire de jouer")
    assert carrying_the_sheet(sent) == []


def test_a_new_game_keeps_the_previous_one(page, sent):
    page.goto(URL)
    start_game(page, "Claire", "Paul")
    play(page, 26, "Claire")
    play(page, 18, "Paul")
    page.locator("#challenge-panel summary").click()
    expect(page.locator("#challenge-explain")).to_have_text(
        "Un mot admis contesté à tort coûte 5 points par mot au contestataire, sans lui faire perdre son tour."
    )
    page.locator("#challenger").select_option(label="Paul")
    page.get_by_role("button", name="Inscrire la pénalité").click()
    expect(page.locator("#toast")).to_have_text("Contestation perdue : 5 points retirés à Paul.")
    expect(page.locator("#turn-title")).to_have_text("À Claire de jouer")

    page.get_by_role("button", name="Nouvelle partie", exact=True).click()
    page.locator("#player-count").select_option("3")
    expect(page.locator("#rules-note")).to_have_text(
        "« Règles de tournoi (FISF) » ne valent pas à 3 joueurs : la feuille suit « Règles de la boîte »."
    )
    start_game(page, "Anne", count=3)
    expect(page.locator("#game-meta")).to_have_text("Français · Règles de la boîte")
    expect(page.locator("#switched-note")).to_be_visible()
    expect(page.locator("#scoreboard .name")).to_have_text(["Anne", "Joueur 2", "Joueur 3"])
    expect(page.get_by_text("Contestation perdue", exact=True)).to_be_hidden()  # the box rules have none
    page.get_by_role("button", name="Changer").click()
    page.get_by_role("button", name="Mot repris").click()
    expect(page.locator("#turn-title")).to_have_text("À Joueur 3 de jouer")

    previous = page.locator("#previous-list li")
    expect(previous).to_have_count(1)
    expect(previous).to_contain_text("Claire 26 · Paul 13")
    previous.get_by_role("button", name="Ouvrir").click()
    expect_totals(page, 26, 13)
    expect(page.locator("#turn-title")).to_have_text("À Claire de jouer")
    expect(previous).to_have_count(1)
    expect(previous).to_contain_text("Anne 0 · Joueur 2 0 · Joueur 3 0")

    previous.get_by_role("button", name="Supprimer").click()
    previous.get_by_role("button", name="Non, la garder").click()
    expect(previous).to_have_count(1)
    previous.get_by_role("button", name="Supprimer").click()
    previous.get_by_role("button", name="Oui, supprimer").click()
    expect(page.locator("#toast")).to_have_text("La partie est supprimée de ce navigateur.")
    expect(page.locator("#no-previous")).to_have_text("Aucune partie précédente dans ce navigateur.")
    assert fits_the_phone(page)
    assert carrying_the_sheet(sent) == []


def test_the_end_of_the_game_with_e_a_and_u_left(page, sent):
    """Seed 000: the player left with E, A and U loses 3 points, which the one who finished gains."""
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto(URL)
    start_game(page, "Claire", "Paul")
    for points, name in ((26, "Claire"), (18, "Paul"), (4, "Claire")):
        play(page, points, name)

    page.get_by_role("button", name="Terminer la partie").click()
    expect(page.get_by_label("Claire (30 points)")).to_be_focused()
    page.get_by_role("button", name="Calculer le résultat").click()
    expect(page.locator("#finish-error")).to_have_text(
        "Un seul joueur peut avoir terminé : laissez vide une seule case."
    )
    page.get_by_label("Claire (30 points)").fill("ZZ")
    page.get_by_role("button", name="Calculer le résultat").click()
    expect(page.locator("#finish-error")).to_have_text("Claire : 2 × Z, mais il n'en reste que 1 hors de la grille.")
    page.get_by_label("Claire (30 points)").fill("eau")
    page.get_by_role("button", name="Calculer le résultat").click()

    rows = page.locator("#results-body tr")
    expect(rows).to_have_text(["1Claire30-327", "2Paul18+321"])
    expect(page.locator("#local-ranking-text")).to_have_text("1. Claire : 27 (30 -3)\n2. Paul : 21 (18 +3)")
    expect(page.locator("#game-meta")).to_contain_text("Terminée")
    expect(page.locator("#entry")).to_be_hidden()
    page.get_by_role("button", name="Copier le classement").click()
    expect(page.get_by_role("button", name="Classement copié")).to_be_visible()
    assert page.evaluate("navigator.clipboard.readText()") == "1. Claire : 27 (30 -3)\n2. Paul : 21 (18 +3)"

    page.get_by_role("button", name="Rouvrir la partie").click()
    play(page, 6, "Paul")
    page.get_by_role("button", name="Terminer la partie").click()
    expect(page.get_by_label("Claire (30 points)")).to_have_value("eau")
    page.get_by_role("button", name="Calculer le résultat").click()
    expect(rows).to_have_text(["1Claire30-327", "1Paul24+327"])  # equal scores share the place
    assert fits_the_phone(page)

    page.get_by_role("button", name="Nouvelle partie avec les mêmes joueurs").click()
    expect(page.locator("#scoreboard .name")).to_have_text(["Claire", "Paul"])
    expect_totals(page, 0, 0)
    expect(page.locator("#previous-list li")).to_contain_text("Terminée")
    expect(page.locator("#previous-list li")).to_contain_text("Claire 27 · Paul 27")
    assert carrying_the_sheet(sent) == []


@pytest.mark.parametrize("viewport", [DESKTOP])
def test_the_pass_limit_is_a_note_that_never_ends_the_game(page, sent):
    """Seed 003: six passes in a row, three each, under tournament rules; each of four players passing twice in a
    row (8 turns) under the box rules."""
    page.goto(URL)
    start_game(page, "Claire", "Paul")
    passes = page.get_by_role("button", name="Passer")
    for _ in range(5):
        passes.click()
    page.locator("#penalty-panel summary").click()
    page.get_by_role("button", name="Retirer les points").click()  # no turn: the run goes on
    expect(page.locator("#pass-limit")).to_be_hidden()
    passes.click()
    expect(page.locator("#pass-limit")).to_contain_text("La série de tours passés atteint la limite des règles")
    expect(page.locator("#entry")).to_be_visible()
    play(page, 12, "Claire")
    expect(page.locator("#pass-limit")).to_be_hidden()

    page.get_by_role("button", name="Nouvelle partie", exact=True).click()
    start_game(page, "A", "B", "C", "D", rules="Règles de la boîte")
    for _ in range(7):
        passes.click()
    expect(page.locator("#pass-limit")).to_be_hidden()
    passes.click()
    expect(page.locator("#pass-limit")).to_be_visible()
    assert carrying_the_sheet(sent) == []


def test_a_member_saves_a_local_game_into_his_account(page, sent):
    log_in(page, "claire")
    page.goto(URL)
    start_game(page, "Claire", "Paul")
    play(page, 26, "Claire")
    play(page, 18, "Paul")
    page.get_by_role("button", name="Terminer la partie").click()
    page.get_by_label("Claire (26 points)").fill("EAU")
    page.get_by_role("button", name="Calculer le résultat").click()
    expect(page.locator("#results-body tr")).to_have_text(["1Claire26-323", "2Paul18+321"])
    before = len(sent)

    page.locator("#current-save").get_by_role("button", name="Enregistrer dans mon compte").click()
    expect(page.locator("#current-save")).to_contain_text("Enregistrée dans votre compte")
    assert [(r.method, urlsplit(r.url).path) for r in sent[before:]] == [("POST", "/api/sheets/local-games")]
    page.reload()
    page.get_by_role("link", name="Ouvrir la partie enregistrée").click()
    expect(page.locator(".results tbody tr")).to_have_text(["1Claire26-323", "2Paul18+321"])
    game_url = page.url

    page.goto("/parties/")
    expect(page.locator(".game-card")).to_have_count(1)
    expect(page.locator(".game-card a").first).to_have_attribute("href", urlsplit(game_url).path)
    expect(page.locator(".game-card")).to_contain_text("Terminée")
    page.get_by_role("link", name="Feuille de marque de ce navigateur").click()
    expect(page.locator("#current-save")).to_contain_text("Enregistrée dans votre compte")


def test_a_member_logged_out_meanwhile_is_told_to_log_in_again(page, sent):
    """The API answers 401 once the session is gone: the page says to log in, and the game stays in the browser."""
    log_in(page, "claire")
    page.goto(URL)
    start_game(page, "Claire", "Paul")
    play(page, 26, "Claire")
    page.context.clear_cookies()
    page.locator("#current-save").get_by_role("button", name="Enregistrer dans mon compte").click()
    expect(page.locator("#current-save .save-message")).to_have_text(
        "Connectez-vous (et rechargez cette page) pour enregistrer cette partie dans votre compte."
    )
    expect_totals(page, 26, 0)
