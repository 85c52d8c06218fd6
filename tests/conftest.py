"""The tests' cast: one meaning for each name in every test, as healthchecks' alice, bob and charlie.

| fixture   | who                                   | password   | roles                                   |
| --------- | ------------------------------------- | ---------- | --------------------------------------- |
| `alice`   | Lyon's admin, who runs its sessions   | `PASSWORD` | Lyon: admin                             |
| `bob`     | a member of the Club de Lyon          | `PASSWORD` | Lyon: member                            |
| `charlie` | the outsider: on the site, in no club | `PASSWORD` | none (`grenoble`: his own club's admin) |
| `lyon`    | the Club de Lyon (slug `lyon`)        |            | alice admin, bob member                 |

Each has his username's address (`alice@example.org`) and no first or last name, so pages show the username. The
roles come with `lyon`: a test that asks for alice alone gets a member of no club. A test that needs another
situation sets it up where it is read: `give_role(bob, ORGANISER)`, `with_name(alice, "Alice", "Martin")`.
"""

import pytest
from django.contrib.auth import get_user_model
from django.test import override_settings

from clubsite.invitations import invitation_accept
from clubsite.models import Club, Invitation, Membership


@pytest.fixture(autouse=True, scope="session")
def _static_files_without_collectstatic():
    """Find static files in the apps and static/, as runserver does, even when DJANGO_DEBUG is off."""
    storages = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    with override_settings(STORAGES=storages, WHITENOISE_AUTOREFRESH=True, WHITENOISE_USE_FINDERS=True):
        yield


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """Tests create many users: a fast hasher keeps the suite quick (production keeps Django's default)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


PASSWORD = "tuile-scrabble-2024"  # the cast's, and that of anyone else a test makes a member


def make_member(username, **fields):
    """A member of the site with the cast's password and, unless `fields` say otherwise, his username's address."""
    fields.setdefault("email", f"{username}@example.org")
    return get_user_model().objects.create_user(username, password=PASSWORD, **fields)


@pytest.fixture
def alice(db):
    return make_member("alice")


@pytest.fixture
def bob(db):
    return make_member("bob")


@pytest.fixture
def charlie(db):
    return make_member("charlie")


@pytest.fixture
def lyon(alice, bob):
    """Alice is the Club de Lyon's admin (she runs its sessions as an organiser does); Bob is a plain member."""
    club = Club.objects.create(name="Club de Lyon", slug="lyon")
    Membership.objects.create(club=club, user=alice, role=Membership.Role.ADMIN)
    Membership.objects.create(club=club, user=bob, role=Membership.Role.MEMBER)
    return club


@pytest.fixture
def give_role(lyon):
    """`give_role(user, role)`: `user` holds `role` in the Club de Lyon from now on (joining it if he was outside),
    so that a test says where it departs from the cast: `give_role(bob, ORGANISER)`."""

    def give(user, role):
        Membership.objects.update_or_create(club=lyon, user=user, defaults={"role": Membership.Role(role)})
        return user

    return give


def with_name(user, first_name, last_name=""):
    """`user` with a first and a last name saved (the cast has none)."""
    user.first_name, user.last_name = first_name, last_name
    user.save(update_fields=["first_name", "last_name"])
    return user


@pytest.fixture
def grenoble(charlie):
    """Charlie's own club, which he runs as its admin: outside Lyon still."""
    club = Club.objects.create(name="Club de Grenoble", slug="grenoble")
    Membership.objects.create(club=club, user=charlie, role=Membership.Role.ADMIN)
    return club


def accept_invitations(seats):
    """Each member invited to one of `seats` (a queryset of a game's or a session's players) accepts."""
    for invitation in Invitation.objects.pending().for_seats(seats):
        invitation_accept(invitation=invitation, user=invitation.invitee)
