"""Accounts in Chromium (issue 12): sign-up by a mailed link, the log-in lockout, invitations to be linked, and a
double click on a score sheet's button."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from playwright.sync_api import expect

from clubsite.models import Invitation
from scoring.models import Edition, RuleSet
from sheets import services as sheet_services
from tests.conftest import PASSWORD, with_name

from .conftest import claires_game, log_in, log_in_as, make_session

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def test_sign_up_then_follow_the_mailed_link(page):
    page.goto("/compte/inscription/")
    page.fill("#id_username", "dave")
    page.fill("#id_email", "dave@example.org")
    page.fill("#id_password1", "tuile-scrabble-2024")
    page.fill("#id_password2", "tuile-scrabble-2024")
    page.get_by_role("button", name="Créer mon compte").click()

    expect(page.locator("main")).to_contain_text("Un courriel vous a été envoyé à l'adresse indiquée")
    link = re.search(r"http://[^/]+(/compte/inscription/confirmer/\S+/)", mail.outbox[-1].body).group(1)
    page.goto(link)
    page.get_by_role("button", name="Activer mon compte").click()

    expect(page).to_have_url("/compte/")
    expect(page.locator(".messages")).to_have_text("Bienvenue ! Votre compte est créé.")
    assert get_user_model().objects.get(username="dave").email == "dave@example.org"


def test_a_new_address_is_confirmed_by_its_mailed_link(page):
    member = log_in(page, "claire")
    page.goto("/compte/")
    page.fill("#id_email", "claire@club.example.org")
    page.get_by_role("button", name="Enregistrer").click()

    expect(page.locator(".messages")).to_have_text(
        "Un courriel a été envoyé à claire@club.example.org : l'adresse change quand vous suivez son lien."
    )
    link = re.search(r"http://[^/]+(/compte/adresse/\S+/)", mail.outbox[-1].body).group(1)
    page.goto(link)
    page.get_by_role("button", name="Confirmer l'adresse").click()

    expect(page).to_have_url("/compte/")
    expect(page.locator(".messages")).to_have_text("Adresse enregistrée.")
    member.refresh_from_db()
    assert member.email == "claire@club.example.org"


def test_repeated_failures_lock_the_log_in_with_a_french_message(page, alice):
    page.goto("/compte/connexion/")
    for _ in range(5):
        page.fill("#id_username", "alice")
        page.fill("#id_password", "pas-le-bon")
        page.get_by_role("button", name="Se connecter").click()
        expect(page.locator("#id_password")).to_be_visible()

    page.fill("#id_username", "alice")
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="Se connecter").click()

    expect(page.locator("main [role=alert]")).to_have_text(
        "Trop de tentatives de connexion : réessayez dans 15 min, ou demandez un nouveau mot de passe."
    )
    expect(page).to_have_url(re.compile("/compte/connexion/$"))


def test_an_invitation_is_accepted_or_declined_on_the_account_page(page, alice, bob):
    log_in_as(page, with_name(bob, "Robert"))
    game, _switched = sheet_services.game_create(
        owner=alice,
        players=[("Alice", None), ("Bobby", bob)],
        edition=Edition.objects.get(code="fr"),
        rule_set=RuleSet.objects.get(code="tournoi"),
    )
    session = make_session(alice, None, [(1, "Anne"), (2, "@bob")], accepted=False)

    page.goto("/compte/")
    invitations = page.locator("#invitations li")
    expect(invitations).to_have_count(2)
    game_invitation = invitations.filter(has_text="à la place de « Bobby »")
    game_invitation.get_by_role("button", name="Accepter").click()

    expect(page).to_have_url(f"/parties/{game.pk}/")
    accepted = "Invitation acceptée : elle figure maintenant dans votre historique."
    expect(page.locator(".messages")).to_have_text(accepted)
    page.goto("/compte/")
    expect(invitations).to_have_count(1)
    invitations.filter(has_text="Séance de duplicate").get_by_role("button", name="Refuser").click()

    expect(page).to_have_url("/compte/")
    expect(page.locator(".messages")).to_have_text("Invitation refusée : votre compte n'est pas lié à cette place.")
    expect(page.locator("#invitations")).to_have_count(0)
    assert game.players.get(position=1).member == bob
    assert session.players.get(table=2).member is None
    assert list(Invitation.objects.order_by("pk").values_list("status", flat=True)) == ["accepted", "declined"]


def test_inscribe_pressed_twice_while_the_first_is_on_its_way_writes_one_line(page):
    """The button pressed again before the page has answered: the browser sends the form twice (the first request
    is held until the second is sent, as on a slow connection), and the server takes it once."""
    member = log_in(page, "claire", first_name="Claire")
    game = claires_game(member)
    page.goto(f"/parties/{game.pk}/")
    page.fill("#points", "12")
    held = []
    page.route("**/lignes/", lambda route: held.append(route))
    box = page.get_by_role("button", name="Inscrire pour Claire").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    for presses in (1, 2):
        page.mouse.click(x, y)  # a person's click: it does not wait for the page the first one asked for
        for _ in range(100):
            if len(held) == presses:
                break
            page.wait_for_timeout(20)
    assert len(held) == 2
    statuses = []
    for route in held:
        response = route.fetch()
        statuses.append(response.status)
        route.fulfill(response=response)

    expect(page.locator("main [role=alert]")).to_contain_text("Ce formulaire a déjà été envoyé")
    expect(page.locator("#total-0")).to_have_text("12")
    expect(page.locator("#total-1")).to_have_text("0")
    assert statuses == [200, 409]
    assert list(game.lines.values_list("player__position", "points")) == [(0, 12)]


def test_a_member_creates_an_api_token_copies_it_and_deletes_it(page, alice):
    """Trial of issue 16: no token could be had without a shell on the server."""
    from clubsite.models import ApiToken

    member = log_in_as(page, alice)
    page.goto("/compte/")
    page.get_by_label("Nom du jeton (facultatif)").fill("Logiciel d'arbitrage")
    page.get_by_role("button", name="Créer un jeton").click()
    expect(page.locator(".new-token")).to_contain_text("Jeton créé. Copiez-le maintenant : il ne sera plus affiché.")
    raw = page.locator("#new-token").input_value()
    assert ApiToken.objects.get(user=member).digest == ApiToken.digest_of(raw)
    page.goto("/compte/")
    expect(page.locator("#new-token")).to_have_count(0)
    expect(page.locator(".tokens li")).to_have_count(1)
    expect(page.locator(".tokens li")).to_contain_text("Logiciel d'arbitrage · créé le")
    questions = []
    page.once("dialog", lambda dialog: (questions.append(dialog.message), dialog.accept()))
    page.locator(".tokens").get_by_role("button", name="Supprimer").click()
    expect(page.locator(".messages")).to_contain_text("Jeton supprimé")
    expect(page.locator("#api")).to_contain_text("Aucun jeton pour l'instant.")
    assert not ApiToken.objects.filter(user=member).exists()
    assert questions == [
        "Supprimer le jeton « Logiciel d'arbitrage » ? Les programmes qui s'en servent seront refusés."
    ]


def test_tout_refuser_declines_an_inviters_invitations_then_all_the_others(page, alice, bob, charlie):
    """Trial of issue 23: 92 invitations from one attacker, each to be refused one by one. The account page folds
    them by inviter and « Tout refuser » declines an inviter's at once, then every one left."""
    from tests.sheets.conftest import make_game

    with_name(charlie, "Charles")
    for _ in range(5):
        make_game(charlie, names=("Moi", ""), members=[None, bob], accepted=False)
    make_game(alice, names=("Alice", ""), members=[None, bob], accepted=False)
    make_session(alice, None, [(1, "Anne"), (2, "@bob")], accepted=False)
    log_in_as(page, bob)

    page.goto("/compte/")
    charlies = page.locator(".invitation-group").filter(has_text="Charles vous invite (5 invitations)")
    expect(charlies.locator("li:visible")).to_have_count(3)
    charlies.get_by_text("Voir les 2 autres invitations de Charles").click()
    expect(charlies.locator("li:visible")).to_have_count(5)
    questions = []
    page.once("dialog", lambda dialog: (questions.append(dialog.message), dialog.accept()))
    charlies.get_by_role("button", name="Tout refuser de Charles").click()

    expect(page).to_have_url("/compte/")
    expect(page.locator(".messages")).to_have_text("5 invitations refusées.")
    expect(page.locator("#invitations li")).to_have_count(2)
    expect(page.locator(".invitation-group")).to_have_text(re.compile("alice vous invite"))
    assert questions == ["Refuser les 5 invitations de Charles ?"]
    page.get_by_role("button", name="Tout refuser (2 invitations)").click()

    expect(page.locator(".messages")).to_have_text("2 invitations refusées.")
    expect(page.locator("#invitations")).to_have_count(0)
    assert not Invitation.objects.pending().exists()
    assert Invitation.objects.filter(status="declined").count() == 7
