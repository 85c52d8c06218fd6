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


# The cast of the tests of sheets and duplicate sessions; each app's conftest gives them their roles.


@pytest.fixture
def alice(db):
    return get_user_model().objects.create_user("alice", "alice@example.org", "motdepasse-alice")


@pytest.fixture
def bob(db):
    return get_user_model().objects.create_user("bob", "bob@example.org", "motdepasse-bob")


@pytest.fixture
def charlie(db):
    return get_user_model().objects.create_user("charlie", "charlie@example.org", "motdepasse-charlie")


@pytest.fixture
def lyon(alice, bob):
    """Alice organises the Club de Lyon; Bob is a plain member there."""
    club = Club.objects.create(name="Club de Lyon", slug="lyon")
    Membership.objects.create(club=club, user=alice, role=Membership.Role.ORGANISER)
    Membership.objects.create(club=club, user=bob, role=Membership.Role.MEMBER)
    return club


@pytest.fixture
def grenoble(charlie):
    """Charlie runs another club."""
    club = Club.objects.create(name="Club de Grenoble", slug="grenoble")
    Membership.objects.create(club=club, user=charlie, role=Membership.Role.ADMIN)
    return club


def accept_invitations(seats):
    """Each member invited to one of `seats` (a queryset of a game's or a session's players) accepts."""
    for invitation in Invitation.objects.pending().for_seats(seats):
        invitation_accept(invitation=invitation, user=invitation.invitee)
