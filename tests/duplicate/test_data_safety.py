"""A member's account or a club deleted in the admin: the sessions, results and history others share stay
(issue 12)."""

import html

import pytest
from django.contrib.auth import get_user_model

from clubsite.models import Club
from duplicate.models import Result, Session, Tournament
from duplicate.services.results import result_set
from duplicate.services.rounds import round_add
from duplicate.services.tournaments import tournament_create
from tests.conftest import make_member

from .conftest import make_session

pytestmark = pytest.mark.django_db


@pytest.fixture
def root(client):
    """The site's administrator, logged in to the admin."""
    user = make_member("root", is_staff=True, is_superuser=True)
    client.force_login(user)
    return user


def played(session, *scores):
    """One move with a result for each player, in table order."""
    round_ = round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    for player, score in zip(session.players.all(), scores, strict=False):
        result_set(round_=round_, player=player, score=score, by=session.creator)
    return session


def test_the_creators_account_deleted_the_club_session_stays_with_the_club(client, root, alice, bob, lyon, give_role):
    """Issue 12: Alice, who created the club's sessions, could not leave (her account could not be deleted) or,
    for her personal sessions, took the results of the members who played in them with her."""
    give_role(alice, "organiser")  # not its admin: a club's last admin keeps her account (test_admin_last_admin.py)
    session = played(make_session(alice, lyon), 26, 18)
    cup = tournament_create(name="Coupe", creator=alice, sessions=[session, make_session(alice, lyon)])
    response = client.post(f"/admin/auth/user/{alice.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert not get_user_model().objects.filter(pk=alice.pk).exists()
    session.refresh_from_db()
    assert (session.club, session.creator) == (lyon, None)
    assert list(Result.objects.filter(round__session=session).values_list("score", flat=True)) == [26, 18]
    assert Tournament.objects.get(pk=cup.pk).creator is None
    client.force_login(bob)  # a member of the club still reads the recap
    assert client.get(f"/duplicate/{session.pk}/recapitulatif/").status_code == 200
    history = client.get(f"/duplicate/{session.pk}/historique/").status_code
    assert history == 403  # only organisers read the history; the club's next organiser will


def test_a_personal_session_stays_while_another_member_plays_in_it(client, root, alice, bob, charlie):
    shared = played(make_session(alice, players=["@alice", "@bob", "Paul"]), 26, 20, 18)
    alone = played(make_session(alice, players=["@alice", "Paul"]), 26, 20)
    derby = tournament_create(name="Derby", creator=alice, sessions=[shared, alone])
    client.post(f"/admin/auth/user/{alice.pk}/delete/", {"post": "yes"})
    assert list(Session.objects.all()) == [shared]
    assert not Tournament.objects.filter(pk=derby.pk).exists()  # it only grouped her sessions
    client.force_login(bob)
    html = client.get(f"/duplicate/{shared.pk}/recapitulatif/").content.decode()
    assert "Paul" in html
    assert client.get(f"/duplicate/{shared.pk}/").status_code == 302  # to the recap: nobody runs it now


def test_the_history_keeps_who_made_a_change(client, root, alice, bob, lyon, give_role):
    give_role(alice, "organiser")  # not its admin: a club's last admin keeps her account
    session = played(make_session(alice, lyon), 26)
    client.post(f"/admin/auth/user/{alice.pk}/delete/", {"post": "yes"})
    change = session.changes.filter(field="score").get()
    assert (change.user, change.user_name) == (None, "alice")
    give_role(bob, "organiser")
    client.force_login(bob)
    assert "alice (compte supprimé)" in client.get(f"/duplicate/{session.pk}/historique/").content.decode()


def test_a_club_with_played_sessions_is_not_deleted(client, root, alice, lyon):
    """Issue 12: deleting a club deleted its sessions and every result in them."""
    session = played(make_session(alice, lyon), 26, 18)
    empty = make_session(alice, lyon, name="Vendredi")
    page = html.unescape(client.get(f"/admin/clubsite/club/{lyon.pk}/delete/").content.decode())
    assert "Ce club a joué des séances dont les résultats appartiennent à leurs joueurs" in page
    assert "Séance de duplicate: Mardi soir" in page and "Vendredi" not in page  # what blocks the deletion
    response = client.post(f"/admin/clubsite/club/{lyon.pk}/delete/", {"post": "yes"})
    assert response.status_code == 200  # the same page, nothing deleted
    assert Club.objects.filter(pk=lyon.pk).exists()
    assert Session.objects.filter(pk__in=[session.pk, empty.pk]).count() == 2
    assert Result.objects.filter(round__session=session).count() == 2
    response = client.post(
        "/admin/clubsite/club/", {"action": "delete_selected", "_selected_action": [lyon.pk], "post": "yes"}
    )
    assert response.status_code == 200
    assert Club.objects.filter(pk=lyon.pk).exists()


def test_a_club_whose_sessions_have_no_result_is_deleted_with_them(client, root, alice, lyon):
    make_session(alice, lyon)
    response = client.post(f"/admin/clubsite/club/{lyon.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert not Club.objects.exists() and not Session.objects.exists()
