"""Issue 11 in Chromium: the whole game as one sheet (a cell of move 1 corrected during move 3), the recap as it
prints, the player's phone page following the arbiter by itself, and bulletins for players without a table."""

import pytest
from playwright.sync_api import expect

from duplicate.services.results import result_set
from duplicate.services.rounds import round_add, round_set_top, timer_start

from .conftest import PHONE, club_session, htmx_settled, log_in_as, next_poll

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def footer_cells(page, label):
    return page.locator("#game-sheet tfoot tr", has_text=label).locator("td")


def test_a_cell_of_move_1_corrected_on_the_sheet_during_move_3(page, alice, lyon):
    organiser = log_in_as(page, alice)
    session = club_session(organiser, lyon)
    anne, bruno, _chloe = session.players.all()
    first = round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    result_set(round_=first, player=anne, score=20)
    result_set(round_=first, player=bruno, score=26)
    round_add(session=session, draw_text="ST+AIONX", top_text="4G AVIONS")
    round_add(session=session, draw_text="TX+EEMNR")
    page.goto(f"/duplicate/{session.pk}/")
    page.get_by_role("link", name="Feuille (tous les coups)").click()
    expect(footer_cells(page, "Total").nth(1)).to_have_text("20")  # the tops' total, then Anne
    expect(footer_cells(page, "Place").nth(0)).to_have_text("2")
    cell = page.get_by_label("Coup 1, Anne")
    expect(cell).to_have_class("saved")
    cell.fill("h4 vague")
    expect(cell).to_have_class("dirty")
    cell.press("Enter")  # sent, and down to Anne's move 2, as in a spreadsheet
    expect(page.locator("#sheet-status")).to_have_text("Coup 1, Anne : 26.")
    expect(page.get_by_label("Coup 2, Anne")).to_be_focused()
    expect(footer_cells(page, "Total").nth(1)).to_have_text("26")
    expect(footer_cells(page, "Place").nth(0)).to_have_text("1")
    expect(page.get_by_label("Coup 1, Anne")).to_have_class("saved")
    # A refusal stays on its cell, with what was typed and the reason; the saved score is untouched.
    page.get_by_label("Coup 2, Anne").fill("99")
    page.get_by_label("Coup 2, Anne").press("Tab")
    expect(page.locator("#cell-error")).to_have_text("Score supérieur au top : faute de frappe ?")
    expect(page.get_by_label("Coup 2, Anne")).to_have_value("99")
    expect(page.get_by_label("Coup 2, Anne")).to_have_class("failed")
    assert not anne.results.filter(round__number=2).exists()
    assert first.results.get(player=anne).move == "H4 VAGUE"


def test_the_recap_prints_without_menus_or_buttons(page, alice, lyon):
    organiser = log_in_as(page, alice)
    session = club_session(organiser, lyon)
    first = round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    result_set(round_=first, player=session.players.get(name="Anne"), score=26)
    page.goto(f"/duplicate/{session.pk}/recapitulatif/")
    expect(page.locator(".recap-moves tbody tr").first).to_have_text("1VAGUESTVAGUEH426Anne")
    expect(page.get_by_role("button", name="Imprimer")).to_be_visible()
    page.emulate_media(media="print")
    expect(page.locator(".site-header")).to_be_hidden()
    expect(page.get_by_role("button", name="Imprimer")).to_be_hidden()
    expect(page.locator(".recap-scores tbody tr").first).to_be_visible()
    pdf = page.pdf(format="A4")
    assert pdf.startswith(b"%PDF") and pdf.count(b"/Type /Page\n") + pdf.count(b"/Type /Page ") <= 2


def test_a_club_member_reviews_a_session_read_only(page, alice, bob, lyon):
    session = club_session(alice, lyon)
    log_in_as(page, bob)
    round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    page.goto("/duplicate/")
    page.get_by_role("link", name="Mardi soir").click()
    expect(page).to_have_url(f"/duplicate/{session.pk}/recapitulatif/")
    expect(page.locator("h1")).to_have_text("Mardi soir")
    expect(page.locator("main form")).to_have_count(0)  # nothing to change
    page.goto(f"/duplicate/{session.pk}/")
    expect(page).to_have_url(f"/duplicate/{session.pk}/recapitulatif/")


