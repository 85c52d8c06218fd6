"""Joining a club needs the member's consent (issue 23): an admin's "Inviter au club" sends an invitation, which the
person accepts or declines on his account page, with the role offered applied on acceptance. The form answers an
address with no account as it answers one with an account, the club page shows only the name typed until the
invitation is accepted and nobody's address at all, the form is rate-limited, and a member may always leave.

The cast of tests/conftest.py: alice is the Club de Lyon's admin, bob a member there, charlie in no club."""

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from clubsite.models import Invitation, Membership, MembershipOffer
from tests.conftest import with_name

pytestmark = pytest.mark.django_db

ADMIN, ORGANISER, MEMBER = Membership.Role.ADMIN, Membership.Role.ORGANISER, Membership.Role.MEMBER


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def invite(client, club, identifier, role=MEMBER, **kwargs):
    return client.post(reverse("club_member_add", args=[club.slug]), {"identifier": identifier, "role": role}, **kwargs)


def club_page(client, club):
    return client.get(reverse("club_detail", args=[club.slug]))


def sent(name):
    return f"Invitation au club envoyée à « {name} » : la personne le rejoint en l&#x27;acceptant sur son compte."


@pytest.fixture
def charlies_private_names(charlie):
    with_name(charlie, "Charles", "Secret")
    return ["Charles", "Secret", "charlie@example.org"]


# Consent


def test_an_admin_invites_a_member_who_is_not_added_until_he_accepts(lyon, alice, charlie):
    response = invite(client_for(alice), lyon, "charlie", role=ADMIN, follow=True)

    assert response.redirect_chain == [(reverse("club_detail", args=[lyon.slug]), 302)]
    assert sent("charlie") in response.text
    assert not lyon.memberships.filter(user=charlie).exists()
    assert client_for(charlie).get(reverse("club_detail", args=[lyon.slug])).status_code == 404
    invitation = Invitation.objects.get()
    offer = MembershipOffer.objects.get()
    assert (invitation.invitee, invitation.inviter, invitation.target, invitation.status) == (
        charlie,
        alice,
        offer,
        "pending",
    )
    assert (offer.club, offer.name, offer.role, offer.member) == (lyon, "charlie", ADMIN, None)


def test_the_invitee_reads_the_club_and_the_role_offered_on_his_account_page(lyon, alice, charlie):
    with_name(alice, "Alice", "Martin")
    invite(client_for(alice), lyon, "charlie", role=ORGANISER)

    page = client_for(charlie).get(reverse("profile"))

    assert "Alice Martin vous invite :" in page.text
    assert "Rejoindre le club « Club de Lyon » comme Organisateur." in page.text
    assert "Ses membres verront votre nom et votre nom d&#x27;utilisateur." in page.text


def test_accepting_applies_the_role_offered(lyon, alice, charlie):
    invite(client_for(alice), lyon, "charlie", role=ORGANISER)
    client = client_for(charlie)

    response = client.post(reverse("invitation_accept", args=[Invitation.objects.get().pk]), follow=True)

    assert response.redirect_chain == [(reverse("club_detail", args=[lyon.slug]), 302)]
    assert "Invitation acceptée : vous êtes membre du club « Club de Lyon »." in response.text
    assert lyon.memberships.get(user=charlie).role == ORGANISER
    assert MembershipOffer.objects.get().member == charlie
    assert Invitation.objects.get().status == "accepted"


def test_declining_leaves_him_out_and_the_club_page_unchanged(lyon, alice, charlie):
    client = client_for(alice)
    invite(client, lyon, "charlie", follow=True)
    before = club_page(client, lyon).text

    client_for(charlie).post(reverse("invitation_decline", args=[Invitation.objects.get().pk]))

    assert not lyon.memberships.filter(user=charlie).exists()
    assert Invitation.objects.get().status == "declined"
    # Still "en attente": a refusal would tell the club that the address has an account.
    assert _normalised(club_page(client, lyon).text) == _normalised(before)


def test_an_existing_member_accepting_again_is_told_so(lyon, alice, charlie, give_role):
    invite(client_for(alice), lyon, "charlie", role=ADMIN)
    give_role(charlie, MEMBER)  # added meanwhile (the site's staff, in the admin)

    response = client_for(charlie).post(reverse("invitation_accept", args=[Invitation.objects.get().pk]), follow=True)

    assert "Vous êtes déjà membre de ce club." in response.text
    assert lyon.memberships.get(user=charlie).role == MEMBER
    assert Invitation.objects.get().status == "pending"


