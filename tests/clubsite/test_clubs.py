"""Clubs and memberships. The cast of tests/conftest.py: alice is the admin of the Club de Lyon, bob a plain member
there, charlie a member of the site in no club; a test that needs an organiser makes bob one."""

import pytest
from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.test import Client
from django.urls import reverse

from clubsite.models import Club, Invitation, Membership
from clubsite.services import MembershipRefused, membership_remove, membership_set_role
from tests.conftest import make_member, with_name

pytestmark = pytest.mark.django_db

ADMIN, ORGANISER, MEMBER = Membership.Role.ADMIN, Membership.Role.ORGANISER, Membership.Role.MEMBER
LAST_ADMIN = "Le club doit garder au moins un administrateur."


def make_club(name, **roles) -> Club:
    """A club with members given as role=[users], e.g. make_club("X", admin=[alice], member=[bob])."""
    club = Club.objects.create(name=name, slug=Club.objects.free_slug(name))
    for role, users in roles.items():
        for user in users:
            club.memberships.create(user=user, role=Membership.Role(role))
    return club


def membership(club, user) -> Membership:
    return club.memberships.get(user=user)


def client_for(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def login_url(next_url):
    return f"{reverse(settings.LOGIN_URL)}?next={next_url}"


# Models


def test_for_user_lists_the_clubs_of_a_member(lyon, alice, bob):
    paris = make_club("Club de Paris", member=[alice])
    make_club("Club de Nantes", member=[bob])

    assert list(Club.objects.for_user(alice)) == [lyon, paris]
    assert list(Club.objects.for_user(AnonymousUser())) == []


def test_organised_by_counts_organisers_and_admins(lyon, alice, bob, charlie, give_role):
    assert list(Club.objects.organised_by(bob)) == []
    give_role(bob, ORGANISER)
    make_club("Club de Paris", member=[bob])

    assert list(Club.objects.organised_by(alice)) == [lyon]
    assert list(Club.objects.organised_by(bob)) == [lyon]
    assert list(Club.objects.organised_by(charlie)) == []
    assert list(Club.objects.organised_by(AnonymousUser())) == []


def test_roles_read_from_the_club(lyon, alice, bob, charlie, give_role):
    assert [lyon.role_of(user) for user in (alice, bob, charlie)] == [ADMIN, MEMBER, None]
    assert [lyon.is_organiser(user) for user in (alice, bob, charlie)] == [True, False, False]
    assert [lyon.is_admin(user) for user in (alice, bob, charlie)] == [True, False, False]
    assert lyon.role_of(AnonymousUser()) is None
    give_role(bob, ORGANISER)
    assert (lyon.role_of(bob), lyon.is_organiser(bob), lyon.is_admin(bob)) == (ORGANISER, True, False)


def test_membership_queryset_helpers(lyon, alice, bob, give_role):
    zoe = give_role(make_member("zoe"), ORGANISER)

    assert [m.user for m in lyon.memberships.admins()] == [alice]
    assert {m.user for m in lyon.memberships.organisers()} == {alice, zoe}
    assert [m.user.username for m in lyon.memberships.by_rank()] == ["alice", "zoe", "bob"]  # the role before the name


def test_free_slug_numbers_taken_and_reserved_slugs(lyon):
    assert Club.objects.free_slug("Lyon") == "lyon-2"
    assert make_club("Club de Paris").slug == "club-de-paris"
    assert Club.objects.free_slug("Club de Paris") == "club-de-paris-2"
    assert Club.objects.free_slug("Nouveau") == "nouveau-2"
    assert Club.objects.free_slug("!!!") == "club"


def test_services_keep_the_last_admin(lyon, alice):
    with pytest.raises(MembershipRefused, match=LAST_ADMIN):
        membership_set_role(membership=membership(lyon, alice), role=MEMBER)
    with pytest.raises(MembershipRefused, match=LAST_ADMIN):
        membership_remove(membership=membership(lyon, alice))

    assert membership(lyon, alice).role == ADMIN


# My clubs and creating a club


def test_clubs_requires_login(client):
    response = client.get(reverse("clubs"))

    assert response.status_code == 302
    assert response.url == login_url(reverse("clubs"))


def test_clubs_lists_my_clubs_with_my_role(lyon, bob, grenoble, give_role):
    give_role(bob, ORGANISER)

    response = client_for(bob).get(reverse("clubs"))

    assert response.status_code == 200
    assert [m.club for m in response.context["memberships"]] == [lyon]
    assert reverse("club_detail", args=["lyon"]) in response.text
    assert "Organisateur" in response.text
    assert "Club de Grenoble" not in response.text


def test_clubs_tells_an_outsider_how_to_join(lyon, charlie):
    response = client_for(charlie).get(reverse("clubs"))

    assert "Vous n'êtes membre d'aucun club." in response.text
    assert "Club de Lyon" not in response.text


def test_it_creates_a_club_with_its_creator_as_admin(charlie):
    response = client_for(charlie).post(reverse("club_create"), {"name": "Club de Nantes"}, follow=True)

    club = Club.objects.get(name="Club de Nantes")
    assert response.redirect_chain == [(reverse("club_detail", args=["club-de-nantes"]), 302)]
    assert [(m.user, m.role) for m in club.memberships.all()] == [(charlie, ADMIN)]
    assert "Club « Club de Nantes » créé : vous en êtes l&#x27;administrateur." in response.text


def test_club_create_numbers_a_taken_name(lyon, charlie):
    client_for(charlie).post(reverse("club_create"), {"name": "Lyon"})

    assert Club.objects.get(memberships__user=charlie).slug == "lyon-2"


def test_club_create_refuses_a_blank_name(charlie):
    response = client_for(charlie).post(reverse("club_create"), {"name": "   "})

    assert response.status_code == 400
    assert "Ce champ est obligatoire." in response.text
    assert not Club.objects.exists()


def test_club_create_rejects_get_and_anonymous(client, charlie):
    assert client_for(charlie).get(reverse("club_create")).status_code == 405
    response = client.post(reverse("club_create"), {"name": "Club fantôme"})

    assert response.status_code == 302
    assert response.url.startswith(reverse(settings.LOGIN_URL))
    assert not Club.objects.exists()


# The club page


def test_club_page_sends_anonymous_visitors_to_login(client, lyon):
    url = reverse("club_detail", args=[lyon.slug])

    response = client.get(url)

    assert response.status_code == 302
    assert response.url == login_url(url)


def test_club_page_hides_the_club_from_outsiders(lyon, charlie):
    response = client_for(charlie).get(reverse("club_detail", args=[lyon.slug]))

    assert response.status_code == 404


def test_club_page_is_404_for_an_unknown_slug(alice):
    response = client_for(alice).get(reverse("club_detail", args=["nulle-part"]))

    assert response.status_code == 404


@pytest.mark.parametrize("role", [ORGANISER, MEMBER])
def test_club_page_shows_members_without_management_forms(lyon, alice, bob, give_role, role):
    with_name(alice, "Alice", "Martin")
    give_role(bob, role)

    response = client_for(bob).get(reverse("club_detail", args=[lyon.slug]))

    assert response.status_code == 200
    assert [m.user.username for m in response.context["memberships"]] == ["alice", "bob"]
    assert "Alice Martin" in response.text
    assert "Administrateur du club" in response.text
    assert reverse("club_member_add", args=[lyon.slug]) not in response.text
    assert "/role/" not in response.text
    assert "alice@example.org" not in response.text
    assert reverse("club_leave", args=[lyon.slug]) in response.text


def test_club_page_gives_admins_the_management_forms(lyon, alice, bob):
    response = client_for(alice).get(reverse("club_detail", args=[lyon.slug]))

    assert response.status_code == 200
    assert reverse("club_member_add", args=[lyon.slug]) in response.text
    bob_membership = membership(lyon, bob)
    assert reverse("club_member_role", args=[lyon.slug, bob_membership.pk]) in response.text
    assert reverse("club_member_remove", args=[lyon.slug, bob_membership.pk]) in response.text
    # Issue 23: nobody's address, not even to the club's admins (docs/member.md).
    assert "bob@example.org" not in response.text


# Adding members


def add_url(club):
    return reverse("club_member_add", args=[club.slug])


def test_add_member_sends_anonymous_visitors_to_login(client, lyon, charlie):
    response = client.post(add_url(lyon), {"identifier": "charlie", "role": MEMBER})

    assert response.status_code == 302
    assert response.url.startswith(reverse(settings.LOGIN_URL))
    assert lyon.memberships.count() == 2


def test_add_member_hides_the_club_from_outsiders(lyon, charlie):
    response = client_for(charlie).post(add_url(lyon), {"identifier": "charlie", "role": ADMIN})

    assert response.status_code == 404
    assert not lyon.memberships.filter(user=charlie).exists()


@pytest.mark.parametrize("role", [ORGANISER, MEMBER])
def test_add_member_is_forbidden_to_organisers_and_members(lyon, bob, charlie, give_role, role):
    give_role(bob, role)

    response = client_for(bob).post(add_url(lyon), {"identifier": "charlie", "role": MEMBER})

    assert response.status_code == 403
    assert not lyon.memberships.filter(user=charlie).exists()


def test_it_invites_a_member_by_username(lyon, alice, charlie):
    """Issue 23: an invitation he accepts, no longer a membership at once (tests/clubsite/test_club_invitations.py)."""
    response = client_for(alice).post(add_url(lyon), {"identifier": "charlie", "role": MEMBER}, follow=True)

    assert response.redirect_chain == [(reverse("club_detail", args=[lyon.slug]), 302)]
    assert not lyon.memberships.filter(user=charlie).exists()
    assert Invitation.objects.get().invitee == charlie
    assert "Invitation au club envoyée à « charlie »" in response.text


def test_an_organiser_invited_by_email_is_one_once_he_accepts(lyon, alice, charlie):
    client_for(alice).post(add_url(lyon), {"identifier": "CHARLIE@example.org", "role": ORGANISER})
    client_for(charlie).post(reverse("invitation_accept", args=[Invitation.objects.get().pk]))

    assert membership(lyon, charlie).role == ORGANISER
    assert lyon.is_organiser(charlie)


def test_a_member_may_belong_to_several_clubs(lyon, alice, bob):
    paris = make_club("Club de Paris", admin=[alice])

    client_for(alice).post(add_url(paris), {"identifier": "bob", "role": MEMBER})
    client_for(bob).post(reverse("invitation_accept", args=[Invitation.objects.get().pk]))

    assert list(Club.objects.for_user(bob)) == [lyon, paris]


def test_add_member_refuses_an_unknown_name(lyon, alice):
    response = client_for(alice).post(add_url(lyon), {"identifier": "zoe", "role": MEMBER})

    assert response.status_code == 400
    assert "Aucun membre ne porte ce nom." in response.text
    assert lyon.memberships.count() == 2


def test_add_member_refuses_an_existing_member(lyon, alice, bob):
    response = client_for(alice).post(add_url(lyon), {"identifier": "bob", "role": ADMIN})

    assert response.status_code == 400
    assert "Déjà membre du club." in response.text
    assert membership(lyon, bob).role == MEMBER


def test_add_member_refuses_an_unknown_role(lyon, alice, charlie):
    response = client_for(alice).post(add_url(lyon), {"identifier": "charlie", "role": "president"})

    assert response.status_code == 400
    assert not lyon.memberships.filter(user=charlie).exists()
    assert not Invitation.objects.exists()


def test_add_member_rejects_get(lyon, alice):
    assert client_for(alice).get(add_url(lyon)).status_code == 405


def test_add_member_needs_the_csrf_token(lyon, alice, charlie):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)

    response = client.post(add_url(lyon), {"identifier": "charlie", "role": MEMBER})

    assert response.status_code == 403
    assert not lyon.memberships.filter(user=charlie).exists()


