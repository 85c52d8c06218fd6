import pytest
from django.contrib.auth import get_user_model

from scoring.models import Edition, RuleSet
from sheets.services import game_create


@pytest.fixture
def alice(db):
    return get_user_model().objects.create_user("alice", "alice@example.org", "motdepasse-alice")


@pytest.fixture
def bob(db):
    return get_user_model().objects.create_user("bob", "bob@example.org", "motdepasse-bob")


@pytest.fixture
def charlie(db):
    return get_user_model().objects.create_user("charlie", "charlie@example.org", "motdepasse-charlie")


def make_game(owner, names=("Alice", "Bob"), rules="tournoi", members=None):
    members = members or [None] * len(names)
    game, _switched = game_create(
        owner=owner,
        players=list(zip(names, members, strict=True)),
        edition=Edition.objects.get(code="fr"),
        rule_set=RuleSet.objects.get(code=rules),
    )
    return game


@pytest.fixture
def game(alice, bob):
    """Alice keeps the sheet of her game against Bob, whose player is linked to his account."""
    return make_game(alice, members=[alice, bob])
