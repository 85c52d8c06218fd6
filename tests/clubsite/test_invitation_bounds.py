"""Invitations are bounded (issue 23: an attacker left 92 pending for one member). Each action of a member that
invites others counts once against his rate of invitations, however many it names (an arbiter seats 200 players
by @name in one paste), whether or not what he typed names an account; a seat gets at most one pending invitation
from one inviter to one member; the account page folds a long list, by inviter, and « Tout refuser » declines an
inviter's pending invitations, or all of them, at once.

The cast of tests/conftest.py: alice is the Club de Lyon's admin, bob a member there, charlie in no club."""

import datetime

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from clubsite.invitations import seats_invite
from clubsite.models import ApiToken, Club, Invitation, Membership
from duplicate.games import GameRound
from duplicate.models import Session
from duplicate.services.simultanes import simultane_create
from scoring.models import Edition, RuleSet
from sheets.models import Game
from tests.conftest import with_name
from tests.duplicate.conftest import make_session
from tests.sheets.conftest import make_game

pytestmark = pytest.mark.django_db

REFUSED = "Trop de demandes en peu de temps : réessayez dans"


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def two_an_hour(settings):
    settings.NINJA_DEFAULT_THROTTLE_RATES = {
        **settings.NINJA_DEFAULT_THROTTLE_RATES,
        "visitor_invitation": "2/hour",
        "member_invitation": "2/hour",
    }


def assert_refused(response):
    assert response.status_code == 429
    assert int(response["Retry-After"]) > 0
    assert REFUSED in response.content.decode()


def new_game(client, member2):
    data = {"name1": "Alice", "member2": member2, "edition": 1, "rule_set": 1, "timer_seconds": 0}
    return client.post("/parties/nouvelle/", data)


# The rate of invitations


def test_the_rate_comes_from_the_settings(settings):
    assert settings.NINJA_DEFAULT_THROTTLE_RATES["member_invitation"] == "30/hour"


def test_new_games_that_invite_are_counted(alice, bob, two_an_hour):
    client = client_for(alice)
    # An address without an account counts as one with: the rate tells nobody which addresses have one.
    assert new_game(client, "personne@example.org").status_code == 302
    assert new_game(client, "bob").status_code == 302

    response = new_game(client, "bob@example.org")

    assert_refused(response)
    assert Game.objects.count() == 2
    assert Invitation.objects.count() == 1


def test_a_game_that_invites_nobody_else_is_not_counted(alice, bob, two_an_hour):
    client = client_for(alice)
    new_game(client, "bob")
    new_game(client, "bob")

    assert new_game(client, "").status_code == 302
    assert new_game(client, "alice").status_code == 302  # she places herself: nobody's consent is asked
    assert new_game(client, "ALICE@example.org").status_code == 302
    assert Game.objects.count() == 5


def test_a_game_again_with_its_members_is_counted(alice, bob, two_an_hour):
    game = make_game(alice, members=[alice, bob])
    client = client_for(alice)
    url = reverse("sheets:again", args=[game.pk])
    client.post(url)
    client.post(url)

    response = client.post(url)

    assert_refused(response)
    assert Game.objects.count() == 3


def test_a_game_file_that_names_members_is_counted(alice, bob, two_an_hour):
    text = "#player1 ann Ann\n#player2 ben Ben\n#clubsite-member2 bob\n>ann: AEGUV?? 8D VAGUE +26 26\n"
    client = client_for(alice)

    def upload():
        data = {"file": SimpleUploadedFile("partie.gcg", text.encode()), "rule_set": RuleSet.objects.first().pk}
        return client.post("/parties/importer/", data)

    assert upload().status_code == upload().status_code == 302

    assert_refused(upload())
    assert Game.objects.count() == 2


