"""Consent to be linked (issue 12): a member named on someone else's sheet or session is invited, and linked only
once he accepts on his account page; until then the seat is the name typed, and nothing of him is shown."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils.html import escape

from clubsite.models import Invitation
from duplicate.models import Session
from scoring.models import RuleSet
from sheets.models import Game
from sheets.services import INVITED
from tests.conftest import with_name
from tests.duplicate.conftest import make_session

pytestmark = pytest.mark.django_db


INVITED_HTML = escape(str(INVITED))


@pytest.fixture
def bobs_private_names(bob):
    """Bob's first and last names, which whoever names him on a sheet or a session must not read."""
    with_name(bob, "Robert", "Secret")
    return ["Robert", "Secret"]


def new_game(client, member2, name2=""):
    data = {"name1": "Alice", "name2": name2, "member2": member2, "edition": 1, "rule_set": 1, "timer_seconds": 0}
    return client.post("/parties/nouvelle/", data, follow=True)


def accept_url(invitation):
    return reverse("invitation_accept", args=[invitation.pk])


def test_a_member_named_on_a_sheet_is_invited_not_linked(client, alice, bob, bobs_private_names):
    client.force_login(alice)

    response = new_game(client, "bob")

    game = Game.objects.get()
    assert [(p.name, p.member) for p in game.players.all()] == [("Alice", None), ("bob", None)]
    assert INVITED_HTML in response.text
    for private in [*bobs_private_names, "bob@example.org"]:
        assert private not in response.text
    invitation = Invitation.objects.get()
    assert (invitation.invitee, invitation.inviter, invitation.target, invitation.status) == (
        bob,
        alice,
        game.players.get(position=1),
        "pending",
    )
    client.force_login(bob)
    assert client.get(f"/parties/{game.pk}/").status_code == 404
    assert f"/parties/{game.pk}/" not in client.get("/parties/").text


def test_the_invitee_accepts_on_his_page_and_finds_the_game_in_his_history(client, alice, bob):
    client.force_login(alice)
    new_game(client, "bob", name2="Bobby")
    game = Game.objects.get()
    client.force_login(bob)

    page = client.get(reverse("profile"))
    assert "alice vous invite :" in page.text
    assert "tenue par alice, à la place de « Bobby »" in page.text
    assert "Accepter" in page.text and "Refuser" in page.text

    response = client.post(accept_url(Invitation.objects.get()), follow=True)

    assert response.redirect_chain == [(f"/parties/{game.pk}/", 302)]
    assert "Invitation acceptée : elle figure maintenant dans votre historique." in response.text
    assert game.players.get(position=1).member == bob
    assert Invitation.objects.get().status == "accepted"
    assert f"/parties/{game.pk}/" in client.get("/parties/").text
    assert "Accepter" not in client.get(reverse("profile")).text


def test_the_invitee_declines_and_stays_unlinked(client, alice, bob):
    client.force_login(alice)
    new_game(client, "bob")
    game = Game.objects.get()
    client.force_login(bob)

    response = client.post(reverse("invitation_decline", args=[Invitation.objects.get().pk]), follow=True)

    assert response.redirect_chain == [(reverse("profile"), 302)]
    assert "Invitation refusée : votre compte n&#x27;est pas lié à cette place." in response.text
    assert game.players.get(position=1).member is None
    assert Invitation.objects.get().status == "declined"
    assert client.get(f"/parties/{game.pk}/").status_code == 404


def test_an_address_is_answered_alike_whether_it_has_an_account_or_not(client, alice, bob):
    client.force_login(alice)

    known = new_game(client, "bob@example.org")
    unknown = new_game(client, "personne@example.org")

    assert known.status_code == unknown.status_code == 200
    assert INVITED_HTML in known.text and INVITED_HTML in unknown.text
    names = [list(game.players.values_list("name", "member")) for game in Game.objects.order_by("pk")]
    assert names == [[("Alice", None), ("bob", None)], [("Alice", None), ("personne", None)]]
    assert [invitation.invitee for invitation in Invitation.objects.all()] == [bob]


def test_an_unknown_user_name_is_refused_since_names_are_public(client, alice):
    client.force_login(alice)

    response = new_game(client, "personne")

    assert response.status_code == 400
    assert "Aucun membre ne porte ce nom." in response.text
    assert Game.objects.count() == 0


def test_the_owner_naming_himself_is_linked_at_once(client, alice):
    client.force_login(alice)
    data = {"name1": "", "member1": "alice", "name2": "Paul", "edition": 1, "rule_set": 1, "timer_seconds": 0}

    response = client.post("/parties/nouvelle/", data, follow=True)

    assert Game.objects.get().players.get(position=0).member == alice
    assert Invitation.objects.count() == 0
    assert INVITED_HTML not in response.text