def test_the_phone_page_follows_the_arbiter_by_itself(browser, live_server, alice, lyon):
    session = club_session(alice, lyon)
    anne = session.players.get(name="Anne")
    phone = browser.new_context(base_url=live_server.url, viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    phone.goto(f"/duplicate/joueur/{anne.key}/")
    expect(phone.locator(".phase")).to_have_text("En attente du premier tirage")
    first = round_add(session=session, draw_text="VAGUEST")
    timer_start(session=session)
    expect(phone.locator(".phase")).to_have_text("Coup 1 · Réflexion", timeout=6000)
    expect(phone.locator(".entry-panel .draw")).to_have_text("VAGUEST")
    phone.get_by_label("Mon score").fill("2")
    # Another player's bulletin does not redraw the page: what Anne is typing stays.
    result_set(round_=first, player=session.players.get(name="Bruno"), score=18)
    next_poll(phone, f"/duplicate/joueur/{anne.key}/")
    expect(phone.get_by_label("Mon score")).to_have_value("2")
    phone.get_by_label("Mon score").fill("22")
    phone.get_by_role("button", name="Envoyer").click()
    expect(phone.locator(".message")).to_have_text("Bulletin reçu : 22 points. Vous pouvez le corriger jusqu'au top.")
    round_set_top(round_=first, top_text="H4 VAGUE")
    expect(phone.locator("#against-top")).to_have_text("Votre score : 22 sur 26 (-4)", timeout=6000)
    expect(phone.get_by_label("Mon score")).to_have_count(0)
    expect(phone.locator(".board .cell.new")).to_have_count(5)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    phone.screenshot(path="docs/screenshots/duplicate-player-phone.png", full_page=True)
    phone.context.close()


def test_bulletins_for_players_without_a_table_at_the_keyboard(page, alice, lyon):
    organiser = log_in_as(page, alice)
    session = club_session(organiser, lyon, players=[(None, "Éloïse Martin"), (None, "Marc Roux"), (1, "Anne")])
    round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    page.goto(f"/duplicate/{session.pk}/")
    expect(page.get_by_label("Table ou nom")).to_be_focused()
    page.keyboard.type("eloi\n20\nmarc\nh4 vague\n1\n26\n")
    expect(page.locator("#bulletin-count")).to_have_text("3/3 bulletins")
    htmx_settled(page)
    expect(page.locator("#bulletin-log li").first).to_have_text("Table 1, Anne : 26.")
    scores = dict(session.rounds.get().results.values_list("player__name", "score"))
    assert scores == {"Éloïse Martin": 20, "Marc Roux": 26, "Anne": 26}


def test_a_phone_entry_sent_after_the_top_is_revealed_is_refused(browser, live_server, alice, lyon):
    """The phone still shows the form (its poll has not come back yet) when the arbiter reveals the top: the score
    sent then is refused with the reason, and nothing is saved."""
    session = club_session(alice, lyon)
    anne = session.players.get(name="Anne")
    first = round_add(session=session, draw_text="VAGUEST")
    phone = browser.new_context(base_url=live_server.url, viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    phone.route("**/duplicate/joueur/*/?etat=*", lambda route: route.fulfill(status=204))  # a poll not yet back
    phone.goto(f"/duplicate/joueur/{anne.key}/")
    phone.get_by_label("Mon score").fill("22")
    round_set_top(round_=first, top_text="H4 VAGUE")
    phone.get_by_role("button", name="Envoyer").click()
    expect(phone.locator(".error")).to_have_text("Le top est révélé : seul l'arbitre peut encore changer votre score.")
    expect(phone.locator(".phase")).to_have_text("Coup 1 · Top révélé")
    assert not first.results.exists()
    phone.context.close()


def test_a_finished_session_refuses_a_bulletin_from_a_stale_tab_until_reopened(page, browser, live_server, alice, lyon):
    organiser = log_in_as(page, alice)
    session = club_session(organiser, lyon)
    round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    stale = page.context.new_page()  # the same arbiter's second tab, opened before the end
    stale.goto(f"/duplicate/{session.pk}/")
    page.goto(f"/duplicate/{session.pk}/")
    page.get_by_role("button", name="Terminer la séance").click()  # the confirmation is accepted
    expect(page.locator(".messages")).to_contain_text("La séance est terminée")
    expect(page.get_by_role("button", name="Rouvrir la séance")).to_be_visible()
    expect(page.locator("#bulletin-form")).to_have_count(0)
    stale.keyboard.type("1\n20\n")
    expect(stale.locator("#bulletin-log .error")).to_have_text(
        "Table 1, « 20 » non enregistré. La séance est terminée : rouvrez-la pour la modifier."
        " (↑ dans la case Table le rappelle)"
    )
    assert not session.rounds.get().results.exists()
    # The Up arrow calls the refused bulletin back, to be sent again once the session is reopened.
    stale.keyboard.press("ArrowUp")
    expect(stale.locator("#bulletin-table")).to_have_value("1")
    expect(stale.locator("#bulletin-entry")).to_have_value("20")
    expect(stale.locator("#bulletin-entry")).to_be_focused()
    page.get_by_role("button", name="Rouvrir la séance").click()
    expect(page.locator(".messages")).to_contain_text("La séance est rouverte")
    stale.keyboard.press("Enter")
    expect(stale.locator("#bulletin-log li").first).to_have_text("Table 1, Anne : 20.")


@pytest.mark.parametrize("viewport", [{"width": 1920, "height": 1080}, {"width": 1280, "height": 720}])
def test_the_room_screen_fits_the_projector_with_25_players(browser, live_server, viewport, alice, lyon):
    """Trial of issue 11: at 1920 × 1080 the grid's last rows and ranking rows 16 to 20 were below the screen,
    and no page ever brought them in."""
    session = club_session(alice, lyon, players=[f"Joueur {n}" for n in range(1, 26)])
    first = round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    for n, player in enumerate(session.players.all()):
        result_set(round_=first, player=player, score=n)
    round_add(session=session, draw_text="ST+AIONX")
    room = browser.new_context(base_url=live_server.url, viewport=viewport).new_page()
    room.goto(f"/duplicate/salle/{session.public_key}/")
    assert room.evaluate("document.documentElement.scrollHeight") <= viewport["height"]
    board = room.locator(".room-board").bounding_box()
    assert board["y"] + board["height"] <= viewport["height"]
    rows = room.locator(".room-ranking tbody tr")
    shown = rows.filter(visible=True)
    first_page = shown.count()
    assert 5 <= first_page < 25
    last_row = shown.last.bounding_box()
    assert last_row["y"] + last_row["height"] <= viewport["height"]
    pages = -(-25 // first_page)
    expect(room.locator(".room-page-count")).to_have_text(f"1/{pages} ·")
    expect(room.locator(".room-page-count")).to_have_text(f"2/{pages} ·", timeout=10000)  # the next page, by itself
    expect(rows.first).to_be_hidden()
    room.context.close()


def test_the_console_shows_the_scores_players_send_from_their_phones(page, browser, live_server, alice, lyon):
    """Trial of issue 11: in a session where both enter scores, the console kept "0/20 bulletins" and empty
    cells while the players' own scores came in, until reloaded."""
    organiser = log_in_as(page, alice)
    session = club_session(organiser, lyon)
    round_add(session=session, draw_text="VAGUEST")
    page.goto(f"/duplicate/{session.pk}/")
    expect(page.locator("#bulletin-count")).to_contain_text("0/3 bulletins")
    chloe_score = page.locator("tr", has_text="Chloé").locator("input[name=score]")
    chloe_score.fill("1")  # the arbiter is typing in Chloé's row: the poll leaves it alone
    phone = browser.new_context(base_url=live_server.url, viewport=PHONE, is_mobile=True).new_page()
    for name, score in (("Anne", "22"), ("Chloé", "18")):
        phone.goto(f"/duplicate/joueur/{session.players.get(name=name).key}/")
        phone.get_by_label("Mon score").fill(score)
        phone.get_by_role("button", name="Envoyer").click()
        expect(phone.locator(".message")).to_contain_text(f"Bulletin reçu : {score} points.")
    expect(page.locator("#bulletin-count")).to_contain_text("2/3 bulletins", timeout=8000)
    expect(page.locator("tr", has_text="Anne").locator("input[name=score]")).to_have_value("22")
    expect(chloe_score).to_have_value("1")
    phone.context.close()


def test_a_phone_entry_worth_nothing_says_why_and_a_typo_stays_in_its_box(browser, live_server, alice, lyon):
    """Trial of issue 11: "A1 PARIENT" got "Bulletin reçu : 0 points" and nothing more; "abc" was refused above
    the card with the box emptied."""
    session = club_session(alice, lyon)
    round_add(session=session, draw_text="VAGUEST")
    phone = browser.new_context(base_url=live_server.url, viewport=PHONE, is_mobile=True).new_page()
    phone.goto(f"/duplicate/joueur/{session.players.get(name='Anne').key}/")
    phone.get_by_label("Mon score").fill("abc")
    phone.get_by_role("button", name="Envoyer").click()
    expect(phone.locator("#entry-error")).to_have_text("Un score s'écrit en chiffres.")
    expect(phone.get_by_label("Mon score")).to_have_value("abc")
    phone.get_by_label("Mon score").fill("")
    phone.get_by_label("ou mon coup").fill("H8 VAGUEZ")
    phone.get_by_role("button", name="Envoyer").click()
    expect(phone.locator(".message")).to_have_text(
        "Bulletin reçu : 0 point. Ce coup ne se joue pas avec le tirage VAGUEST. Vous pouvez le corriger jusqu'au top."
    )
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    phone.context.close()


def test_a_phone_entry_is_answered_in_place_and_still_goes_without_javascript(browser, live_server, alice, lyon):
    """Issue 12: the entry is sent by htmx and answered with the page's region, one request instead of a redirect
    and the whole page again; a phone without JavaScript sends the same form and gets the page back."""
    session = club_session(alice, lyon)
    round_add(session=session, draw_text="VAGUEST")
    anne, bruno = session.players.get(name="Anne"), session.players.get(name="Bruno")
    phone = browser.new_context(base_url=live_server.url, viewport=PHONE, is_mobile=True).new_page()
    phone.goto(f"/duplicate/joueur/{anne.key}/")
    phone.evaluate("window.pageKept = true")
    phone.get_by_label("Mon score").fill("22")
    phone.get_by_role("button", name="Envoyer").click()
    expect(phone.locator(".message")).to_contain_text("Bulletin reçu : 22 points.")
    assert phone.evaluate("window.pageKept === true")  # the same page: its region swapped, not reloaded
    assert anne.results.get().score == 22
    without_js = browser.new_context(base_url=live_server.url, viewport=PHONE, java_script_enabled=False).new_page()
    without_js.goto(f"/duplicate/joueur/{bruno.key}/")
    without_js.get_by_label("Mon score").fill("18")
    without_js.get_by_role("button", name="Envoyer").click()
    expect(without_js.locator(".message")).to_contain_text("Bulletin reçu : 18 points.")
    assert bruno.results.get().score == 18
    phone.context.close()
    without_js.context.close()


def test_a_long_name_keeps_the_sheets_header_short_on_a_phone(page, alice, lyon):
    """Trial of issue 16: an 80-character name stretched the sheet's header over a screen's height on a phone."""
    organiser = log_in_as(page, alice)
    long_name = "Marie-Charlotte Éléonore de la Tour d'Auvergne-Lauragais et Saint-Georges-de-Reneins"[:80]
    session = club_session(organiser, lyon, players=("Anne", long_name))
    round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    page.set_viewport_size(PHONE)
    page.goto(f"/duplicate/{session.pk}/feuille/")
    head = page.locator("#game-sheet thead")
    expect(head).to_contain_text("Marie-Charlotte")
    assert head.bounding_box()["height"] < 110
    assert page.locator(".head-name", has_text="Marie-Charlotte").get_attribute("title") == long_name