def test_two_hundred_players_pasted_at_once_count_once(alice, lyon, settings):
    settings.NINJA_DEFAULT_THROTTLE_RATES = {
        **settings.NINJA_DEFAULT_THROTTLE_RATES,
        "visitor_invitation": "1/hour",
        "member_invitation": "1/hour",
    }
    User.objects.bulk_create(User(username=f"joueur{n}", email=f"joueur{n}@example.org") for n in range(200))
    lines = "\n".join(f"{n + 1};@joueur{n}" for n in range(200))
    client = client_for(alice)
    data = {"name": "Open", "date": "2026-11-24", "edition": 1, "rule_set": 1, "move_seconds": 180}

    response = client.post("/duplicate/nouvelle/", {**data, "entry": "arbiter", "club": lyon.pk, "players": lines})

    assert response.status_code == 302
    session = Session.objects.get()
    assert Invitation.objects.filter(inviter=alice).count() == 200
    # One more player pasted: a second action, past the rate of one an hour.
    refused = client.post(reverse("duplicate:players_add", args=[session.pk]), {"players": "201;@bob"})
    assert_refused(refused)
    assert session.players.count() == 200


def test_players_pasted_on_the_console_are_counted(alice, lyon, two_an_hour):
    session = make_session(alice, lyon)
    client = client_for(alice)
    url = reverse("duplicate:players_add", args=[session.pk])
    assert client.post(url, {"players": "3;@personne@example.org"}).status_code == 302
    assert client.post(url, {"players": "4;Zoé"}).status_code == 302  # names nobody to invite
    assert client.post(url, {"players": "5;@bob"}).status_code == 302

    response = client.post(url, {"players": "6;@charlie@example.org"})

    assert_refused(response)
    assert session.players.count() == 5


def test_a_session_again_with_its_members_is_counted(alice, bob, lyon, two_an_hour):
    session = make_session(alice, lyon, players=["Alice", "@bob"])
    client = client_for(alice)
    url = reverse("duplicate:again", args=[session.pk])
    client.post(url, {"name": "Deux", "date": "2026-11-25"})
    client.post(url, {"name": "Trois", "date": "2026-11-26"})

    response = client.post(url, {"name": "Quatre", "date": "2026-11-27"})

    assert_refused(response)
    assert Session.objects.count() == 3


def test_a_room_registered_with_members_is_counted(alice, bob, lyon, settings):
    settings.NINJA_DEFAULT_THROTTLE_RATES = {
        **settings.NINJA_DEFAULT_THROTTLE_RATES,
        "visitor_invitation": "0/hour",
        "member_invitation": "0/hour",
    }
    body = Club.objects.create(name="Fédération", slug="federation", kind=Club.Kind.FEDERATION)
    Membership.objects.create(club=body, user=alice, role=Membership.Role.ORGANISER)
    simultane = simultane_create(
        body=body,
        creator=alice,
        name="Simultané de décembre",
        starts_at=timezone.now() + datetime.timedelta(days=1),
        edition=Edition.objects.get(code="fr"),
        rule_set=RuleSet.objects.get(code="tournoi"),
        move_seconds=180,
        game=[GameRound(1, "VAGUEST", "H4 VAGUE", 26)],
    )
    url = reverse("duplicate:simultane_register", args=[simultane.pk])

    response = client_for(alice).post(url, {"club": lyon.pk, "entry": "arbiter", "players": "1;@bob"})

    assert_refused(response)
    assert not Session.objects.filter(simultane=simultane).exists()


def test_a_session_created_through_the_api_is_counted(client, alice, bob, lyon, two_an_hour):
    token = ApiToken.issue(alice)

    def create(players):
        body = {"name": "Mardi", "edition": "fr", "players": players, "club": lyon.pk}
        return client.post(
            "/api/duplicate/sessions", body, content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {token}"
        )

    assert create(["@bob", "@charlie@example.org"]).status_code == 201
    assert create(["Ann", "Ben"]).status_code == 201
    assert create(["@bob"]).status_code == 201

    response = create(["@bob"])

    assert response.status_code == 429
    assert response.json()["detail"].startswith(REFUSED)
    assert Session.objects.count() == 3


# One pending invitation to a seat from one inviter


def test_a_seat_gets_one_pending_invitation_from_one_inviter(alice, bob):
    game = make_game(alice, members=[None, bob], accepted=False)
    seat = game.players.get(position=1)

    seats_invite(inviter=alice, invites=[(seat, bob), (seat, bob)])

    assert Invitation.objects.filter(invitee=bob).count() == 1