# Changing roles


def role_url(club, user):
    return reverse("club_member_role", args=[club.slug, membership(club, user).pk])


def test_change_role_sends_anonymous_visitors_to_login(client, lyon, bob):
    response = client.post(role_url(lyon, bob), {"role": ADMIN})

    assert response.status_code == 302
    assert membership(lyon, bob).role == MEMBER


def test_change_role_hides_the_club_from_outsiders(lyon, bob, charlie):
    response = client_for(charlie).post(role_url(lyon, bob), {"role": ADMIN})

    assert response.status_code == 404
    assert membership(lyon, bob).role == MEMBER


@pytest.mark.parametrize("role", [ORGANISER, MEMBER])
def test_change_role_is_forbidden_to_organisers_and_members(lyon, alice, bob, give_role, role):
    give_role(bob, role)
    client = client_for(bob)

    assert client.post(role_url(lyon, bob), {"role": ADMIN}).status_code == 403
    assert client.post(role_url(lyon, alice), {"role": MEMBER}).status_code == 403
    assert (membership(lyon, bob).role, membership(lyon, alice).role) == (role, ADMIN)


def test_it_changes_a_role(lyon, alice, bob):
    response = client_for(alice).post(role_url(lyon, bob), {"role": ORGANISER}, follow=True)

    assert response.redirect_chain == [(reverse("club_detail", args=[lyon.slug]), 302)]
    assert membership(lyon, bob).role == ORGANISER
    assert "Rôle du membre bob modifié." in response.text


