import pytest

from scoring.models import Edition, RuleSet
from sheets.services import game_create
from tests.conftest import accept_invitations


def make_game(owner, names=("Alice", "Bob"), rules="tournoi", members=None, accepted=True, **fields):
    """A French game through the service; `fields` are its other arguments (timer_seconds). The members named are
    linked to their seats, as once they accept the invitation (`accepted=False` leaves it waiting)."""
    members = members or [None] * len(names)
    game, _switched = game_create(
        owner=owner,
        players=list(zip(names, members, strict=True)),
        edition=Edition.objects.get(code="fr"),
        rule_set=RuleSet.objects.get(code=rules),
        **fields,
    )
    if accepted:
        accept_invitations(game.players.all())
    return game


@pytest.fixture
def game(alice, bob):
    """Alice keeps the sheet of her game against Bob, whose player is linked to his account."""
    return make_game(alice, members=[alice, bob])
