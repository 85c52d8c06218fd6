"""Issue 13: the shared cache (Redis) fails open. With Redis down the site keeps serving as if every key were
missing (a rate limit lets the request through, the room's screens are computed again) and logs it, once per pause
instead of once per call. Redis itself is stopped around real requests by the fault tests of .ci/run."""

import logging

import pytest
from django.core.cache import caches

from clubsite import cache as fail_open

# Nothing listens on port 1: every connection is refused at once.
DOWN = {
    "default": {
        "BACKEND": "clubsite.cache.FailOpenRedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",
        "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
    }
}


@pytest.fixture
def redis_down(settings):
    settings.CACHES = DOWN
    yield caches["default"]


def warnings(caplog):
    return [r.getMessage() for r in caplog.records if r.name == "clubsite.cache"]


def test_every_call_answers_as_a_miss_and_the_log_says_why_once(redis_down, caplog, monkeypatch):
    cache = redis_down
    with caplog.at_level(logging.WARNING):
        assert cache.get("k", "default") == "default"
        assert cache.set("k", 1) is None
        assert cache.get_many(["a", "b"]) == {}
        assert cache.add("k", 1) is True
        assert cache.delete("k") is False
        assert cache.has_key("k") is False
        assert cache.set_many({"a": 1}) == []
        with pytest.raises(ValueError, match="the shared cache is unavailable"):
            cache.incr("k")
    (line,) = warnings(caplog)
    assert line.startswith("Shared cache (Redis) unavailable, served without it for 5 s: ConnectionError: Error 111")

    # Once the pause is over, Redis is tried again (and found down again: a second line).
    client = cache._cache
    monkeypatch.setattr(client, "_down_until", 0.0)
    with caplog.at_level(logging.WARNING):
        assert cache.get("k") is None
    assert len(warnings(caplog)) == 2


@pytest.mark.django_db
def test_the_rate_limited_api_keeps_answering(redis_down, client, caplog):
    with caplog.at_level(logging.WARNING):
        response = client.post("/api/score", {"move": "H4 MOUTONS"}, content_type="application/json")
    assert response.status_code == 200
    assert response.json()["score"] == 70
    assert warnings(caplog)


def test_the_settings_choose_it_for_a_redis_cache(monkeypatch):
    """DJANGO_CACHE_URL puts the cache on Redis through the fail-open backend, with short timeouts."""
    import importlib

    from clubsite import settings as site_settings

    monkeypatch.setenv("DJANGO_CACHE_URL", "redis://127.0.0.1:6379/3")
    try:
        reloaded = importlib.reload(site_settings)
        assert reloaded.CACHES["default"] == {
            "BACKEND": "clubsite.cache.FailOpenRedisCache",
            "LOCATION": "redis://127.0.0.1:6379/3",
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    finally:
        monkeypatch.delenv("DJANGO_CACHE_URL")
        importlib.reload(site_settings)
    assert fail_open.RETRY_AFTER == 5.0
