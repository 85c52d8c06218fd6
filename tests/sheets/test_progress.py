"""A member's classic games on his progress page (issue 15): won, lost and drawn, his final scores under each
game's own end of the game, the period, and a number of queries that does not grow with the games."""

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from clubsite.progress import ProgressFilters
from scoring.models import RuleSet
from sheets.models import Game, Line
from sheets.progress import member_progress
from sheets.services import game_finish, line_record
from tests.sheets.conftest import make_game

pytestmark = pytest.mark.django_db


def finished(owner, names, members, points, racks, *, rules="tournoi", day=None):
    """A game whose players score `points` (one play each, in seat order), then finished with `racks`."""
    game = make_game(owner, names=names, members=members, rules=rules)
    for player, scored in zip(game.players.order_by("position"), points, strict=True):
        line_record(game=game, kind=Line.Kind.PLAY, points=scored, player=player)
    game_finish(game=game, racks=racks)
    if day is not None:
        started = timezone.make_aware(datetime.datetime.combine(day, datetime.time(20)))
        Game.objects.filter(pk=game.pk).update(created_at=started)
    return game


@pytest.fixture
def naspa():
    """The NASPA end of the game: the finisher gains twice the others' letters, they lose nothing."""
    return RuleSet.objects.create(code="naspa", name="NASPA", end_of_game=RuleSet.EndOfGame.FINISHER_GAINS_DOUBLE)


@pytest.fixture
def games(alice, bob, naspa):
    """Bob's games: lost to Alice (30 − EAU = 27 against 40 + 3 = 43), won under NASPA's end (30 + 2 × Z = 50
    against 48), drawn (20 − A, 20 − E: 19 each). Left out: a game not finished, one where his seat waits for his
    answer, and Alice's game against an unlinked Bob."""
    lost = finished(alice, ("Alice", "Bob"), [alice, bob], [40, 30], {0: "", 1: "EAU"}, day=datetime.date(2026, 3, 1))
    won = finished(
        bob, ("Bob", "Paul"), [bob, None], [30, 48], {0: "", 1: "Z"}, rules="naspa", day=datetime.date(2026, 4, 1)
    )
    drawn = finished(alice, ("Alice", "Bob"), [alice, bob], [20, 20], {0: "A", 1: "E"}, day=datetime.date(2026, 5, 1))
    make_game(alice, members=[alice, bob])
    make_game(alice, members=[alice, bob], accepted=False)
    finished(alice, ("Alice", "Bob"), [alice, None], [10, 50], {0: "", 1: "E"})
    return lost, won, drawn


def test_it_counts_his_finished_games(bob, games):
    lost, won, drawn = games
    progress = member_progress(bob, ProgressFilters())
    assert [(line.game, line.score, line.place, line.outcome) for line in progress.games] == [
        (drawn, 19, 1, "drawn"),
        (won, 50, 1, "won"),
        (lost, 27, 2, "lost"),
    ]
    assert (progress.played, progress.won, progress.lost, progress.drawn) == (3, 1, 1, 1)
    assert (progress.average, progress.best) == (32.0, 50)  # (19 + 50 + 27) / 3
    assert [player.display_name for player in progress.games[0].opponents] == ["Alice"]


def test_the_keepers_own_numbers_are_his_seat(alice, games):
    progress = member_progress(alice, ProgressFilters())
    # Her game against an unlinked Bob: 10 + 1 = 11 against 50 − 1 = 49.
    assert [(line.score, line.outcome) for line in progress.games] == [
        (11, "lost"),
        (19, "drawn"),
        (43, "won"),
    ]


def test_the_period_is_the_day_each_game_started(bob, games):
    lost, won, drawn = games

    def shown(**period):
        return [line.game for line in member_progress(bob, ProgressFilters(**period)).games]

    assert shown(start=datetime.date(2026, 4, 1)) == [drawn, won]
    assert shown(end=datetime.date(2026, 4, 1)) == [won, lost]
    assert shown(start=datetime.date(2026, 4, 2), end=datetime.date(2026, 4, 30)) == []


def test_nothing_played_gives_no_figure(charlie):
    progress = member_progress(charlie, ProgressFilters())
    assert (progress.played, progress.average, progress.best, progress.recent) == (0, None, None, [])


def test_its_queries_do_not_grow_with_the_games(alice, bob):
    finished(alice, ("Alice", "Bob"), [alice, bob], [40, 30], {0: "", 1: "EAU"})
    with CaptureQueriesContext(connection) as one:
        member_progress(bob, ProgressFilters())
    for _ in range(4):
        finished(alice, ("Alice", "Bob"), [alice, bob], [40, 30], {0: "", 1: "EAU"})
    with CaptureQueriesContext(connection) as five:
        assert member_progress(bob, ProgressFilters()).played == 5
    assert len(five) == len(one) <= 5
