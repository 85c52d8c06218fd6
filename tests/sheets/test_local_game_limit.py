"""Issue 23: copying games from the sheet kept in the browser (`POST /api/sheets/local-games`) writes a game and its
lines each time: a member may do it at the rate of DJANGO_RATE_SHEET_COPY_MEMBER, counted by account; past it, 429,
Retry-After and the French sentence, and no game written."""

import pytest
from ninja.throttling import SimpleRateThrottle

from clubsite.models import ApiToken
from sheets.models import Game

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
