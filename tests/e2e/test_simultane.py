"""Issue 16 in Chromium: a district prepares a simultané from a game file, a club registers its room and plays
its first move from the sealed game, the combined ranking shows the room's players; a wrong game file is refused
on its field."""

import datetime
import json

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from clubsite.models import Club, Membership
from duplicate.models import Session, Simultane
from tests.duplicate.test_game_files import GAME

from .conftest import DESKTOP, PHONE, log_in
from .test_screenshots import shoot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def game_file(rounds=GAME):
    return {
        "name": "partie.json",
        "mimeType": "application/json",
        "buffer": json.dumps({"edition": "fr", "rounds": rounds}).encode(),
    }


def test_a_simultane_from_its_preparation_to_the_combined_ranking(page, browser, live_server):
    eve = log_in(page, "eve")
    body = Club.objects.create(name="Comité des Alpes", slug="alpes", kind=Club.Kind.DISTRICT)
    Membership.objects.create(club=body, user=eve, role=Membership.Role.ORGANISER)
    page.goto("/duplicate/")
    page.get_by_role("link", name="Simultanés").click()
    page.get_by_role("link", name="Préparer un simultané").click()
    page.fill("#id_name", "Simultané des Alpes")
    tomorrow = timezone.localtime() + datetime.timedelta(days=1)
    page.fill("#id_starts_at", f"{tomorrow:%Y-%m-%d}T14:00")
    page.set_input_files("#id_game_file", game_file())
    page.get_by_role("button", name="Préparer le simultané").click()
    expect(page.locator(".messages")).to_contain_text(
        "Simultané « Simultané des Alpes » prêt : 4 coups, scellés jusqu'à ce que chaque salle y arrive."
    )
    expect(page.locator("main")).not_to_contain_text("VAGUEST")  # sealed, even for its organiser
    simultane = Simultane.objects.get()

    # A club's organiser registers his room and plays move 1 from the game.
    arbiter_page = browser.new_context(base_url=live_server.url, viewport=PHONE).new_page()
    arbiter = log_in(arbiter_page, "arbitre")
    lyon = Club.objects.create(name="Club de Lyon", slug="lyon")
    Membership.objects.create(club=lyon, user=arbiter, role=Membership.Role.ORGANISER)
    arbiter_page.goto(f"/duplicate/simultanes/{simultane.pk}/")
    arbiter_page.fill("#id_players", "1;Anne;;;A\n2;Bruno;;;B")
    arbiter_page.get_by_role("button", name="Inscrire la salle").click()
    expect(arbiter_page.locator(".messages")).to_contain_text("Salle inscrite pour Club de Lyon")
    expect(arbiter_page.locator(".game-origin")).to_contain_text("Salle du simultané « Simultané des Alpes »")
    # Before its time, the room draws nothing; then its time comes.
    arbiter_page.get_by_role("button", name="Tirer le coup suivant de la partie").click()
    expect(arbiter_page.locator("#draw-error")).to_contain_text("commence le")
    expect(arbiter_page.locator("#draw-error")).to_contain_text("aucun tirage avant.")
    Simultane.objects.filter(pk=simultane.pk).update(starts_at=timezone.now())
    arbiter_page.get_by_role("button", name="Tirer le coup suivant de la partie").click()
    expect(arbiter_page.locator("#duplicate-move h2")).to_contain_text("Coup 1")
    expect(arbiter_page.locator("#duplicate-move")).to_contain_text("VAGUEST")
    arbiter_page.get_by_role("button", name="Révéler le top de la partie").click()
    expect(arbiter_page.locator("#top-score")).to_have_text("26")
    row = arbiter_page.locator("tr", has_text="Anne")
    row.locator("input[name=score]").fill("26")
    row.locator("input[name=score]").press("Enter")
    saved = arbiter_page.locator("tr", has_text="Anne").locator("input[name=score]")
    expect(saved).to_have_class("saved")  # back from the server (its value is there at once: it proves nothing)
    expect(saved).to_have_value("26")
    row = arbiter_page.locator("tr", has_text="Bruno")
    row.locator("input[name=score]").fill("20")
    row.locator("input[name=score]").press("Enter")
    saved = arbiter_page.locator("tr", has_text="Bruno").locator("input[name=score]")
    expect(saved).to_have_class("saved")  # back from the server (its value is there at once: it proves nothing)
    expect(saved).to_have_value("20")
    # A typed draw that is not the game's is refused on its field, without saying the game's.
    arbiter_page.fill("#draw", "EAIRSTU")
    arbiter_page.get_by_role("button", name="Saisir ce tirage").click()
    expect(arbiter_page.locator("#draw-error")).to_have_text(
        "Ce tirage n'est pas celui de la partie jouée (coup 2) : « Tirer » donne le sien."
    )
    arbiter_page.get_by_role("button", name="Tirer le coup suivant de la partie").click()
    expect(arbiter_page.locator("#duplicate-move h2")).to_contain_text("Coup 2")
    assert Session.objects.get(simultane=simultane).rounds.count() == 2

    # The district follows the combined ranking: move 1 closed in the only room.
    page.goto(f"/duplicate/simultanes/{simultane.pk}/")
    page.get_by_role("link", name="Classement général, en direct").click()
    expect(page.locator("#simultane-board .phase")).to_contain_text("Après 1 coup, joué par toutes les salles")
    rows = page.locator("#simultane-board tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("Anne")
    expect(rows.nth(0).locator("td").nth(4)).to_have_text("26")
    expect(rows.nth(1)).to_contain_text("Bruno")
    expect(rows.nth(1).locator("td").nth(5)).to_have_text("-6")
    page.select_option("#serie", "B")
    expect(rows).to_have_count(1)
    expect(rows.nth(0)).to_contain_text("Bruno")
    expect(rows.nth(0).locator("td").nth(0)).to_have_text("1")
    with page.expect_download() as download:
        page.get_by_role("link", name="CSV").click()
    lines = download.value.path().read_text(encoding="utf-8-sig").splitlines()
    header = "Place;Nom;Licence;Club;Série;Salle;Total;Écart;% du top;Solos;Coup 1;Coup 1 : notes"
    assert lines[4:8] == ["Série;B", "", header, "Tops;;;;;;26;;;;26;"]
    assert lines[8] == "1;Bruno;;Club de Lyon;B;Simultané des Alpes · Club de Lyon;20;-6;76,9;0;20;"
    for device, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size(viewport)
        page.select_option("#serie", "")
        expect(rows).to_have_count(2)
        shoot(page, f"duplicate-simultane-ranking-{device}.png", full_page=True)
    arbiter_page.context.close()


def test_a_wrong_game_file_is_refused_on_its_field(page):
    log_in(page, "arbitre")
    page.goto("/duplicate/nouvelle/")
    page.fill("#id_name", "Partie importée")
    wrong = [GAME[0], {**GAME[1], "top_score": 20}]
    page.set_input_files("#id_game_file", game_file(wrong))
    page.get_by_role("button", name="Créer la séance").click()
    expect(page.locator("main .error")).to_have_text("Coup 2 : 4G AVIONS vaut 18 points sur cette grille, pas 20.")
    assert not Session.objects.exists()
    page.set_input_files("#id_game_file", game_file())
    page.get_by_role("button", name="Créer la séance").click()
    expect(page.locator(".game-origin")).to_contain_text("Partie importée d'un fichier (4 coups)")
