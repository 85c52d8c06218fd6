"""The form actions no other browser test pressed (issue 24): creating a club, inviting a member (issue 23: he
joins by accepting) and changing his role, leaving the club; starting the timer and cancelling a draw; deleting a
season; editing and deleting a simultané; logging out; resetting a forgotten password. Each is pressed as its user
presses it, and each test checks what the page then says and what the database then holds."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from playwright.sync_api import expect

from clubsite.invitations import invitation_accept
from clubsite.models import Club, Invitation, Membership
from duplicate.models import Season, Session, Simultane
from duplicate.services.rounds import round_add
from tests.conftest import make_member

from .conftest import club_session, htmx_settled, log_in_as
from .test_simultane import districts_simultane

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def test_a_member_creates_a_club_invites_a_member_makes_him_admin_and_leaves(page, alice, bob):
    log_in_as(page, alice)  # without `lyon`: Alice and Bob in no club yet
    page.goto("/clubs/")
    page.get_by_label("Nom du club").fill("Club de Lyon")
    page.get_by_role("button", name="Créer le club").click()
    expect(page.locator(".messages")).to_have_text("Club « Club de Lyon » créé : vous en êtes l'administrateur.")
    club = Club.objects.get(name="Club de Lyon")

    page.get_by_label("Nom d'utilisateur ou adresse électronique").fill("bob")
    page.locator("main form").get_by_role("button", name="Inviter au club").click()
    expect(page.locator(".messages")).to_have_text(
        "Invitation au club envoyée à « bob » : la personne le rejoint en l'acceptant sur son compte."
    )
    expect(page.locator(".offers li")).to_have_text(re.compile("bob · Membre"))
    assert not club.memberships.filter(user=bob).exists()
    invitation_accept(invitation=Invitation.objects.get(invitee=bob), user=bob)  # on his page (test_accounts.py)
    page.reload()
    expect(page.locator(".offers")).to_have_count(0)
    assert club.memberships.get(user=bob).role == Membership.Role.MEMBER

    bobs = page.locator("li.member", has_text="bob")
    bobs.get_by_label("Rôle du membre bob").select_option(Membership.Role.ADMIN.value)
    bobs.get_by_role("button", name="Changer le rôle").click()
    expect(page.locator(".messages")).to_have_text("Rôle du membre bob modifié.")
    assert club.memberships.get(user=bob).role == Membership.Role.ADMIN

    page.get_by_text("Quitter le club…").click()
    page.get_by_role("button", name="Oui, quitter le club").click()
    expect(page).to_have_url("/clubs/")
    expect(page.locator(".messages")).to_have_text("Vous avez quitté le club « Club de Lyon ».")
    assert not club.memberships.filter(user=alice).exists()
    assert club.memberships.get().user == bob


def test_an_arbiter_starts_the_timer_then_cancels_the_draw(page, alice, lyon):
    arbiter = log_in_as(page, alice)
    session = club_session(arbiter, lyon)
    round_add(session=session, draw_text="VAGUEST")
    page.goto(f"/duplicate/{session.pk}/")
    page.get_by_role("button", name="Lancer le chrono").click()
    expect(page.locator(".messages")).to_contain_text("Chrono lancé : ")
    expect(page.locator(".messages")).to_contain_text("pour le coup 1.")
    expect(page.get_by_role("button", name="Relancer le chrono")).to_be_visible()
    session.refresh_from_db()
    assert session.deadline is not None

    htmx_settled(page)
    page.get_by_role("button", name="Annuler ce tirage").click()  # the page's fixture answers "OK" to the question
    expect(page.locator(".messages")).to_contain_text("Le coup 1 est annulé.")
    assert not session.rounds.exists()


def test_an_organiser_deletes_a_season_and_its_sessions_stay(page, alice, lyon):
    organiser = log_in_as(page, alice)
    session = club_session(organiser, lyon)
    season = Season.objects.create(club=session.club, name="Saison 2026", start=session.date, end=session.date)
    page.goto(f"/duplicate/saisons/{season.pk}/modifier/")
    page.get_by_role("button", name="Supprimer la saison").click()
    expect(page).to_have_url("/duplicate/saisons/")
    expect(page.locator(".messages")).to_have_text("Saison « Saison 2026 » supprimée.")
    assert not Season.objects.exists()
    assert Session.objects.filter(pk=session.pk).exists()


def test_an_organiser_renames_a_simultane_then_deletes_it(page):
    _eve, simultane = districts_simultane(page, "Simultané des Alpes")
    page.goto(f"/duplicate/simultanes/{simultane.pk}/")
    page.get_by_label("Nom").fill("Simultané d'hiver des Alpes")
    page.get_by_role("button", name="Enregistrer les modifications").click()
    expect(page.locator(".messages")).to_contain_text("Simultané modifié : « Simultané d'hiver des Alpes », le ")
    assert Simultane.objects.get().name == "Simultané d'hiver des Alpes"

    page.get_by_role("button", name="Supprimer le simultané").click()
    expect(page).to_have_url("/duplicate/simultanes/")
    expect(page.locator(".messages")).to_have_text(
        "Le simultané « Simultané d'hiver des Alpes » est supprimé, avec ses salles."
    )
    assert not Simultane.objects.exists()


def test_a_member_logs_out(page, alice):
    log_in_as(page, alice)
    page.get_by_role("button", name="Se déconnecter").click()
    expect(page.get_by_role("link", name="Se connecter", exact=True)).to_be_visible()
    page.goto("/compte/")
    expect(page).to_have_url(re.compile(r"/compte/connexion/\?next=/compte/$"))


def test_a_member_who_forgot_his_password_sets_a_new_one_from_the_mailed_link(page):
    make_member("claire")
    page.goto("/compte/connexion/")
    page.get_by_role("link", name="Mot de passe oublié ?").click()
    page.locator("#id_email").fill("claire@example.org")
    page.get_by_role("button", name="Recevoir le lien").click()
    expect(page.locator("h1")).to_have_text("Lien envoyé")
    assert [message.to for message in mail.outbox] == [["claire@example.org"]]
    link = re.search(r"http://[^/\s]+(/compte/mot-de-passe/nouveau/\S+/)", mail.outbox[0].body).group(1)

    page.goto(link)
    expect(page.locator("h1")).to_have_text("Nouveau mot de passe")
    page.locator("#id_new_password1").fill("nouveau-mot-de-passe-2026")
    page.locator("#id_new_password2").fill("nouveau-mot-de-passe-2026")
    page.get_by_role("button", name="Enregistrer le mot de passe").click()
    expect(page.locator("h1")).to_have_text("Mot de passe enregistré")
    page.get_by_role("link", name="Se connecter").last.click()
    page.fill("#id_username", "claire")
    page.fill("#id_password", "nouveau-mot-de-passe-2026")
    page.locator("main button[type=submit]").click()
    expect(page).to_have_url("/compte/")
    assert get_user_model().objects.get(username="claire").check_password("nouveau-mot-de-passe-2026")
