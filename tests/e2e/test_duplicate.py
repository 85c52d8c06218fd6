"""A duplicate session in Chromium: an organiser runs three moves for three players, one of whom enters his own
score on a phone, and the ranking page shows the places."""

import datetime

import pytest
from playwright.sync_api import expect

from duplicate.models import Session
from duplicate.services.results import result_set
from duplicate.services.rounds import round_add, round_set_top

from .conftest import PHONE, club_session, log_in, log_in_as, touch, type_letters

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def test_organiser_runs_three_moves_and_a_player_enters_his_score_on_his_phone(page, browser, live_server, alice, lyon):
    organiser = log_in_as(page, alice)
    session = club_session(organiser, lyon)
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
        # Bruno writes his score on his phone while the move is open, before the top is revealed.
        phone.goto(f"/duplicate/joueur/{bruno.key}/")
        phone.fill("#score", "15")
        phone.get_by_role("button", name="Envoyer").click()
        expect(phone.locator(".entry-panel .message")).to_contain_text("Bulletin reçu : 15 points.")
        page.fill("#top", top)
        page.get_by_role("button", name="Placer le top").click()
        expect(page.locator("#top-score")).to_have_text(top_score)
        for name, score in scores.items():
            row = page.locator("tr", has_text=name)
            row.locator("input[name=score]").fill(score)
            row.locator("input[name=score]").press("Enter")
            saved = page.locator("tr", has_text=name).locator("input[name=score]")
            expect(saved).to_have_class("saved")  # back from the server: its value is there at once, proving nothing
            expect(saved).to_have_value(score)
        phone.goto(f"/duplicate/joueur/{bruno.key}/")
        # His total is the room's: the moves closed, this one counting at the next draw.
        expect(phone.locator("#my-total")).to_have_text(str(15 * (number - 1)))
        expect(phone.locator("#my-total-note")).to_have_text(
            f"Le coup {number} compte à sa clôture, au tirage suivant."
        )
        expect(phone.locator(".entry-panel .hint")).to_have_text(
            "Le top est révélé : seul l'arbitre peut encore changer votre score."
        )

    # The ranking counts the moves closed: the last one closes with the session.
    page.get_by_role("button", name="Terminer la séance").click()
    expect(page.locator(".messages")).to_contain_text("La séance est terminée")
    phone.goto(f"/duplicate/joueur/{bruno.key}/")
    expect(phone.locator("#my-total")).to_have_text("45")
    page.get_by_role("link", name="Classement", exact=True).click()
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
    expect(page.locator(".error").first).to_contain_text("Ligne 2 : la table 1 est déjà celle de la ligne 1.")
    assert Session.objects.count() == 0
    page.fill("#id_players", "1;Anne\n2;Bruno")
    page.get_by_role("button", name="Créer la séance").click()
    session = Session.objects.get(creator=organiser)
    expect(page).to_have_url(f"/duplicate/{session.pk}/")
    assert (session.date, session.players.count()) == (datetime.date.today(), 2)


def test_a_refused_bulletin_says_why_in_its_row_and_marks_do_only_what_they_say(page, alice, lyon):
    """Trial of issue 10: a score above the top was dropped without a word, and "0" or "−5" also set "Avert."."""
    organiser = log_in_as(page, alice)
    session = club_session(organiser, lyon)
    page.goto(f"/duplicate/{session.pk}/")
    page.fill("#draw", "VAGUEST")
    page.get_by_role("button", name="Saisir ce tirage").click()
    page.fill("#top", "H4 VAGUE")
    page.get_by_role("button", name="Placer le top").click()
    expect(page.locator("#top-score")).to_have_text("26")

    anne = page.locator("tr", has_text="Anne")
    anne.locator("input[name=score]").fill("30")
    anne.locator("input[name=score]").press("Enter")
    expect(page.locator("tr", has_text="Anne").locator(".error")).to_have_text(
        "Score supérieur au top : faute de frappe ?"
    )
    expect(page.locator("tr", has_text="Anne").locator("input[name=score]")).to_have_value("30")
    assert not session.rounds.get().results.exists()

    page.locator("tr", has_text="Bruno").get_by_role("button", name="0", exact=True).click()
    expect(page.locator("tr", has_text="Bruno").locator("input[name=score]")).to_have_value("0")
    expect(page.locator("tr", has_text="Bruno").get_by_role("button", name="Avert.")).not_to_have_class("on")
    page.locator("tr", has_text="Chloé").get_by_role("button", name="−5").click()
    expect(page.locator("tr", has_text="Chloé").get_by_role("button", name="−5")).to_have_class("on")
    expect(page.locator("tr", has_text="Chloé").get_by_role("button", name="Avert.")).not_to_have_class("on")
    result = session.rounds.get().results.get(player__name="Chloé")
    assert (result.penalty, result.warning) == (5, False)


