"""What a session and a move know of themselves: the move being played, the timer's deadline, a weak top."""

import datetime

import pytest

from duplicate import services
from duplicate.models import Round

pytestmark = pytest.mark.django_db


def test_the_current_round_is_the_last_one_drawn(session):
    assert session.current_round() is None
    services.round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    second = services.round_add(session=session, draw_text="ST+AIONX")
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
