"""Issue 23's trial: 40 password resets sent at once to one address mailed it 34 times under a limit of 3 an hour,
since each request read the count, then wrote it again. A rate is counted in one atomic step (clubsite.throttling):
in the database's table, or in Redis when it is the shared cache; whatever the number of requests at once, exactly
the rate's number pass."""

import threading

import pytest
from django.core import mail
from django.db import connection, connections
from django.test import RequestFactory
from django.urls import reverse

from clubsite.models import RateWindow
from clubsite.throttling import counted, refused, throttles

AT_ONCE = 24
REDIS = "redis://127.0.0.1:6379/5"


def all_at_once(work, count=AT_ONCE):
    """`work()` run by `count` threads released together; what each returned."""
    barrier = threading.Barrier(count)
    answers = [None] * count

    def run(index):
        try:
            barrier.wait()
            answers[index] = work()
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(index,)) for index in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def visitor_search(address="198.51.100.4"):
    request = RequestFactory().get("/mots/", REMOTE_ADDR=address)
    request.user = type("Anonymous", (), {"is_authenticated": False})()
    return refused(request, throttles("search")) is None


@pytest.fixture
def three_a_minute(settings):
    settings.NINJA_DEFAULT_THROTTLE_RATES = {**settings.NINJA_DEFAULT_THROTTLE_RATES, "visitor_search": "3/min"}


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
@pytest.mark.skipif(connection.vendor == "sqlite", reason="SQLite's test database is one connection's memory")
def test_requests_at_once_pass_the_rate_exactly_in_the_database(three_a_minute):
    answers = all_at_once(visitor_search)
    assert answers.count(True) == 3
    assert RateWindow.objects.get().hits == AT_ONCE  # refused ones count too


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
@pytest.mark.skipif(connection.vendor == "sqlite", reason="SQLite's test database is one connection's memory")
def test_password_resets_at_once_mail_an_address_at_most_its_rate(client, settings, alice):
    settings.NINJA_DEFAULT_THROTTLE_RATES = {**settings.NINJA_DEFAULT_THROTTLE_RATES, "recipient_mail": "3/hour"}

    addresses = iter(f"203.0.113.{number}" for number in range(1, AT_ONCE + 1))

    def reset():
        # Each from its own address, as a flood through many machines would be: the mailbox's rate alone holds.
        address = next(addresses)
        return client.post(reverse("password_reset"), {"email": alice.email}, REMOTE_ADDR=address).status_code

    statuses = all_at_once(reset)
    assert sorted(set(statuses)) == [302, 429]
    assert (statuses.count(302), len(mail.outbox)) == (3, 3)


@pytest.mark.django_db
def test_a_window_counts_from_its_first_request_and_the_next_starts_afresh():
    assert counted("k", 1000.0, 60) == (1, 1060.0)
    assert counted("k", 1030.0, 60) == (2, 1060.0)
    assert counted("k", 1059.9, 60) == (3, 1060.0)
    assert counted("k", 1060.0, 60) == (1, 1120.0)  # the window is over: the next one opens


@pytest.fixture
def redis_cache(settings):
    redis = pytest.importorskip("redis")
    try:
        redis.Redis.from_url(REDIS, socket_connect_timeout=0.5).ping()
    except redis.RedisError:
        pytest.skip("no Redis at 127.0.0.1:6379 (.ci/run has one)")
    settings.CACHES = {"default": {"BACKEND": "clubsite.cache.FailOpenRedisCache", "LOCATION": REDIS}}
    from django.core.cache import caches

    caches["default"].clear()
    yield caches["default"]
    caches["default"].clear()


@pytest.mark.django_db
def test_requests_at_once_pass_the_rate_exactly_in_redis(three_a_minute, redis_cache):
    answers = all_at_once(visitor_search)
    assert answers.count(True) == 3
    assert not RateWindow.objects.exists()
    assert redis_cache.get("throttle_visitor_search_198.51.100.4") == AT_ONCE


@pytest.mark.django_db
def test_a_tokens_searches_are_counted_as_its_members_not_as_a_visitors(client, settings, alice):
    """Attacker's trial of issue 23: a script holding a member's token was counted on /api/words, /api/top and
    /api/score by its address, at the visitor's rate, behind a club's one address with everyone else."""
    from clubsite.models import ApiToken

    settings.NINJA_DEFAULT_THROTTLE_RATES = {
        **settings.NINJA_DEFAULT_THROTTLE_RATES,
        "visitor_search": "1/min",
        "member_search": "3/min",
    }
    token = {"Authorization": f"Bearer {ApiToken.issue(alice)}"}

    def words(**headers):
        body = {"letters": "AEINST"}
        return client.post("/api/words", body, content_type="application/json", headers=headers).status_code

    assert [words(**token) for _ in range(4)] == [200, 200, 200, 429]
    assert words() == 200  # the visitors' count of this address is its own
    assert words(Authorization="Bearer not-a-token") == 429  # a wrong token is a visitor