def test_a_top_the_draw_cannot_make_is_refused_on_the_grid_with_the_reason(page, alice, lyon):
    organiser = log_in_as(page, alice)
    session = club_session(organiser, lyon)
    round_add(session=session, draw_text="VAGUEST")
    page.goto(f"/duplicate/{session.pk}/grille/")
    touch(page, "H8")
    type_letters(page, "zoo", total=24)
    page.get_by_role("button", name="Placer ce top").click()
    expect(page.locator("#grid-result .error")).to_have_text("Le top H8 ZOO ne se joue pas avec le tirage VAGUEST.")


def test_twenty_bulletins_at_the_keyboard(page, alice, lyon):
    """Issue 11: table, Enter, score or move, Enter, typed ahead without waiting for the server (a trial lost and
    mixed bulletins that way); a refused bulletin stays in the log."""
    organiser = log_in_as(page, alice)
    session = club_session(organiser, lyon, players=[f"Joueur {n}" for n in range(1, 21)])
    round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    page.goto(f"/duplicate/{session.pk}/")
    expect(page.locator("#bulletin-count")).to_contain_text("0/20 bulletins")
    expect(page.locator("#bulletin-table")).to_be_focused()
    page.keyboard.type("21\n10\n")
    for table in range(1, 21):
        page.keyboard.type(f"{table}\n{'h4 vague' if table == 7 else table}\n")
    expect(page.locator("#bulletin-count")).to_have_text("20/20 bulletins")
    expect(page.locator("#bulletin-log .error")).to_have_text(
        "Table 21, « 10 » non enregistré. Aucun joueur à la table 21. (↑ dans la case Table le rappelle)"
    )
    expect(page.locator("tr", has_text="Joueur 7").locator("input[name=score]")).to_have_value("26")
    scores = dict(session.rounds.get().results.values_list("player__table", "score"))
    assert scores == {table: 26 if table == 7 else table for table in range(1, 21)}


def test_a_typed_score_looks_unsaved_until_the_row_comes_back_saved(page, alice, lyon):
    organiser = log_in_as(page, alice)
    session = club_session(organiser, lyon)
    round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    page.goto(f"/duplicate/{session.pk}/")
    score = page.locator("tr", has_text="Anne").locator("input[name=score]")
    score.fill("20")
    expect(score).to_have_class("dirty")
    score.press("Enter")
    expect(page.locator("tr", has_text="Anne").locator("input[name=score]")).to_have_class("saved")


def test_a_bulletin_of_move_1_corrected_during_move_3(page, alice, lyon):
    """Issue 11: a move's results stay correctable after the next draws; the ranking follows."""
    organiser = log_in_as(page, alice)
    session = club_session(organiser, lyon)
    first = round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    anne = session.players.get(name="Anne")
    result_set(round_=first, player=anne, score=20)
    round_add(session=session, draw_text="ST+AIONX", top_text="4G AVIONS")
    round_add(session=session, draw_text="TX+EEMNR")
    page.goto(f"/duplicate/{session.pk}/")
    expect(page.locator("#results-title")).to_contain_text("Résultats du coup 3")
    page.locator(".board-panel table").get_by_role("link", name="1", exact=True).click()
    expect(page.locator("#results-title")).to_contain_text("Résultats du coup 1")
    row = page.locator("tr", has_text="Anne")
    expect(row.locator("input[name=score]")).to_have_value("20")
    row.locator("input[name=score]").fill("26")
    row.locator("input[name=score]").press("Enter")
    expect(page.locator("tr", has_text="Anne").locator("input[name=score]")).to_have_class("saved")
    assert first.results.get(player=anne).score == 26
    page.goto(f"/duplicate/classement/{session.public_key}/")
    expect(page.locator("table.ranking tbody tr").first).to_contain_text("Anne")
    expect(page.locator("table.ranking tbody tr").first.locator("td").nth(2)).to_have_text("26")


@pytest.mark.parametrize("viewport", [{"width": 1920, "height": 1080}, {"width": 1280, "height": 720}])
def test_the_room_screen_through_a_move(page, browser, live_server, viewport, alice, lyon):
    """Issue 11: the projector follows the arbiter by itself: the draw, then the top, then the ranking."""
    organiser = log_in_as(page, alice)
    session = club_session(organiser, lyon)
    room = browser.new_context(base_url=live_server.url, viewport=viewport).new_page()
    room.goto(f"/duplicate/salle/{session.public_key}/")
    expect(room.locator(".room-number")).to_have_text("En attente du premier tirage")
    first = round_add(session=session, draw_text="VAGUEST")
    expect(room.locator(".room-draw")).to_contain_text("VAGUEST", timeout=6000)
    result_set(round_=first, player=session.players.get(name="Anne"), score=26)
    round_set_top(round_=first, top_text="H4 VAGUE")
    expect(room.locator(".room-top")).to_have_text("H4 VAGUE 26 points", timeout=6000)
    expect(room.locator(".room-ranking tbody tr").first.locator("td").nth(2)).to_have_text("0")
    round_add(session=session, draw_text="ST+AIONX")
    expect(room.locator(".room-ranking tbody tr").first).to_contain_text("Anne", timeout=6000)
    expect(room.locator(".room-ranking tbody tr").first.locator("td").nth(2)).to_have_text("26")
    assert room.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    room.screenshot(path=f"docs/screenshots/duplicate-room-{viewport['width']}.png")
    room.context.close()