def test_the_database_keeps_it_so(alice, bob):
    game = make_game(alice, members=[None, bob], accepted=False)
    pending = Invitation.objects.get()

    with pytest.raises(IntegrityError), transaction.atomic():
        Invitation.objects.create(invitee=bob, inviter=alice, target=pending.target)
    pending.status = Invitation.Status.DECLINED
    pending.save(update_fields=["status"])
    Invitation.objects.create(invitee=bob, inviter=alice, target=game.players.get(position=1))  # asked again
    assert Invitation.objects.pending().count() == 1


# The account page: folded by inviter, « Tout refuser »


def flood(inviter, invitee, count):
    """`count` games of `inviter`'s, each inviting `invitee` to a seat."""
    for _ in range(count):
        make_game(inviter, names=("Moi", ""), members=[None, invitee], accepted=False)


def test_the_account_page_groups_the_invitations_by_inviter_and_folds_a_long_list(alice, bob, charlie):
    with_name(charlie, "Charles", "Martin")
    flood(charlie, bob, 12)
    flood(alice, bob, 1)

    page = client_for(bob).get(reverse("profile"))

    groups = page.context["invitation_groups"]
    # The newest first, as the invitations within a group: a flood does not push a friend's invitation down.
    assert [(group.inviter, group.count) for group in groups] == [(alice, 1), (charlie, 12)]
    assert [len(group.shown) for group in groups] == [1, 3]
    assert [len(group.folded) for group in groups] == [0, 9]
    text = page.content.decode()
    assert "Charles Martin vous invite (12 invitations)" in text
    assert "Voir les 9 autres invitations de Charles Martin" in text
    assert 'aria-label="Tout refuser de Charles Martin"' in text
    assert "Tout refuser de alice" not in text  # one invitation: its own « Refuser »
    assert "Tout refuser (13 invitations)" in text


def decline_all(client, inviter=None):
    data = {"inviter": inviter.pk} if inviter else {}
    return client.post(reverse("invitations_decline_all"), data, follow=True)


def test_tout_refuser_declines_one_inviters_pending_invitations(alice, bob, charlie):
    flood(charlie, bob, 5)
    flood(alice, bob, 2)
    flood(charlie, alice, 1)

    response = decline_all(client_for(bob), inviter=charlie)

    assert response.redirect_chain == [(reverse("profile"), 302)]
    assert "5 invitations refusées." in response.content.decode()
    assert Invitation.objects.filter(invitee=bob, inviter=charlie, status="declined").count() == 5
    assert Invitation.objects.filter(invitee=bob, inviter=alice).pending().count() == 2
    assert Invitation.objects.filter(invitee=alice).pending().count() == 1


def test_tout_refuser_without_an_inviter_declines_them_all(alice, bob, charlie):
    flood(charlie, bob, 3)
    flood(alice, bob, 1)
    accepted = Invitation.objects.filter(inviter=alice).get()
    accepted.status = Invitation.Status.ACCEPTED
    accepted.save(update_fields=["status"])
    flood(alice, bob, 1)

    response = decline_all(client_for(bob))

    assert "4 invitations refusées." in response.content.decode()
    assert not Invitation.objects.pending().exists()
    assert Invitation.objects.filter(status="accepted").get() == accepted


def test_tout_refuser_with_nothing_pending_says_so(bob, charlie):
    response = decline_all(client_for(bob), inviter=charlie)

    assert response.redirect_chain == [(reverse("profile"), 302)]
    assert "Aucune invitation en attente." in response.content.decode()


def test_tout_refuser_refuses_an_inviter_that_is_no_number(bob):
    response = client_for(bob).post(reverse("invitations_decline_all"), {"inviter": "charlie"})

    assert response.status_code == 400


def test_tout_refuser_needs_a_logged_in_member_and_a_post(client, alice, bob):
    flood(alice, bob, 1)

    assert client.post(reverse("invitations_decline_all")).status_code == 302
    assert client_for(bob).get(reverse("invitations_decline_all")).status_code == 405
    assert Invitation.objects.pending().count() == 1
