"""A member's duplicate numbers on his progress page (issue 15): his finished sessions, their percentages, places,
solos and scrabbles, the chart, the filters, and a number of queries that does not grow with the sessions."""

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubsite.progress import ProgressFilters
from duplicate.progress import member_progress
from duplicate.services.results import Entry, results_set
from duplicate.services.rounds import round_add
from duplicate.services.sessions import session_finish
from tests.duplicate.conftest import TOPS, make_session, play_the_evening

pytestmark = pytest.mark.django_db

# The tops of TOPS: VAGUE 26, AVIONS 18, SEXE 13, SOUHAITE 71 (seven tiles through the O: the one scrabble).
TOPS_TOTAL = 128


def bobs_session(organiser, club, bobs, *, date, name="Jeudi", finish=True, **fields):
    """A session of the four TOPS where Bob (table 1, linked) writes `bobs` (a move or a score each) and Paul 10 on
    every move: each of Bob's moves above 10 is a solo, worth no bonus with two players."""
    session = make_session(organiser, club, players=["@bob", "Paul"], date=date, name=name, **fields)
    bob, paul = session.players.order_by("table")
    for (draw, top), entry in zip(TOPS, bobs, strict=True):
        round_ = round_add(session=session, draw_text=draw, top_text=top)
        mine = Entry(bob.pk, move=entry) if isinstance(entry, str) else Entry(bob.pk, entry)
        results_set(round_=round_, entries=[mine, Entry(paul.pk, 10)])
    if finish:
        session_finish(session=session)
    return session


@pytest.fixture
def evenings(alice, bob, lyon):
    """Bob's sessions: the Lyon evening of the recap (24 November 2026: 75 of 128, 58.6 %, 2nd of 16, a solo, the
    scrabble missed); every top in Lyon on 1 December, SOUHAITE written (100 %, 1st of 2, 4 solos, the scrabble
    found); his own session of 10 January 2027 where he gives 71 alone on move 4 (20 + 10 + 5 + 71 = 106, 82.8 %,
    the scrabble found by its score). Left out: a session still played, one where he is invited but has not
    accepted, and one where he is not."""
    evening, _bob, _paul = play_the_evening(alice, lyon, linked="bob")
    every_top = bobs_session(
        alice, lyon, ["H4 VAGUE", 18, "L4 SEXE", "J3 SOUHAITE"], date=datetime.date(2026, 12, 1), name="Tops"
    )
    alone = bobs_session(bob, None, [20, 10, 5, 71], date=datetime.date(2027, 1, 10), name="Chez moi")
    bobs_session(alice, lyon, [26, 18, 13, 71], date=datetime.date(2026, 12, 8), finish=False)
    make_session(alice, lyon, players=["@bob"], accepted=False)
    make_session(alice, lyon, players=["Alice"])
    return evening, every_top, alone


def test_it_counts_his_finished_sessions(bob, evenings):
    evening, every_top, alone = evenings
    progress = member_progress(bob, ProgressFilters())
    rows = [
        (line.session, line.total, line.tops_total, line.percent, line.place, line.players, line.solos)
        for line in progress.summary.sessions
    ]
    assert rows == [
        (alone, 106, TOPS_TOTAL, 82.8, 1, 2, 2),  # Paul's 10 beats his 5, equals his 10
        (every_top, TOPS_TOTAL, TOPS_TOTAL, 100.0, 1, 2, 4),
        (evening, 75, TOPS_TOTAL, 58.6, 2, 16, 1),
    ]
    summary = progress.summary
    # (82.8 + 100 + 58.6) / 3 = 80.47
    assert (summary.played, summary.average, summary.best.session, summary.solos) == (3, 80.5, every_top, 7)


def test_a_scrabble_is_found_by_the_move_written_or_by_the_tops_score(bob, evenings):
    progress = member_progress(bob, ProgressFilters())
    assert [(line.scrabbles_found, line.scrabbles_available) for line in progress.summary.sessions] == [
        (1, 1),  # 71 alone: the top's score
        (1, 1),  # J3 SOUHAITE written
        (0, 1),  # M6 HUE
    ]
    assert (progress.summary.scrabbles_found, progress.summary.scrabbles_available) == (2, 3)


def test_a_score_alone_below_the_top_is_no_scrabble_found(alice, bob, lyon):
    bobs_session(alice, lyon, [26, 18, 13, 70], date=datetime.date(2026, 12, 1))
    assert member_progress(bob, ProgressFilters()).summary.scrabbles_found == 0


def test_the_filters_choose_the_club_and_the_period(bob, lyon, evenings):
    evening, every_top, alone = evenings

    def shown(**filters):
        return [line.session for line in member_progress(bob, ProgressFilters(**filters)).summary.sessions]

    assert shown(club=lyon) == [every_top, evening]
    assert member_progress(bob, ProgressFilters(club=lyon)).summary.average == 79.3  # (100 + 58.6) / 2
    assert shown(start=datetime.date(2026, 12, 1)) == [alone, every_top]
    assert shown(end=datetime.date(2026, 11, 30)) == [evening]
    assert shown(start=datetime.date(2026, 12, 1), end=datetime.date(2026, 12, 1)) == [every_top]
    assert shown(start=datetime.date(2027, 2, 1)) == []


def test_automatic_games_are_counted_apart(bob):
    session = bobs_session(bob, None, ["H4 VAGUE", 18, 13, 0], date=datetime.date(2026, 12, 2), automatic=True)
    progress = member_progress(bob, ProgressFilters())
    assert progress.summary.played == 0
    assert progress.chart is None
    assert [(line.session, line.total, line.percent) for line in progress.automatic.sessions] == [
        (session, 57, 44.5)  # 26 + 18 + 13 of 128
    ]


def test_nothing_played_gives_no_figure(charlie):
    progress = member_progress(charlie, ProgressFilters())
    assert (progress.summary.played, progress.summary.average, progress.summary.best, progress.chart) == (
        0,
        None,
        None,
        None,
    )


def test_the_chart_runs_from_the_oldest_session_with_its_dates(bob, evenings):
    chart = member_progress(bob, ProgressFilters()).chart
    assert [point.figures.percent for point in chart.points] == [58.6, 100.0, 82.8]
    assert [point.x for point in chart.points] == [44.0, 194.0, 344.0]
    # 50 % to 100 %, 10 % a line, over 172 units from y = 12.
    assert [value for _y, value in chart.y_ticks] == [50, 60, 70, 80, 90, 100]
    assert [point.y for point in chart.points] == [154.4, 12.0, 71.2]
    assert [(x, anchor, day.isoformat()) for x, anchor, day in chart.x_ticks] == [
        (44.0, "start", "2026-11-24"),
        (194.0, "middle", "2026-12-01"),
        (344.0, "end", "2027-01-10"),
    ]
    assert chart.polyline == "44.0,154.4 194.0,12.0 344.0,71.2"


def test_its_queries_do_not_grow_with_the_sessions(alice, bob, lyon):
    bobs_session(alice, lyon, [26, 18, 13, 71], date=datetime.date(2026, 12, 1))
    with CaptureQueriesContext(connection) as one:
        member_progress(bob, ProgressFilters())
    for day in range(2, 6):
        bobs_session(alice, lyon, ["H4 VAGUE", 18, 13, "J3 SOUHAITE"], date=datetime.date(2026, 12, day))
    with CaptureQueriesContext(connection) as five:
        progress = member_progress(bob, ProgressFilters())
    assert progress.summary.played == 5
    assert len(five) == len(one) <= 10