def test_change_role_refuses_an_unknown_role(lyon, alice, bob):
    response = client_for(alice).post(role_url(lyon, bob), {"role": "president"})

    assert response.status_code == 400
    assert "Choisissez un rôle dans la liste." in response.text
    assert membership(lyon, bob).role == MEMBER


def test_change_role_ignores_a_membership_of_another_club(lyon, alice, grenoble, charlie):
    url = role_url(grenoble, charlie).replace(grenoble.slug, lyon.slug)

    response = client_for(alice).post(url, {"role": MEMBER})

    assert response.status_code == 404
    assert membership(grenoble, charlie).role == ADMIN


def test_the_last_admin_cannot_step_down(lyon, alice):
    response = client_for(alice).post(role_url(lyon, alice), {"role": ORGANISER})

    assert response.status_code == 400
    assert LAST_ADMIN in response.text
    assert membership(lyon, alice).role == ADMIN


def test_an_admin_may_step_down_once_another_admin_exists(lyon, alice, bob):
    client = client_for(alice)
    client.post(role_url(lyon, bob), {"role": ADMIN})

    client.post(role_url(lyon, alice), {"role": MEMBER})

    assert membership(lyon, alice).role == MEMBER
    assert membership(lyon, bob).role == ADMIN
    assert client.post(role_url(lyon, bob), {"role": MEMBER}).status_code == 403


