import datetime

import pytest

from clubsite.models import Club, Membership
from duplicate import services
from duplicate.models import Session
from scoring.models import Edition, RuleSet
from tests.conftest import accept_invitations


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


def make_session(creator, club=None, players=("Alice", "Bob"), accepted=True, **fields):
    """A session through the service, its players named at tables 1, 2… or given as (table, name) rows; `fields`
    change the service's other arguments. The members named `@username` are linked to their seats, as once they
    accept the invitation (`accepted=False` leaves it waiting)."""
    arguments = {
        "name": "Mardi soir",
        "date": datetime.date(2026, 11, 24),
        "edition": Edition.objects.get(code="fr"),
        "rule_set": RuleSet.objects.get(code="tournoi"),
        "move_seconds": 180,
        "entry": Session.Entry.BOTH,
        "players": [row if isinstance(row, tuple) else (table, row) for table, row in enumerate(players, start=1)],
    }
    session = services.session_create(creator=creator, club=club, **(arguments | fields))
    if accepted:
        accept_invitations(session.players.all())
    return session


@pytest.fixture
def session(alice, lyon):
    return make_session(alice, lyon)
