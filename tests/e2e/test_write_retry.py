"""Issue 13 in Chromium: a score the server could not write (its database restarting answers 503; the network
dropping answers nothing) is sent once more by the page itself; failing again, the entry says it is not saved, keeps
what was typed, and is saved when sent again. The answers are cut here by the browser's routing; .ci/run cuts the
real database's connections under real writes."""

import pytest
from playwright.sync_api import expect

from duplicate.services.results import result_set
from duplicate.services.rounds import round_add
from tests.duplicate.conftest import make_session

from .conftest import PHONE, club_session, htmx_settled, log_in_as, next_poll

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

UNAVAILABLE = "La base de données ne répond pas : cette demande n'a pas abouti. Réessayez dans un instant."


class Outage:
    """Answer the first `failures` requests to the address with a 503 as the server gives it (or cut them when
    `network`), then let the rest through; counts every request."""

    def __init__(self, page, pattern, failures, network=False, methods=("POST",)):
        self.requests = 0
        self.failures = failures
        self.network = network
        self.methods = methods
        page.route(pattern, self.handle)

    def handle(self, route):
        if route.request.method not in self.methods:
            route.continue_()
            return
        self.requests += 1
        if self.requests > self.failures:
            route.continue_()
        elif self.network:
            route.abort("connectionreset")
        else:
            body = f'<p class="error" role="alert">{UNAVAILABLE}</p>'
            route.fulfill(status=503, body=body, headers={"Retry-After": "2", "Content-Type": "text/html"})


@pytest.fixture
def console(page, alice, lyon):
    organiser = log_in_as(page, alice)
    session = club_session(organiser, lyon)
    round_ = round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    page.goto(f"/duplicate/{session.pk}/")
    return session, round_


def score_box(page, name):
    return page.locator("tr", has_text=name).locator("input[name=score]")


def test_a_score_refused_once_is_sent_again_and_saved(page, console):
    session, round_ = console
    outage = Outage(page, "**/coups/1/resultats/*/", failures=1)
    score_box(page, "Anne").fill("20")
    score_box(page, "Anne").press("Enter")
    expect(score_box(page, "Anne")).to_have_class("saved")
    assert outage.requests == 2
    assert round_.results.get(player__name="Anne").score == 20
    expect(page.locator(".unsaved-note")).to_have_count(0)


def test_a_score_refused_twice_says_it_is_not_saved_until_sent_again(page, console):
    session, round_ = console
    outage = Outage(page, "**/coups/1/resultats/*/", failures=2)
    score_box(page, "Anne").fill("20")
    score_box(page, "Anne").press("Enter")
    row = page.locator("tr", has_text="Anne")
    expect(row.locator(".unsaved-note")).to_have_text(f"Non enregistré. {UNAVAILABLE}")
    assert outage.requests == 2
    expect(score_box(page, "Anne")).to_have_value("20")
    expect(score_box(page, "Anne")).to_have_class("dirty")
    assert not round_.results.exists()
    # The arbiter's penalty button on the same row is not lost either: sent again with its own value.
    score_box(page, "Anne").press("Enter")
    expect(score_box(page, "Anne")).to_have_class("saved")
    expect(row.locator(".unsaved-note")).to_have_count(0)
    assert round_.results.get(player__name="Anne").score == 20


def test_a_mark_refused_once_is_sent_again_with_its_value(page, console):
    session, round_ = console
    result_set(round_=round_, player=session.players.get(name="Bruno"), score=26)
    page.reload()
    outage = Outage(page, "**/coups/1/resultats/*/", failures=1)
    page.locator("tr", has_text="Bruno").get_by_role("button", name="Avert.").click()
    expect(page.locator("tr", has_text="Bruno").get_by_role("button", name="Avert.")).to_have_attribute(
        "aria-pressed", "true"
    )
    assert outage.requests == 2
    assert round_.results.get(player__name="Bruno").warning is True


def test_a_bulletin_refused_twice_is_logged_as_not_saved(page, console):
    session, round_ = console
    outage = Outage(page, "**/bulletin/", failures=2)
    page.keyboard.type("1\n20\n")
    expect(page.locator("#bulletin-log .error")).to_have_text(
        "Table 1, « 20 » non enregistré. " + UNAVAILABLE + " (↑ dans la case Table le rappelle)"
    )
    assert outage.requests == 2
    assert not round_.results.exists()
    page.keyboard.type("1\n20\n")  # the third goes through
    expect(page.locator("#bulletin-count")).to_contain_text("1/3 bulletins")
    assert round_.results.get(player__name="Anne").score == 20


