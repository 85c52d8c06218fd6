"""Issue 23: copying games from the sheet kept in the browser (`POST /api/sheets/local-games`) writes a game and its
lines each time: a member may do it at the rate of DJANGO_RATE_SHEET_COPY_MEMBER, counted by account; past it, 429,
Retry-After and the French sentence, and no game written."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from ninja.throttling import SimpleRateThrottle

from clubsite.models import ApiToken
from sheets.models import Game
from sheets.services import MAX_LINES

from .test_local_sheet import local_game, save

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_copies_an_hour(settings, monkeypatch):
    settings.NINJA_DEFAULT_THROTTLE_RATES = {**settings.NINJA_DEFAULT_THROTTLE_RATES, "member_sheet_copy": "2/hour"}
    # The throttles' clock stands still, so that the wait they announce is exactly the hour.
    monkeypatch.setattr(SimpleRateThrottle, "timer", staticmethod(lambda: 1_000_000.0))


def test_the_third_copy_in_the_hour_is_refused_and_writes_nothing(client, alice, two_copies_an_hour):
    client.force_login(alice)
    assert [save(client, local_game()).status_code for _ in range(2)] == [201, 201]
    response = save(client, local_game())
    assert (response.status_code, response["Retry-After"]) == (429, "3600")
    assert response.json() == {"detail": "Trop de demandes en peu de temps : réessayez dans 60 min."}
    assert Game.objects.count() == 2


def test_a_member_is_counted_by_account_whatever_his_way_in(client, alice, bob, two_copies_an_hour):
    client.force_login(alice)
    save(client, local_game())
    save(client, local_game())
    client.logout()
    assert save(client, local_game(), headers={"Authorization": f"Bearer {ApiToken.issue(alice)}"}).status_code == 429
    assert save(client, local_game(), headers={"Authorization": f"Bearer {ApiToken.issue(bob)}"}).status_code == 201
    assert list(Game.objects.values_list("owner__username", flat=True).order_by("pk")) == ["alice", "alice", "bob"]


def test_a_visitor_is_refused_before_any_count(client, two_copies_an_hour):
    assert [save(client, local_game()).status_code for _ in range(3)] == [401, 401, 401]


def test_the_default_leaves_room_for_an_evening_s_games(settings):
    assert settings.NINJA_DEFAULT_THROTTLE_RATES["member_sheet_copy"] == "60/hour"


KINDS = ("play", "exchange", "pass", "withdrawn", "challenge", "penalty")


def long_game(count: int) -> dict:
    """A game of `count` lines of every kind the browser's sheet writes, under tournament rules."""
    points = {"play": 23, "challenge": -5, "penalty": -10}
    kinds = [KINDS[n % len(KINDS)] for n in range(count)]
    return local_game(lines=[{"player": n % 2, "kind": k, "points": points.get(k, 0)} for n, k in enumerate(kinds)])


def test_a_copy_costs_as_many_queries_at_400_lines_as_at_6(client, alice, django_assert_max_num_queries):
    """Trial of issue 23: each line was written through the sheet's own path (a lock, a savepoint, an insert, and a
    replay of the whole sheet for an exchange), 3.3 s for 400 lines; the lines are now checked then written
    together."""
    client.force_login(alice)
    with CaptureQueriesContext(connection) as short:
        assert save(client, long_game(6)).status_code == 201
    with django_assert_max_num_queries(len(short)):
        assert save(client, long_game(MAX_LINES)).status_code == 201
    assert Game.objects.order_by("pk").last().lines.count() == MAX_LINES
