"""Issue 23's trial: a log-in refused by the lockout answered 429 without Retry-After, which every other 429 of the
site carries (clubsite.throttling). It says the seconds until the lockout ends: a whole cool-off, since each attempt
made during the lockout starts it again."""

import datetime

import pytest
from axes.handlers import proxy
from django.urls import reverse
from django.utils import timezone

from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


@pytest.fixture
def clock(monkeypatch):
    """The time django-axes stamps each log-in with, moved by the test (from now: a row's first stamp is the
    database's own, `auto_now_add`)."""

    class Clock:
        time = timezone.now()

        def advance(self, **delta):
            self.time += datetime.timedelta(**delta)

    clock = Clock()
    monkeypatch.setattr(proxy, "now", lambda: clock.time)
    return clock


@pytest.fixture
def locked_out(client, clock, alice):
    for _ in range(4):
        assert log_in(client).status_code == 200
    assert log_in(client).status_code == 429  # the fifth failure locks the name out
    return client


def log_in(client, password="pas-le-bon"):
    return client.post(reverse("login"), {"username": "alice", "password": password}, REMOTE_ADDR="203.0.113.7")


def test_the_lockout_says_when_to_try_again(locked_out):
    response = log_in(locked_out, PASSWORD)
    assert response.status_code == 429
    assert response["Retry-After"] == "900"
    assert "réessayez dans 15 min" in response.text


def test_an_attempt_during_the_lockout_starts_the_wait_again(locked_out, clock, settings):
    assert settings.AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT
    clock.advance(minutes=5, seconds=30)
    response = log_in(locked_out, PASSWORD)
    assert (response.status_code, response["Retry-After"]) == (429, "900")
    assert "réessayez dans 15 min" in response.text
    clock.advance(minutes=14, seconds=59)
    assert log_in(locked_out, PASSWORD).status_code == 429  # 15 min after the last attempt, not after the first
    clock.advance(minutes=15, seconds=1)
    assert log_in(locked_out, PASSWORD).status_code == 302


def test_the_wait_follows_the_setting(client, clock, settings, alice):
    settings.AXES_COOLOFF_TIME = datetime.timedelta(minutes=30)
    for _ in range(5):
        log_in(client)
    response = log_in(client, PASSWORD)
    assert (response.status_code, response["Retry-After"]) == (429, "1800")
    assert "réessayez dans 30 min" in response.text