def test_a_sheet_cell_cut_once_is_sent_again(page, console):
    session, round_ = console
    page.goto(f"/duplicate/{session.pk}/feuille/")
    outage = Outage(page, "**/feuille/**", failures=1, network=True)
    cell = page.get_by_label("Coup 1, Bruno")
    cell.fill("26")
    cell.press("Tab")
    expect(page.get_by_label("Coup 1, Bruno")).to_have_class("saved")
    assert outage.requests == 2
    assert round_.results.get(player__name="Bruno").score == 26


def test_a_phone_entry_cut_twice_keeps_what_was_typed_through_the_page_refreshes(browser, live_server, alice):
    session = make_session(alice, None, ("Anne", "Bruno"))
    round_ = round_add(session=session, draw_text="VAGUEST")
    anne = session.players.get(name="Anne")
    phone = browser.new_context(base_url=live_server.url, viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    phone.goto(f"/duplicate/joueur/{anne.key}/")
    outage = Outage(phone, f"**/joueur/{anne.key}/", failures=2, network=True)
    phone.get_by_label("Mon score").fill("18")
    phone.get_by_role("button", name="Envoyer").click()
    note = phone.locator(".phone-entry + .unsaved-note")
    expect(note).to_have_text("Non enregistré. Le serveur ne répond pas : vérifiez la connexion, puis renvoyez-le.")
    assert outage.requests == 2
    # The arbiter's next step refreshes the phone's page (its poll): the unsaved entry stays as typed.
    result_set(round_=round_, player=session.players.get(name="Bruno"), score=10)
    next_poll(phone, f"/duplicate/joueur/{anne.key}/")
    expect(phone.get_by_label("Mon score")).to_have_value("18")
    expect(note).to_be_visible()
    htmx_settled(phone)
    phone.get_by_role("button", name="Envoyer").click()
    expect(phone.locator(".message[role=status]")).to_contain_text("Bulletin reçu : 18 points.")
    expect(phone.locator(".unsaved-note")).to_have_count(0)
    assert round_.results.get(player=anne).score == 18
    phone.context.close()


def test_a_sheet_cell_unsaved_is_sent_again_by_enter_without_retyping(page, console):
    """Issue 13's trial: the cell is sent on "change", and the same text typed again changed nothing."""
    session, round_ = console
    page.goto(f"/duplicate/{session.pk}/feuille/")
    outage = Outage(page, "**/feuille/**", failures=2)
    cell = page.get_by_label("Coup 1, Bruno")
    cell.fill("26")
    cell.press("Enter")
    expect(page.locator(".unsaved-note")).to_have_text(f"Non enregistré. {UNAVAILABLE}")
    assert outage.requests == 2
    page.get_by_label("Coup 1, Bruno").focus()
    page.get_by_label("Coup 1, Bruno").press("Enter")
    expect(page.get_by_label("Coup 1, Bruno")).to_have_class("saved")
    expect(page.locator(".unsaved-note")).to_have_count(0)
    assert round_.results.get(player__name="Bruno").score == 26


def test_a_bulletin_lost_to_the_network_names_its_table_and_entry(page, console):
    session, round_ = console
    Outage(page, "**/bulletin/", failures=2, network=True)
    page.keyboard.type("2\nh4 vague\n")
    expect(page.locator("#bulletin-log .error")).to_have_text(
        "Table 2, « h4 vague » non enregistré. Le serveur ne répond pas. (↑ dans la case Table le rappelle)"
    )
    page.locator("#bulletin-table").press("ArrowUp")
    expect(page.locator("#bulletin-entry")).to_have_value("h4 vague")


def test_a_console_button_answered_503_says_so_beside_itself(page, console):
    """Issue 13's trial: "Tirer" answered 503 five times and nothing showed on the page."""
    session, round_ = console
    Outage(page, f"**/duplicate/{session.pk}/coups/", failures=1)
    page.get_by_label("Tirage saisi").fill("ST+AIONX")
    page.get_by_role("button", name="Saisir ce tirage").click()
    expect(page.locator(".request-error")).to_have_text(UNAVAILABLE)
    assert session.rounds.count() == 1
    page.get_by_role("button", name="Saisir ce tirage").click()  # the second goes through
    expect(page.locator(".request-error")).to_have_count(0)
    expect(page.locator("#results-title")).to_have_text("Résultats du coup 2")
    assert session.rounds.count() == 2


def test_a_page_that_refreshes_itself_says_when_the_server_stops_answering(page, console):
    session, round_ = console
    Outage(page, "**/suivi/**", failures=1, network=True, methods=("GET",))  # the console's poll, every 3 s
    expect(page.locator("#connection-lost")).to_have_text(
        "Le serveur ne répond plus : cette page se remettra à jour dès qu’il répondra.", timeout=8000
    )
    expect(page.locator("#connection-lost")).to_have_count(0, timeout=8000)
