"""Issue 16 in Chromium: a district prepares a simultané from a game file, a club registers its room and plays
its first move from the sealed game, the combined ranking shows the room's players; a wrong game file is refused
on its field."""

import datetime
import json

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from clubsite.models import Club, Membership
from duplicate import games
from duplicate.games import GameRound
from duplicate.models import Session, Simultane
from duplicate.services import simultanes
from duplicate.services.rounds import round_add, round_reveal_top
from duplicate.services.sessions import session_finish
from scoring.models import Edition, RuleSet, move_index
from tests.duplicate.test_game_files import GAME

from .conftest import DESKTOP, PHONE, log_in, log_in_as
from .test_screenshots import shoot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def game_file(rounds=GAME):
    return {
        "name": "partie.json",
        "mimeType": "application/json",
        "buffer": json.dumps({"edition": "fr", "rounds": rounds}).encode(),
    }


def test_a_simultane_from_its_preparation_to_the_combined_ranking(page, browser, live_server, alice, lyon):
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

    # Lyon's admin registers her club's room and plays move 1 from the game.
    arbiter_page = browser.new_context(base_url=live_server.url, viewport=PHONE).new_page()
    log_in_as(arbiter_page, alice)
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
    header = "Place;Nom;Licence;Club;Série;Salle;Total;Écart;% du top;Solos;Absent;Coup 1;Coup 1 : notes"
    assert lines[4:8] == ["Série;B", "", header, "Tops;;;;;;26;;;;;26;"]
    assert lines[8] == "1;Bruno;;Club de Lyon;B;Simultané des Alpes · Club de Lyon;20;-6;76,9;0;;20;"
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


def districts_simultane(page, name, move_seconds=180):
    """Eve, logged in on `page`, organises the Comité des Alpes and its simultané `name` of the game file's moves,
    starting in an hour. Returns Eve and the simultané."""
    eve = log_in(page, "eve")
    body = Club.objects.create(name="Comité des Alpes", slug="alpes", kind=Club.Kind.DISTRICT)
    Membership.objects.create(club=body, user=eve, role=Membership.Role.ORGANISER)
    simultane = simultanes.simultane_create(
        body=body,
        creator=eve,
        name=name,
        starts_at=timezone.now() + datetime.timedelta(hours=1),
        edition=Edition.objects.get(code="fr"),
        rule_set=RuleSet.objects.get(code="tournoi"),
        move_seconds=move_seconds,
        game=[GameRound(**game_round) for game_round in GAME],
    )
    return eve, simultane


def comite_with_a_room(browser, live_server, page, alice):
    """Eve organises the district and its simultané, begun; Alice, Lyon's admin, registers its room (from
    the page, its players entering their own scores) and plays the game's first two moves. Returns the simultané,
    the room and the arbiter's page (a phone)."""
    eve, simultane = districts_simultane(page, "Simultané des Alpes", move_seconds=150)
    arbiter_page = browser.new_context(base_url=live_server.url, viewport=PHONE).new_page()
    log_in_as(arbiter_page, alice)
    arbiter_page.goto(f"/duplicate/simultanes/{simultane.pk}/")
    expect(arbiter_page.locator("#id_entry")).to_have_value("arbiter")  # as a new session's form
    arbiter_page.select_option("#id_entry", "players")
    arbiter_page.fill("#id_players", "1;Anne;;;A\n2;Bruno;;;B")
    arbiter_page.get_by_role("button", name="Inscrire la salle").click()
    expect(arbiter_page.locator(".messages")).to_contain_text("Salle inscrite pour Club de Lyon")
    room = Session.objects.get(simultane=simultane)
    assert room.entry == Session.Entry.PLAYERS
    Simultane.objects.filter(pk=simultane.pk).update(starts_at=timezone.now())
    for _move in range(2):
        round_reveal_top(round_=round_add(session=room))
    return simultane, room, arbiter_page


def test_the_comite_reads_each_room_and_downloads_the_game_once_closed(page, browser, live_server, alice, lyon):
    """Trial: the comité got 404 on every room, the rooms' table had no link, and it had no game file."""
    simultane, room, arbiter_page = comite_with_a_room(browser, live_server, page, alice)
    page.goto(f"/duplicate/simultanes/{simultane.pk}/")
    expect(page.locator(".meta")).to_contain_text("2 min 30 par coup")
    expect(page.locator("main")).not_to_contain_text("Un club y inscrit une salle")  # it has begun
    expect(page.get_by_role("link", name="Fichier de partie")).to_have_count(0)  # sealed
    # Sealed, the rooms too: a room ahead would show draws to whoever also runs or plays in a slower one.
    expect(page.get_by_role("link", name="Simultané des Alpes · Club de Lyon")).to_have_count(0)
    # Third trial: the confirmation said nothing of the rooms still playing.
    still_playing = "Salles encore en jeu : « Simultané des Alpes · Club de Lyon » (coup 2, son top révélé)."
    expect(page.locator("#still-playing")).to_have_text(still_playing)
    asked = []
    page.once("dialog", lambda dialog: asked.append(dialog.message))  # answered "OK" by the fixture's handler
    page.get_by_role("button", name="Arrêter le classement").click()
    expect(page.locator(".messages")).to_contain_text("Classement arrêté")
    assert asked[0].startswith("Arrêter le classement ? ") and asked[0].endswith(f" {still_playing}")
    expect(page.locator("main")).to_contain_text("la partie n'est plus scellée")
    with page.expect_download() as download:
        page.get_by_role("link", name="Fichier de partie").click()
    assert json.loads(download.value.path().read_text(encoding="utf-8"))["rounds"] == GAME  # the whole game
    page.get_by_role("link", name="Simultané des Alpes · Club de Lyon").click()
    expect(page).to_have_url(f"/duplicate/{room.pk}/recapitulatif/")
    expect(page.locator(".recap-moves tbody tr")).to_have_count(2)
    page.get_by_role("link", name="Le simultané et son classement").click()
    page.get_by_role("link", name="Classement général définitif").click()
    expect(page.locator("#simultane-board .phase")).to_have_text(
        "Classement définitif : toute la partie, 4 coups (0 sur les coups qu'une salle n'a pas joués)"
        " · total des tops 128"
    )
    expect(page.locator("#simultane-board thead th").last).to_have_text("Solos")
    arbiter_page.context.close()


