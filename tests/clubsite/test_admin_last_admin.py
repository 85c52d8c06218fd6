"""The last-admin rule in the site's admin too (issue 12): a club's page, a member's page, a membership's page and
the deletion of memberships or of members never leave a club without an admin. Alice is the only admin of the Club
de Lyon, Bob a plain member there (tests/conftest.py)."""

import html

import pytest
from django.contrib.auth.models import User

from clubsite.models import Membership

pytestmark = pytest.mark.django_db

ADMIN, ORGANISER, MEMBER = Membership.Role.ADMIN, Membership.Role.ORGANISER, Membership.Role.MEMBER
REFUSED = "Club de Lyon : le club doit garder au moins un administrateur."


@pytest.fixture
def root(client):
    client.force_login(User.objects.create_superuser("root", "root@example.org", "root-password-2024"))
    return client


def text(response):
    return html.unescape(response.content.decode())


def club_page(club, **rows):
    """The club's admin page as posted, each membership's row given as user=(role, delete)."""
    data = {
        "name": club.name,
        "slug": club.slug,
        "kind": club.kind,
        "memberships-TOTAL_FORMS": str(len(rows)),
        "memberships-INITIAL_FORMS": str(len(rows)),
        "memberships-MIN_NUM_FORMS": "0",
        "memberships-MAX_NUM_FORMS": "1000",
    }
    for i, (username, (role, delete)) in enumerate(rows.items()):
        membership = club.memberships.get(user__username=username)
        data |= {
            f"memberships-{i}-id": membership.pk,
            f"memberships-{i}-club": club.pk,
            f"memberships-{i}-user": membership.user_id,
            f"memberships-{i}-role": role,
        }
        if delete:
            data[f"memberships-{i}-DELETE"] = "on"
    return data


def user_page(user, *rows):
    """A member's admin page as posted, his memberships given as (club, role, delete)."""
    data = {
        "username": user.username,
        "email": user.email,
        "is_active": "on",
        "date_joined_0": user.date_joined.strftime("%d/%m/%Y"),
        "date_joined_1": user.date_joined.strftime("%H:%M:%S"),
        "memberships-TOTAL_FORMS": str(len(rows)),
        "memberships-INITIAL_FORMS": str(len(rows)),
        "memberships-MIN_NUM_FORMS": "0",
        "memberships-MAX_NUM_FORMS": "1000",
    }
    for i, (club, role, delete) in enumerate(rows):
        membership = user.memberships.get(club=club)
        data |= {
            f"memberships-{i}-id": membership.pk,
            f"memberships-{i}-user": user.pk,
            f"memberships-{i}-club": club.pk,
            f"memberships-{i}-role": role,
        }
        if delete:
            data[f"memberships-{i}-DELETE"] = "on"
    return data


def role_of(club, user):
    return club.memberships.filter(user=user).values_list("role", flat=True).first()


@pytest.mark.parametrize(("role", "delete"), [(MEMBER, False), (ADMIN, True)])
def test_the_clubs_page_keeps_its_last_admin(root, lyon, alice, role, delete):
    """Issue 12: the club's admin page demoted or removed its only admin."""
    response = root.post(
        f"/admin/clubsite/club/{lyon.pk}/change/", club_page(lyon, alice=(role, delete), bob=(MEMBER, False))
    )
    assert response.status_code == 200
    assert REFUSED in text(response)
    assert role_of(lyon, alice) == ADMIN


def test_the_clubs_page_may_hand_the_role_over(root, lyon, alice, bob):
    response = root.post(
        f"/admin/clubsite/club/{lyon.pk}/change/", club_page(lyon, alice=(MEMBER, False), bob=(ADMIN, False))
    )
    assert response.status_code == 302
    assert (role_of(lyon, alice), role_of(lyon, bob)) == (MEMBER, ADMIN)


@pytest.mark.parametrize(("role", "delete"), [(ORGANISER, False), (ADMIN, True)])
def test_the_members_page_keeps_the_last_admin(root, lyon, alice, role, delete):
    response = root.post(f"/admin/auth/user/{alice.pk}/change/", user_page(alice, (lyon, role, delete)))
    assert response.status_code == 200
    assert REFUSED in text(response)
    assert role_of(lyon, alice) == ADMIN


def test_the_members_page_may_change_another_role(root, lyon, bob):
    response = root.post(f"/admin/auth/user/{bob.pk}/change/", user_page(bob, (lyon, ORGANISER, False)))
    assert response.status_code == 302
    assert role_of(lyon, bob) == ORGANISER


def test_the_memberships_page_keeps_the_last_admin(root, lyon, alice):
    membership = lyon.memberships.get(user=alice)
    data = {"club": lyon.pk, "user": alice.pk, "role": MEMBER}
    response = root.post(f"/admin/clubsite/membership/{membership.pk}/change/", data)
    assert response.status_code == 200
    assert REFUSED in text(response)
    response = root.post(f"/admin/clubsite/membership/{membership.pk}/delete/", {"post": "yes"})
    assert response.status_code == 200
    assert REFUSED in text(response)
    assert role_of(lyon, alice) == ADMIN


def test_deleting_a_selection_of_memberships_keeps_an_admin(root, lyon, alice, bob, give_role):
    """Each of two admins may go, not both at once."""
    give_role(bob, ADMIN)
    selected = list(lyon.memberships.values_list("pk", flat=True))
    response = root.post(
        "/admin/clubsite/membership/", {"action": "delete_selected", "_selected_action": selected, "post": "yes"}
    )
    assert response.status_code == 200
    assert REFUSED in text(response)
    assert lyon.memberships.count() == 2
    response = root.post(
        "/admin/clubsite/membership/", {"action": "delete_selected", "_selected_action": selected[:1], "post": "yes"}
    )
    assert response.status_code == 302
    assert lyon.memberships.count() == 1


def test_deleting_the_last_admins_account_is_refused(root, lyon, alice, bob, give_role):
    """Issue 12: deleting Alice's account left the club with nobody to manage it."""
    response = root.post(f"/admin/auth/user/{alice.pk}/delete/", {"post": "yes"})
    assert response.status_code == 200
    page = text(response)
    assert REFUSED in page
    assert "Nommez d'abord un autre administrateur dans ces clubs, ou supprimez le club." in page
    assert User.objects.filter(pk=alice.pk).exists()
    give_role(bob, ADMIN)
    assert root.post(f"/admin/auth/user/{alice.pk}/delete/", {"post": "yes"}).status_code == 302
    assert not User.objects.filter(pk=alice.pk).exists()