# What the form answers: an address tells nothing


def _normalised(text: str) -> str:
    """A page without what differs from one request to the next: the CSRF tokens, the ids in the addresses."""
    text = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"|"X-CSRFToken": "[^"]*"', "", text)
    return re.sub(r"/\d+/", "/N/", text)


def test_an_address_with_an_account_is_answered_as_one_without(lyon, alice, charlie, charlies_private_names):
    client = client_for(alice)

    known = invite(client, lyon, "charlie@example.org", follow=True)
    MembershipOffer.objects.all().delete()
    unknown = invite(client, lyon, "charlie@example.net", follow=True)

    assert known.redirect_chain == unknown.redirect_chain == [(reverse("club_detail", args=[lyon.slug]), 302)]
    assert _normalised(known.text) == _normalised(unknown.text)
    assert sent("charlie") in unknown.text
    assert list(MembershipOffer.objects.values_list("name", flat=True)) == ["charlie"]


def test_the_address_of_a_member_is_answered_as_any_other(lyon, alice, bob):
    response = invite(client_for(alice), lyon, "bob@example.org", role=ADMIN, follow=True)

    assert response.status_code == 200
    assert sent("bob") in response.text
    assert lyon.memberships.get(user=bob).role == MEMBER
    assert not Invitation.objects.exists()


def test_an_unknown_user_name_is_refused_since_names_are_public(lyon, alice):
    response = invite(client_for(alice), lyon, "personne")

    assert response.status_code == 400
    assert "Aucun membre ne porte ce nom." in response.text
    assert not MembershipOffer.objects.exists()


def test_a_member_named_by_his_user_name_is_said_to_be_one(lyon, alice, bob):
    response = invite(client_for(alice), lyon, "bob", role=ADMIN)

    assert response.status_code == 400
    assert "Déjà membre du club." in response.text
    assert not MembershipOffer.objects.exists()


def test_an_address_shared_by_two_accounts_is_not_said_either(lyon, alice):
    User.objects.create_user("erin", email="famille@example.org")
    User.objects.create_user("frank", email="famille@example.org")

    response = invite(client_for(alice), lyon, "famille@example.org", follow=True)

    assert sent("famille") in response.text
    assert Invitation.objects.count() == 1


def test_a_member_is_invited_once_by_a_club_however_often_named(lyon, alice, charlie):
    client = client_for(alice)

    for identifier in ("charlie", "charlie@example.org", "CHARLIE"):
        invite(client, lyon, identifier)

    assert MembershipOffer.objects.count() == 3  # each line typed is shown, as for an address with no account
    assert Invitation.objects.filter(invitee=charlie).count() == 1


# What the club page shows


def test_until_he_accepts_the_page_shows_only_the_name_typed(lyon, alice, charlie, charlies_private_names):
    client = client_for(alice)
    invite(client, lyon, "charlie@example.org", role=ADMIN)

    page = club_page(client, lyon)

    assert [m.user for m in page.context["memberships"]] == [alice, lyon.memberships.get(user__username="bob").user]
    assert [offer.name for offer in page.context["offers"]] == ["charlie"]
    assert "Invitations en attente" in page.text
    for private in charlies_private_names:
        assert private not in page.text


def test_once_he_accepts_the_members_read_his_name_but_never_his_address(lyon, alice, bob, charlie):
    with_name(charlie, "Charles", "Dupont")
    invite(client_for(alice), lyon, "charlie")
    client_for(charlie).post(reverse("invitation_accept", args=[Invitation.objects.get().pk]))

    for reader in (alice, bob, charlie):
        page = club_page(client_for(reader), lyon)
        assert "Charles Dupont" in page.text
        assert "Invitations en attente" not in page.text
        for address in ("alice@example.org", "bob@example.org", "charlie@example.org"):
            assert address not in page.text


def test_members_other_than_admins_do_not_see_the_invitations(lyon, alice, bob, give_role):
    invite(client_for(alice), lyon, "zoe@example.org")
    give_role(bob, ORGANISER)

    page = club_page(client_for(bob), lyon)

    assert "zoe" not in page.text
    assert "Invitations en attente" not in page.text


# Withdrawing an invitation


def withdraw_url(club, offer):
    return reverse("club_offer_withdraw", args=[club.slug, offer.pk])


def test_an_admin_withdraws_an_invitation(lyon, alice, charlie):
    client = client_for(alice)
    invite(client, lyon, "charlie")

    response = client.post(withdraw_url(lyon, MembershipOffer.objects.get()), follow=True)

    assert response.redirect_chain == [(reverse("club_detail", args=[lyon.slug]), 302)]
    assert "Invitation de « charlie » retirée." in response.text
    assert not MembershipOffer.objects.exists()
    assert not Invitation.objects.exists()
    assert "vous invite" not in client_for(charlie).get(reverse("profile")).text


def test_only_the_clubs_admins_withdraw_its_invitations(lyon, alice, bob, charlie, grenoble):
    invite(client_for(alice), lyon, "zoe@example.org")
    offer = MembershipOffer.objects.get()

    assert client_for(bob).post(withdraw_url(lyon, offer)).status_code == 403
    assert client_for(charlie).post(withdraw_url(lyon, offer)).status_code == 404
    # Charlie's own club in the address, Lyon's invitation in it: not his.
    assert client_for(charlie).post(withdraw_url(grenoble, offer)).status_code == 404
    assert client_for(alice).get(withdraw_url(lyon, offer)).status_code == 405
    assert MembershipOffer.objects.count() == 1


def test_an_accepted_invitation_cannot_be_withdrawn(lyon, alice, charlie):
    invite(client_for(alice), lyon, "charlie")
    client_for(charlie).post(reverse("invitation_accept", args=[Invitation.objects.get().pk]))

    response = client_for(alice).post(withdraw_url(lyon, MembershipOffer.objects.get()))

    assert response.status_code == 404
    assert lyon.memberships.filter(user=charlie).exists()


# The rate of the form


@pytest.fixture
def two_an_hour(settings):
    settings.NINJA_DEFAULT_THROTTLE_RATES = {
        **settings.NINJA_DEFAULT_THROTTLE_RATES,
        "visitor_club_invitation": "2/hour",
        "member_club_invitation": "2/hour",
    }


def test_the_form_is_rate_limited(lyon, alice, charlie, two_an_hour):
    client = client_for(alice)
    # An unknown name counts as a known one: the form is no way to try names faster.
    assert invite(client, lyon, "personne").status_code == 400
    assert invite(client, lyon, "zoe@example.org").status_code == 302

    response = invite(client, lyon, "charlie")

    assert response.status_code == 429
    assert int(response["Retry-After"]) > 0
    assert "Trop de demandes en peu de temps : réessayez dans" in response.text
    assert list(MembershipOffer.objects.values_list("name", flat=True)) == ["zoe"]
    assert not Invitation.objects.exists()


def test_the_rate_comes_from_the_settings(settings):
    assert settings.NINJA_DEFAULT_THROTTLE_RATES["member_club_invitation"] == "60/hour"


# Leaving


def test_the_last_admin_is_warned_on_the_page(lyon, alice, bob):
    page = club_page(client_for(alice), lyon)

    assert "Vous êtes le dernier administrateur du club" in page.text
    assert "Vous êtes le dernier administrateur du club" not in club_page(client_for(bob), lyon).text


def test_the_last_admin_may_leave_and_the_club_is_left_without_admin(lyon, alice, bob):
    response = client_for(alice).post(reverse("club_leave", args=[lyon.slug]), follow=True)

    assert response.redirect_chain == [(reverse("clubs"), 302)]
    assert "Vous avez quitté le club « Club de Lyon »." in response.text
    assert not lyon.memberships.filter(user=alice).exists()
    assert not lyon.memberships.admins().exists()
    assert lyon.memberships.filter(user=bob).exists()


def test_a_member_who_accepted_to_be_admin_may_leave_once_the_inviter_left(lyon, alice, charlie):
    invite(client_for(alice), lyon, "charlie", role=ADMIN)
    client_for(charlie).post(reverse("invitation_accept", args=[Invitation.objects.get().pk]))
    client_for(alice).post(reverse("club_leave", args=[lyon.slug]))

    response = client_for(charlie).post(reverse("club_leave", args=[lyon.slug]))

    assert response.status_code == 302
    assert not lyon.memberships.filter(user=charlie).exists()


def test_the_sites_staff_finds_the_clubs_without_admin(lyon, alice, grenoble):
    lyon.memberships.filter(user=alice).delete()
    client = client_for(User.objects.create_superuser("root", "root@example.org", "root-password-2024"))

    response = client.get(reverse("admin:clubsite_club_changelist"), {"admin": "aucun"})

    assert response.status_code == 200
    assert list(response.context["cl"].result_list) == [lyon]
