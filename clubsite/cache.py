"""The shared cache on Redis, failing open: when Redis does not answer, the site keeps serving as if every key were
missing, and says so in the log.

What the cache holds can always be done without: the rate limits' counts (a request is then let through, not
refused), the room's screens kept for each version of a session (then computed again). A Redis that is down costs
each call one refused connection; one that hangs costs at most its socket timeout, after which this process leaves
Redis alone for `RETRY_AFTER` seconds instead of waiting on every call. That pause is this process's own view of
Redis and nothing another process needs: each finds out by itself.
"""

import logging
import time

from django.core.cache.backends.redis import RedisCache, RedisCacheClient

logger = logging.getLogger(__name__)

# Seconds during which a process that saw Redis fail answers from nothing instead of trying it again.
RETRY_AFTER = 5.0


class FailOpenRedisCacheClient(RedisCacheClient):
    def __init__(self, servers, **options):
        super().__init__(servers, **options)
        self._down_until = 0.0

    def _call(self, operation: str, fallback, *args):
        if time.monotonic() < self._down_until:
            return fallback
        try:
            return getattr(super(), operation)(*args)
        except self._lib.RedisError as error:
            self._down_until = time.monotonic() + RETRY_AFTER
            logger.warning(
                "Shared cache (Redis) unavailable, served without it for %.0f s: %s: %s",
                RETRY_AFTER,
                type(error).__name__,
                error,
            )
            return fallback

    def add(self, key, value, timeout):
        # Nothing stored: the caller goes on as if the key were new, as the rest of the cache's misses do.
        return self._call("add", True, key, value, timeout)

    def get(self, key, default):
        return self._call("get", default, key, default)

    def set(self, key, value, timeout):
        return self._call("set", None, key, value, timeout)

    def touch(self, key, timeout):
        return self._call("touch", False, key, timeout)

    def delete(self, key):
        return self._call("delete", False, key)

    def get_many(self, keys):
        return self._call("get_many", {}, keys)

    def has_key(self, key):
        return self._call("has_key", False, key)

    def incr(self, key, delta):
        # Django's incr() turns a missing key into ValueError; a counter that cannot be read is missing.
        result = self._call("incr", None, key, delta)
        if result is None:
            raise ValueError(f"Key '{key}' not found (the shared cache is unavailable).")
        return result

    def set_many(self, data, timeout):
        return self._call("set_many", [], data, timeout)

    def delete_many(self, keys):
        return self._call("delete_many", None, keys)

    def clear(self):
        return self._call("clear", False)


class FailOpenRedisCache(RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = FailOpenRedisCacheClient
