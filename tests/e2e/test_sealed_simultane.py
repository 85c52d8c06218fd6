"""Issue 22 in Chromium: a simultané of three rooms, Lyon's ahead. Charlie, a member of Lyon's club who runs
Grenoble's slower room, opens every page of Lyon's room for its moves ahead: each answers as a page that does not
exist, until the district's organiser closes the ranking; then each opens, "Rejouer cette séance" included."""

import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from clubsite.models import Club, Membership
from duplicate.models import Simultane
from duplicate.services import simultanes
from duplicate.services.rounds import round_add, round_reveal_top
from duplicate.services.sessions import session_finish
from tests.conftest import make_member

from .conftest import log_in_as
from .test_simultane import districts_simultane

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def without_csrf(html: str) -> str:
    """A page but for its CSRF tokens, which differ on every page."""
    return re.sub(r'("X-CSRFToken": "|name="csrfmiddlewaretoken" value=")[^"]*', r"\1", html)


def club(name, slug, organiser):
    club = Club.objects.create(name=name, slug=slug)
    Membership.objects.create(club=club, user=organiser, role=Membership.Role.ORGANISER)
    return club


def test_a_room_ahead_stays_sealed_from_a_member_of_its_club_who_runs_a_slower_room(
    page, browser, live_server, alice, charlie, lyon, grenoble, give_role
):
    eve, simultane = districts_simultane(page, "Simultané des Alpes")
    dave = make_member("dave")  # Annecy's organiser, as in the duplicate tests
    annecy = club("Club d'Annecy", "annecy", dave)
    charlie_page = browser.new_context(base_url=live_server.url, locale="fr-FR").new_page()
    log_in_as(charlie_page, charlie)
    give_role(charlie, Membership.Role.MEMBER)  # Grenoble's admin is a member of Lyon's club too
    rooms = {
        owner: simultanes.room_register(simultane=simultane, club=club_, creator=organiser, players=[(1, name)])
        for owner, club_, organiser, name in (
            ("lyon", lyon, alice, "Anne"),
            ("grenoble", grenoble, charlie, "Cid"),
            ("annecy", annecy, dave, "Eve"),
        )
    }
    Simultane.objects.filter(pk=simultane.pk).update(starts_at=timezone.now())
    for owner, moves in (("lyon", 4), ("annecy", 2), ("grenoble", 1)):
        for _move in range(moves):
            round_reveal_top(round_=round_add(session=rooms[owner]))
    session_finish(session=rooms["lyon"])  # the whole game played, SOUHAITE its last top
    round_add(session=rooms["grenoble"])  # move 2 drawn, its top (AVIONS) not revealed yet
    lyon_room = rooms["lyon"].pk
    pages = [f"/duplicate/{lyon_room}/{address}" for address in ("", "recapitulatif/", "feuille/")]
    files = [f"/duplicate/{lyon_room}/partie.json"] + [
        f"/api/duplicate/sessions/{lyon_room}/{operation}" for operation in ("results", "game", "ranking")
    ]

    # His own room's console is his; the simultané's page links no other room.
    charlie_page.goto(f"/duplicate/{rooms['grenoble'].pk}/")
    expect(charlie_page.locator("#duplicate-move h2")).to_contain_text("Coup 2")
    charlie_page.goto(f"/duplicate/simultanes/{simultane.pk}/")
    expect(charlie_page.locator(".rooms")).to_contain_text("Simultané des Alpes · Club de Lyon")
    expect(charlie_page.get_by_role("link", name="Simultané des Alpes · Club de Lyon")).to_have_count(0)
    charlie_page.goto("/duplicate/")
    expect(charlie_page.locator("main")).not_to_contain_text("Simultané des Alpes · Club de Lyon")
    # Every page of Lyon's room answers as one that does not exist; its files and the API as an unknown id.
    for address in pages:
        response = charlie_page.goto(address)
        assert response.status == 404, address
        expect(charlie_page.locator("h1")).to_have_text("Page introuvable")
        expect(charlie_page.locator("main")).not_to_contain_text("SOUHAITE")
    unknown = charlie_page.request.get("/duplicate/999999/partie.json")
    for address in files:
        response = charlie_page.request.get(address)
        assert response.status == 404, address
        if address.startswith("/api/"):
            assert response.json() == {"detail": "Séance introuvable."}
        else:
            assert without_csrf(response.text()) == without_csrf(unknown.text())

    # The district closes the ranking once Grenoble's room has revealed its move 2's top: every page opens.
    page.goto(f"/duplicate/simultanes/{simultane.pk}/")
    page.get_by_role("button", name="Arrêter le classement").click()
    expect(page.locator("main .error")).to_have_text(
        "La salle « Simultané des Alpes · Club de Grenoble » joue encore le coup 2 : attendez que son top soit révélé."
    )
    round_reveal_top(round_=rooms["grenoble"].rounds.get(number=2))
    page.goto(f"/duplicate/simultanes/{simultane.pk}/")
    page.get_by_role("button", name="Arrêter le classement").click()
    expect(page.locator(".messages")).to_contain_text("Classement arrêté")
    for address in pages:  # a member of the club reads the recap: the console and the sheet lead to it
        response = charlie_page.goto(address)
        assert response.status == 200, address
        expect(charlie_page).to_have_url(f"/duplicate/{lyon_room}/recapitulatif/")
        expect(charlie_page.locator(".recap-moves tbody tr")).to_have_count(4)
        expect(charlie_page.locator(".recap-moves")).to_contain_text("SOUHAITE")
    for address in files:
        response = charlie_page.request.get(address)
        assert response.status == 200, address
    assert [r["top"] for r in charlie_page.request.get(files[0]).json()["rounds"]][-1] == "J3 SOUHAITE"
    charlie_page.goto(f"/duplicate/simultanes/{simultane.pk}/")
    charlie_page.get_by_role("link", name="Simultané des Alpes · Club de Lyon").click()
    expect(charlie_page).to_have_url(f"/duplicate/{lyon_room}/recapitulatif/")
    charlie_page.get_by_role("button", name="Rejouer cette séance").click()
    expect(charlie_page.locator("#replay-of")).to_contain_text("Rejeu de « Simultané des Alpes · Club de Lyon »")
    charlie_page.goto("/duplicate/")
    expect(charlie_page.locator("main")).to_contain_text("Simultané des Alpes · Club de Lyon")
    charlie_page.context.close()
