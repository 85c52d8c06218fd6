import pytest

from scoring.models import Edition, RuleSet
from sheets.services import game_create


def make_game(owner, names=("Alice", "Bob"), rules="tournoi", members=None, **fields):
    """A French game through the service; `fields` are its other arguments (timer_seconds)."""
    members = members or [None] * len(names)
    game, _switched = game_create(
        owner=owner,
        players=list(zip(names, members, strict=True)),
        edition=Edition.objects.get(code="fr"),
        rule_set=RuleSet.objects.get(code=rules),
        **fields,
    )
    return game


@pytest.fixture
def game(alice, bob):
    """Alice keeps the sheet of her game against Bob, whose player is linked to his account."""
    return make_game(alice, members=[alice, bob])