# Removing members


def remove_url(club, user):
    return reverse("club_member_remove", args=[club.slug, membership(club, user).pk])


def test_remove_member_sends_anonymous_visitors_to_login(client, lyon, bob):
    response = client.post(remove_url(lyon, bob))

    assert response.status_code == 302
    assert lyon.memberships.filter(user=bob).exists()


def test_remove_member_hides_the_club_from_outsiders(lyon, bob, charlie):
    response = client_for(charlie).post(remove_url(lyon, bob))

    assert response.status_code == 404
    assert lyon.memberships.filter(user=bob).exists()


@pytest.mark.parametrize("role", [ORGANISER, MEMBER])
def test_remove_member_is_forbidden_to_organisers_and_members(lyon, alice, bob, give_role, role):
    give_role(bob, role)

    response = client_for(bob).post(remove_url(lyon, alice))

    assert response.status_code == 403
    assert lyon.memberships.count() == 2


def test_it_removes_a_member(lyon, alice, bob):
    response = client_for(alice).post(remove_url(lyon, bob), follow=True)

    assert response.redirect_chain == [(reverse("club_detail", args=[lyon.slug]), 302)]
    assert not lyon.memberships.filter(user=bob).exists()
    assert "bob ne fait plus partie du club." in response.text
    assert client_for(bob).get(reverse("club_detail", args=[lyon.slug])).status_code == 404


def test_the_last_admin_cannot_remove_themselves(lyon, alice):
    response = client_for(alice).post(remove_url(lyon, alice))

    assert response.status_code == 400
    assert LAST_ADMIN in response.text
    assert membership(lyon, alice).role == ADMIN


def test_an_admin_removing_themselves_goes_back_to_their_clubs(lyon, alice, bob, give_role):
    give_role(bob, ADMIN)

    response = client_for(alice).post(remove_url(lyon, alice))

    assert response.status_code == 302
    assert response.url == reverse("clubs")
    assert not lyon.memberships.filter(user=alice).exists()


def test_remove_member_rejects_get(lyon, alice, bob):
    assert client_for(alice).get(remove_url(lyon, bob)).status_code == 405
    assert lyon.memberships.filter(user=bob).exists()


# Leaving


def leave_url(club):
    return reverse("club_leave", args=[club.slug])


def test_leave_sends_anonymous_visitors_to_login(client, lyon):
    response = client.post(leave_url(lyon))

    assert response.status_code == 302
    assert response.url.startswith(reverse(settings.LOGIN_URL))


def test_leave_hides_the_club_from_outsiders(lyon, charlie):
    assert client_for(charlie).post(leave_url(lyon)).status_code == 404


@pytest.mark.parametrize("role", [ORGANISER, MEMBER])
def test_a_member_or_organiser_may_leave(lyon, bob, give_role, role):
    give_role(bob, role)

    response = client_for(bob).post(leave_url(lyon), follow=True)

    assert response.redirect_chain == [(reverse("clubs"), 302)]
    assert not lyon.memberships.filter(user=bob).exists()
    assert "Vous avez quitté le club « Club de Lyon »." in response.text


def test_leave_rejects_get(lyon, bob):
    assert client_for(bob).get(leave_url(lyon)).status_code == 405
    assert lyon.memberships.filter(user=bob).exists()


# Admin screens


def test_admin_screens_list_clubs_and_memberships(lyon, bob, give_role):
    give_role(bob, ORGANISER)
    client = client_for(User.objects.create_superuser("root", "root@example.org", "root-password-2024"))

    clubs = client.get(reverse("admin:clubsite_club_changelist"))
    club = client.get(reverse("admin:clubsite_club_change", args=[lyon.pk]))
    memberships = client.get(reverse("admin:clubsite_membership_changelist"), {"role__exact": ORGANISER})
    user = client.get(reverse("admin:auth_user_change", args=[lyon.memberships.get(role=ORGANISER).user_id]))

    assert clubs.status_code == club.status_code == memberships.status_code == user.status_code == 200
    assert "Club de Lyon" in clubs.text
    assert "bob" in club.text
    assert [m.user.username for m in memberships.context["cl"].result_list] == ["bob"]
    assert "Club de Lyon" in user.text