def test_managing_the_players_stays_open_from_one_player_to_the_next(page, browser, live_server, alice, lyon):
    """Trial: "Gérer les joueurs" closed after each player saved."""
    simultane, room, arbiter_page = comite_with_a_room(browser, live_server, page, alice)
    arbiter_page.goto(f"/duplicate/{room.pk}/")
    arbiter_page.get_by_text("Gérer les joueurs").click()
    managing = arbiter_page.locator("#gerer-joueurs")
    for number, name in enumerate(("Anne", "Bruno")):
        row = managing.locator("form.player-edit").nth(number)
        row.locator("input[name=series]").fill("C")
        row.get_by_role("button", name="Enregistrer").click()
        expect(managing).to_have_attribute("open", "")  # still open for the next player
        saved = managing.locator(".messages")
        expect(saved).to_have_text(f"{name} : modifications enregistrées.")
        expect(saved).to_be_in_viewport()
    expect(arbiter_page.locator("main > .messages")).to_have_count(0)  # said once, beside the players
    assert sorted(room.players.values_list("series", flat=True)) == ["C", "C"]
    arbiter_page.context.close()


def test_a_finished_rooms_console_fits_a_phone(page, alice, lyon):
    """Trial: a finished room's console was 397 px wide on a 390 px phone, the moves' Points column cut."""
    page.set_viewport_size(PHONE)
    arbiter = log_in_as(page, alice)  # Lyon's admin organises the district too
    body = Club.objects.create(name="Comité des Alpes", slug="alpes", kind=Club.Kind.DISTRICT)
    Membership.objects.create(club=body, user=arbiter, role=Membership.Role.ORGANISER)
    rules = RuleSet.objects.get(code="tournoi")
    # A whole game as the server draws one (the same every run): a dozen moves and more, long draws and tops.
    game = games.draw_game(Edition.objects.engine("fr"), rules.build(), move_index("fr"), 16)
    simultane = simultanes.simultane_create(
        body=body,
        creator=arbiter,
        name="Simultané des Alpes",
        starts_at=timezone.now() + datetime.timedelta(hours=1),
        edition=Edition.objects.get(code="fr"),
        rule_set=rules,
        move_seconds=180,
        game=game,
    )
    room = simultanes.room_register(simultane=simultane, club=lyon, creator=arbiter, players=[(1, "Anne")])
    Simultane.objects.filter(pk=simultane.pk).update(starts_at=timezone.now())
    for _move in game:
        round_reveal_top(round_=round_add(session=room))
    session_finish(session=room)
    page.goto(f"/duplicate/{room.pk}/")
    expect(page.locator("h1")).to_have_text("Simultané des Alpes · Club de Lyon")
    moves = page.locator(".board-panel table")
    assert moves.evaluate("table => table.scrollWidth <= table.parentElement.clientWidth")  # Points not cut
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_the_automatic_games_box_sits_before_its_label(page):
    """Trial: on a desktop, "Partie automatique"'s box sat centred under its label, far from it."""
    log_in(page, "arbitre")
    page.goto("/duplicate/nouvelle/")
    box = page.locator("#id_automatic").bounding_box()
    label = page.locator("label[for=id_automatic]").bounding_box()
    name = page.locator("#id_name").bounding_box()
    assert 0 <= box["x"] - name["x"] < 10  # at the left edge of the form (a choice's padding), as its fields
    assert label["y"] <= box["y"] and box["y"] + box["height"] <= label["y"] + label["height"]  # within the label
    page.get_by_text("Partie automatique").click()
    expect(page.locator("#id_automatic")).to_be_checked()


def test_the_body_withdraws_a_room_from_a_phone(page):
    """Second trial: on a 390 px phone the rooms' « Retirer » buttons were cut at the screen's edge."""
    eve, simultane = districts_simultane(page, "Simultané de la Saint-Nicolas")
    for slug, name in (("paris", "Club de Paris"), ("lyon", "Club de Lyon")):
        club = Club.objects.create(name=name, slug=slug)
        Membership.objects.create(club=club, user=eve, role=Membership.Role.ORGANISER)
        simultanes.room_register(simultane=simultane, club=club, creator=eve)
    page.set_viewport_size(PHONE)
    page.goto(f"/duplicate/simultanes/{simultane.pk}/")
    buttons = page.get_by_role("button", name="Retirer")
    expect(buttons).to_have_count(2)
    for index in range(2):
        box = buttons.nth(index).bounding_box()
        assert box["x"] + box["width"] <= PHONE["width"] - 8  # within the page's margin, whole
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("tr", has_text="Club de Paris").get_by_role("button", name="Retirer").click()
    expect(page.locator(".messages")).to_contain_text("retirée")
    expect(page.locator(".rooms tbody tr")).to_have_count(1)
    assert list(Session.objects.filter(simultane=simultane).values_list("club__slug", flat=True)) == ["lyon"]
