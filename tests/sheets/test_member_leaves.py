"""A member's account deleted in the admin: the games he shares stay with the other players (issue 12)."""

import pytest
from django.contrib.auth import get_user_model

from sheets.models import Game
from sheets.services import line_record
from tests.conftest import make_member

from .conftest import make_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def root(client):
    """The site's administrator, logged in to the admin."""
    user = make_member("root", is_staff=True, is_superuser=True)
    client.force_login(user)
    return user


def delete_in_the_admin(client, *users):
    """The admin's "Supprimer les utilisateurs sélectionnés" action, confirmed."""
    return client.post(
        "/admin/auth/user/",
        {"action": "delete_selected", "_selected_action": [user.pk for user in users], "post": "yes"},
    )


def test_a_game_passes_to_the_next_linked_player_when_its_keeper_leaves(client, root, alice, bob, charlie):
    """Issue 12: deleting Alice deleted the game Bob played in, his lines with it."""
    alice.first_name, alice.last_name = "Alice", "Martin"
    alice.save()
    game = make_game(alice, names=("", "Paul", ""), members=[alice, None, bob], rules="boite")
    for points in (20, 12, 30):
        line_record(game=game, kind="play", points=points)
    alone = make_game(alice, names=("Alice", "Paul"))  # no other member: nobody else could open it
    client.force_login(bob)
    assert client.get(f"/parties/{game.pk}/").status_code == 200
    client.force_login(root)
    assert client.get(f"/admin/auth/user/{alice.pk}/delete/").status_code == 200
    response = delete_in_the_admin(client, alice)
    assert response.status_code == 302
    assert not get_user_model().objects.filter(pk=alice.pk).exists()
    game.refresh_from_db()
    assert game.owner == bob
    assert list(game.lines.values_list("points", flat=True)) == [20, 12, 30]
    assert [(seat.name, seat.member) for seat in game.players.all()] == [
        ("Alice Martin", None),
        ("Paul", None),
        ("", bob),
    ]
    assert not Game.objects.filter(pk=alone.pk).exists()
    client.force_login(bob)  # the game is his to keep now
    assert "Alice Martin" in client.get(f"/parties/{game.pk}/").content.decode()
    assert client.post(f"/parties/{game.pk}/lignes/", {"kind": "play", "points": "8"}).status_code == 302


def test_two_members_deleted_at_once_pass_the_game_to_a_third(client, root, alice, bob, charlie):
    game = make_game(alice, names=("", "", ""), members=[alice, bob, charlie], rules="boite")
    delete_in_the_admin(client, alice, bob)
    game.refresh_from_db()
    assert game.owner == charlie
    assert [seat.name for seat in game.players.all()] == ["alice", "bob", ""]


def test_the_confirmation_page_lists_only_what_goes(client, root, alice, bob):
    shared = make_game(alice, names=("Alice", "Bob"), members=[alice, bob])
    alone = make_game(alice, names=("Alice", "Paul"))
    html = client.post(
        "/admin/auth/user/", {"action": "delete_selected", "_selected_action": [alice.pk]}
    ).content.decode()
    assert f"/admin/sheets/game/{alone.pk}/" in html
    assert f"/admin/sheets/game/{shared.pk}/" not in html