def test_only_the_invitee_answers_and_only_once(client, alice, bob, charlie):
    client.force_login(alice)
    new_game(client, "bob")
    invitation = Invitation.objects.get()

    client.force_login(charlie)
    assert client.post(accept_url(invitation)).status_code == 404
    client.force_login(alice)
    assert client.post(accept_url(invitation)).status_code == 404
    client.force_login(bob)
    assert client.get(accept_url(invitation)).status_code == 405
    client.post(accept_url(invitation))
    again = client.post(reverse("invitation_decline", args=[invitation.pk]), follow=True)

    assert "Cette invitation a déjà reçu une réponse." in again.text
    invitation.refresh_from_db()
    assert invitation.status == "accepted"


def test_a_member_already_seated_cannot_take_a_second_seat(client, alice, bob):
    client.force_login(alice)
    data = {"member1": "bob", "member2": "bob", "edition": 1, "rule_set": 1, "timer_seconds": 0}
    client.post("/parties/nouvelle/", data)
    first, second = Invitation.objects.order_by("pk")
    client.force_login(bob)
    client.post(accept_url(first))

    response = client.post(accept_url(second), follow=True)

    assert "Vous figurez déjà dans cette partie." in response.text
    assert list(Game.objects.get().players.values_list("member", flat=True)) == [bob.pk, None]
    second.refresh_from_db()
    assert second.status == "pending"


def test_a_deleted_game_takes_its_invitations_along(client, alice, bob):
    client.force_login(alice)
    new_game(client, "bob")
    client.post(f"/parties/{Game.objects.get().pk}/supprimer/")

    assert Invitation.objects.count() == 0
    client.force_login(bob)
    assert "Accepter" not in client.get(reverse("profile")).text


def test_a_gcg_file_naming_a_member_invites_him(client, alice, bob):
    record = "#player1 A Alice\n#player2 B Bob\n#clubsite-member2 bob\n>A: ABC H4 CAB +14 14\n"
    client.force_login(alice)
    upload = SimpleUploadedFile("partie.gcg", record.encode())

    response = client.post(
        "/parties/importer/", {"file": upload, "rule_set": RuleSet.objects.get(code="tournoi").pk}, follow=True
    )

    assert INVITED_HTML in response.text
    assert list(Game.objects.get().players.values_list("member", flat=True)) == [None, None]
    assert Invitation.objects.get().invitee == bob


def test_a_session_player_named_by_username_is_invited_and_shown_as_typed(client, alice, bob, lyon, bobs_private_names):
    session = make_session(alice, lyon, players=("Anne",))
    client.force_login(alice)

    client.post(f"/duplicate/{session.pk}/joueurs/", {"players": "5;@bob"})

    player = session.players.get(table=5)
    assert (player.name, player.member) == ("bob", None)
    page = client.get(f"/duplicate/{session.pk}/").text
    assert not [name for name in bobs_private_names if name in page]
    client.force_login(bob)
    profile = client.get(reverse("profile")).text
    assert "Séance de duplicate « Mardi soir » du 24 novembre 2026, sous le nom « bob »." in profile

    response = client.post(accept_url(Invitation.objects.get()), follow=True)

    assert response.redirect_chain == [(f"/duplicate/{session.pk}/recapitulatif/", 302)]
    player.refresh_from_db()
    assert player.member == bob
    assert list(Session.objects.played_by(bob)) == [session]


def test_a_session_copy_invites_its_linked_members_again(alice, bob, lyon):
    from duplicate.services.sessions import session_again

    session = make_session(alice, lyon, players=[(1, "@alice"), (2, "@bob")])
    assert list(session.players.values_list("member", flat=True)) == [alice.pk, bob.pk]

    copy = session_again(session=session, creator=alice)

    assert list(copy.players.values_list("name", "member")) == [("alice", alice.pk), ("bob", None)]
    assert Invitation.objects.pending().get().invitee == bob


def test_the_header_counts_the_invitations_waiting(client, alice, bob):
    client.force_login(alice)
    new_game(client, "bob")
    new_game(client, "bob")
    assert 'class="badge"' not in client.get("/").text  # Alice has none

    client.force_login(bob)
    assert 'title="Invitations en attente">2</span>' in client.get("/").text
    client.post(accept_url(Invitation.objects.first()))
    assert 'title="Invitations en attente">1</span>' in client.get("/").text


def test_the_owner_naming_himself_twice_gets_one_seat(client, alice):
    client.force_login(alice)
    data = {"member1": "alice", "member2": "alice@example.org", "edition": 1, "rule_set": 1, "timer_seconds": 0}

    response = client.post("/parties/nouvelle/", data)

    assert response.status_code == 302
    assert list(Game.objects.get().players.values_list("name", "member")) == [("alice", alice.pk), ("alice", None)]