def test_exports_are_buttons_and_a_large_sessions_file_is_prepared_once(page, settings, alice, lyon):
    """Issue 12: the exports are POST buttons; a large session's file is prepared by the worker (run eagerly
    here), its page offers the download, and pressing the button again finds the same file."""
    organiser = log_in_as(page, alice)
    session = club_session(organiser, lyon)
    round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    page.goto(f"/duplicate/{session.pk}/")
    with page.expect_download() as small:
        page.get_by_role("button", name="CSV", exact=True).click()
    assert small.value.suggested_filename == "2026-11-24-mardi-soir.csv"

    settings.DUPLICATE_EXPORT_INLINE_MAX_PLAYERS = 2
    page.get_by_role("button", name="Fichier fédéral").click()
    expect(page.locator("#export-status")).to_contain_text("Le fichier est prêt.")
    with page.expect_download() as large:
        page.get_by_role("link", name="Télécharger").click()
    assert large.value.suggested_filename == "2026-11-24-mardi-soir-federation.csv"
    first = page.url
    page.goto(f"/duplicate/{session.pk}/export/federation/")
    page.get_by_role("button", name="Préparer le fichier (Fichier fédéral)").click()
    expect(page).to_have_url(first)
    assert session.export_jobs.count() == 1


@pytest.mark.parametrize("viewport", [PHONE])
def test_the_arbiter_corrects_a_players_licence_club_and_series_on_a_phone(page, alice, lyon):
    """Issue 16: a player's licence, club and series are corrected after the session is created; a licence
    that is not letters and digits is refused in his row, with what was typed kept."""
    organiser = log_in_as(page, alice)
    session = club_session(organiser, lyon)
    page.goto(f"/duplicate/{session.pk}/")
    page.get_by_text("Gérer les joueurs").click()
    page.get_by_label("Licence de Bruno").fill("B4242")
    page.get_by_label("Club de Bruno").fill("Paris Rive Gauche")
    page.get_by_label("Série de Bruno").fill("N2")
    page.locator("form", has=page.get_by_label("Licence de Bruno")).get_by_role("button", name="Enregistrer").click()
    expect(page.locator(".messages")).to_have_text("Bruno : modifications enregistrées.")
    expect(page.locator("#gerer-joueurs")).to_have_attribute("open", "")  # kept open for the next player
    expect(page.get_by_label("Licence de Bruno")).to_have_value("B4242")
    expect(page.get_by_label("Club de Bruno")).to_have_value("Paris Rive Gauche")
    expect(page.get_by_label("Série de Bruno")).to_have_value("N2")

    page.get_by_label("Licence de Chloé").fill("12-34")
    page.locator("form", has=page.get_by_label("Licence de Chloé")).get_by_role("button", name="Enregistrer").click()
    row = page.locator("form", has=page.get_by_label("Licence de Chloé"))
    expect(row.get_by_role("alert")).to_have_text("Une licence ne compte que des lettres et des chiffres, sans espace.")
    expect(page.get_by_label("Licence de Chloé")).to_have_value("12-34")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.locator("details.add-players").first.screenshot(path="docs/screenshots/duplicate-players-phone.png")
    assert session.players.get(name="Chloé").licence == ""


def test_a_pasted_list_with_bad_lines_comes_back_to_be_corrected(page, alice, lyon):
    """Trial of issue 16: only the first bad line was said, and the pasted list was gone with it."""
    organiser = log_in_as(page, alice)
    session = club_session(organiser, lyon)
    page.goto(f"/duplicate/{session.pk}/")
    page.get_by_text("Ajouter des joueurs").click()
    pasted = "4;Denis\nx;Élise\n5;Fanny;12-34"
    page.fill("#players", pasted)
    page.get_by_role("button", name="Ajouter", exact=True).click()
    expect(page.locator("#players-error")).to_have_text(
        "Ligne 2 : « x » n'est pas un numéro de table."
        "Ligne 3 : la licence « 12-34 » ne compte que des lettres et des chiffres (20 au plus)."
    )
    expect(page.locator("#players")).to_have_value(pasted)
    expect(page.locator("#players")).to_be_focused()
    page.fill("#players", "4;Denis\n5;Élise\n6;Fanny;1234")
    page.get_by_role("button", name="Ajouter", exact=True).click()
    expect(page.locator(".messages")).to_contain_text("3 joueurs ajoutés.")
    assert list(session.players.order_by("table").values_list("name", flat=True)) == [
        "Anne",
        "Bruno",
        "Chloé",
        "Denis",
        "Élise",
        "Fanny",
    ]
