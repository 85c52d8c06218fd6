"""What sessions and moves know of themselves: who may see and who runs a session or a tournament, the move
being played, the timer's deadline, a weak top."""

import datetime

import pytest
from django.contrib.auth.models import AnonymousUser

from duplicate.models import Round, Session, Tournament
from duplicate.services.players import players_add
from duplicate.services.rounds import round_add
from duplicate.services.tournaments import tournament_create
from tests.conftest import accept_invitations, make_member

from .conftest import make_session

pytestmark = pytest.mark.django_db


@pytest.fixture
def guest(db):
    """A member of the site in no club, who plays in Alice's club session under his username."""
    return make_member("guest")


def test_who_sees_and_who_runs_sessions_and_tournaments(session, alice, bob, charlie, guest, lyon, grenoble):
    players_add(session=session, rows=[(9, "@guest")])
    accept_invitations(session.players.all())
    personal, in_grenoble = make_session(charlie), make_session(charlie, grenoble)
    cup = tournament_create(name="Coupe", creator=alice, sessions=[session, make_session(alice, lyon)])
    derby = tournament_create(name="Derby", creator=charlie, sessions=[personal, in_grenoble])
    lyon_sessions = set(Session.objects.filter(club=lyon))

    def sessions(queryset):
        return {user: set(queryset(user)) for user in (alice, bob, charlie, guest)}

    assert sessions(Session.objects.visible_to) == {
        alice: lyon_sessions,  # organiser
        bob: lyon_sessions,  # member
        charlie: {personal, in_grenoble},  # admin of his club, with a personal session
        guest: {session},  # player
    }
    assert sessions(Session.objects.organised_by) == {
        alice: lyon_sessions,
        bob: set(),
        charlie: {personal, in_grenoble},
        guest: set(),
    }
    assert sessions(Tournament.objects.visible_to) == {alice: {cup}, bob: {cup}, charlie: {derby}, guest: {cup}}
    assert sessions(Tournament.objects.organised_by) == {alice: {cup}, bob: set(), charlie: {derby}, guest: set()}
    for queryset in (Session.objects, Tournament.objects):
        assert not queryset.visible_to(AnonymousUser()).exists()
        assert not queryset.organised_by(AnonymousUser()).exists()


def test_the_current_round_is_the_last_one_drawn(session):
    assert session.current_round() is None
    round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    second = round_add(session=session, draw_text="ST+AIONX")
    assert session.current_round() == second  # its top not placed yet


def test_the_deadline_is_the_timer_start_plus_the_time_per_move(session):
    assert session.deadline is None
    session.timer_started_at = datetime.datetime(2026, 11, 24, 20, 30, tzinfo=datetime.UTC)
    assert session.deadline == datetime.datetime(2026, 11, 24, 20, 33, tzinfo=datetime.UTC)
    session.move_seconds = 150
    assert session.deadline == datetime.datetime(2026, 11, 24, 20, 32, 30, tzinfo=datetime.UTC)


def test_a_top_below_the_best_computed_move_is_flagged():
    suggestions = [{"move": "H2 ANHELaI", "score": 76}, {"move": "H2 INHALEe", "score": 76}]
    assert Round(draw="EHLA?NI", top="H8 HALE", top_score=14, suggestions=suggestions).top_below_best
    assert not Round(draw="EHLA?NI", top="H2 INHALEe", top_score=76, suggestions=suggestions).top_below_best
    assert not Round(draw="EHLA?NI", suggestions=suggestions).top_below_best  # no top yet
    assert not Round(draw="EHLA?NI", top="H8 HALE", top_score=14).top_below_best  # no word list, no suggestion


@pytest.mark.parametrize(("seconds", "label"), [(60, "1 min"), (150, "2 min 30"), (180, "3 min"), (45, "45 s")])
def test_the_time_per_move_reads_as_the_form_offered_it(seconds, label):
    assert Session(move_seconds=seconds).move_time == label
