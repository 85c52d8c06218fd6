"""Rate limits on what anyone may make the server compute or send: django-ninja's throttles, for the API and the
pages.

The counts are shared by every web process, so four gunicorn workers count one client once: in Redis when it is
the default cache (DJANGO_CACHE_URL), else in a table of the database (`clubsite.models.RateWindow`). Each request
is counted by one atomic step (Redis' INCR, or one INSERT … ON CONFLICT statement), so that requests sent at the
same moment cannot all read the same count and all pass (issue 23's trial: 40 password resets sent at once to one
address mailed it 34 times under a limit of 3). A rate counts in windows: the first request opens one of the rate's
length, every request inside it counts, refused ones too, and a request after it opens the next.

A visitor is counted by address, a member by account, each at the rates of settings.NINJA_DEFAULT_THROTTLE_RATES:
`visitor_<kind>` and `member_<kind>`. A page refused answers as the API does: 429, Retry-After and the French
sentence (`Refusal`).
"""

import math
import random
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.db import DatabaseCache
from django.db import connection
from django.utils.module_loading import import_string
from django.utils.translation import gettext
from ninja.conf import settings as ninja_settings
from ninja.errors import Throttled
from ninja.throttling import AnonRateThrottle, UserRateThrottle


class RateFromSettings:
    """Reads its rate at each request (ninja reads it once, at import), so that a changed setting applies; an
    operation's throttles, made at import, read none then (a setting without their scope is only wrong if used)."""

    def __init__(self, scope: str):
        self.scope = scope
        self.rate = None

    def get_rate(self):
        return ninja_settings.DEFAULT_THROTTLE_RATES[self.scope]

    def allow_request(self, request) -> bool:
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        self.left = None
        key = self.get_cache_key(request) if self.rate is not None else None
        if key is None:
            return True
        now = self.timer()
        hits, expires = counted(key, now, self.duration)
        self.left = max(0.0, expires - now)
        return hits <= self.num_requests

    def wait(self):
        """The seconds until this client's window ends, when its request was refused."""
        return self.left


# One in this many counts also deletes the windows long over (`RateWindow`): a table of one row a client.
SWEEP_ONE_IN = 500


def counted(key: str, now: float, duration: int) -> tuple[int, float]:
    """Count one request of `key` in its window of `duration` seconds, opened at `now` if none is: the window's
    count with this request, and when the window ends (seconds since the epoch)."""
    backend = caches["default"]
    if isinstance(backend, DatabaseCache):
        return _counted_in_table(key, now, duration)
    return _counted_in_cache(backend, key, now, duration)


def _counted_in_table(key, now, duration):
    from .models import RateWindow  # the table's name; this module is imported before the apps are ready

    table = connection.ops.quote_name(RateWindow._meta.db_table)
    key_column = connection.ops.quote_name("key")
    with connection.cursor() as cursor:
        # One statement: the database takes the row's lock, so that concurrent requests count one after the other.
        # In the SET, the columns name the row as it was.
        cursor.execute(
            f"INSERT INTO {table} ({key_column}, expires, hits) VALUES (%s, %s, 1) "
            f"ON CONFLICT ({key_column}) DO UPDATE SET "
            f"hits = CASE WHEN {table}.expires <= %s THEN 1 ELSE {table}.hits + 1 END, "
            f"expires = CASE WHEN {table}.expires <= %s THEN excluded.expires ELSE {table}.expires END "
            f"RETURNING hits, expires",
            [key, now + duration, now, now],
        )
        hits, expires = cursor.fetchone()
        if random.randrange(SWEEP_ONE_IN) == 0:
            cursor.execute(f"DELETE FROM {table} WHERE expires < %s", [now])
    return hits, expires


def _counted_in_cache(cache, key, now, duration):
    # add() only writes a key that is missing, and incr() counts in one step: both atomic in Redis.
    cache.add(f"{key}:expires", now + duration, duration)
    cache.add(key, 0, duration)
    try:
        hits = cache.incr(key)
    except ValueError:
        # The window ended between the two calls, or the cache is unavailable (failing open, clubsite/cache.py):
        # this request opens the next one.
        cache.add(key, 1, duration)
        hits = 1
    return hits, cache.get(f"{key}:expires", now + duration)


def forget_counts():
    """Every client counted afresh (the browser tests' live server keeps its database between tests)."""
    from .models import RateWindow

    RateWindow.objects.all().delete()
    caches["default"].clear()


def member_of(request):
    """The member who makes `request`: the logged-in browser's, or the owner of the API token it shows, even to an
    operation that asks for none (a script's searches are its member's, not its address's); None for a visitor."""
    if request.user.is_authenticated:
        return request.user
    if not hasattr(request, "_token_member"):
        from .models import ApiToken  # imported before the apps are ready

        kind, _space, raw = request.headers.get("Authorization", "").partition(" ")
        request._token_member = ApiToken.objects.user_for(raw.strip()) if kind.lower() == "bearer" else None
    return request._token_member


class VisitorThrottle(RateFromSettings, AnonRateThrottle):
    """A visitor's requests, counted by address; a member's are `MemberThrottle`'s. The address is the one the
    log-in lockout trusts too (settings.CLIENT_IP_CALLABLE: the connection's, or what our own proxies append)."""

    def get_ident(self, request):
        return import_string(settings.CLIENT_IP_CALLABLE)(request)

    def get_cache_key(self, request):
        if member_of(request) is not None:
            return None
        return super().get_cache_key(request)


class MemberThrottle(RateFromSettings, UserRateThrottle):
    """A member's requests (`member_of`), counted by account whatever his address."""

    def get_cache_key(self, request):
        member = member_of(request)
        if member is None:
            return None
        return self.cache_format % {"scope": self.scope, "ident": member.pk}


def throttles(kind: str) -> list:
    """The throttles of one kind of request ("api", "search"): a visitor's rate and a member's."""
    return [VisitorThrottle(f"visitor_{kind}"), MemberThrottle(f"member_{kind}")]


@dataclass(frozen=True)
class Refusal:
    """A request past one of its rates: the seconds until it would pass (None when the rate cannot say), and, as
    its text, the French sentence that refuses it."""

    wait: float | None

    def __str__(self) -> str:
        return too_many_requests(self.wait)

    def answer(self, response):
        """`response`, the page again with the sentence, made the refusal the API answers: 429 and Retry-After."""
        response.status_code = 429
        if self.wait is not None:
            response["Retry-After"] = str(math.ceil(self.wait))  # whole seconds (RFC 9110), as ninja sends it
        return response


def refused(request, rates: list) -> Refusal | None:
    """Count the request against each of `rates` (throttles), in their order; None while it is within them all,
    else the refusal of the first it is past (the ones after it do not count it)."""
    for throttle in rates:
        if not throttle.allow_request(request):
            return Refusal(throttle.wait())
    return None


def refusal(request, kind: str) -> Refusal | None:
    """Count a page's request of `kind` as the API counts its own: None while this client is within its rate, else
    the refusal (its text the French sentence; `answer()` gives the page the API's 429 and Retry-After)."""
    return refused(request, throttles(kind))


def count(request, kind: str) -> None:
    """Count a request of `kind` whose computing starts inside a service (a draw's search of its tops), on a page
    or in the API alike; past this client's rate, raise ninja's `Throttled`, which the API answers as its own
    throttles' refusals (429, Retry-After, the French sentence) and a page as `Refusal(error.wait)`."""
    found = refusal(request, kind)
    if found is not None:
        raise Throttled(found.wait)


def answered(response, error):
    """`response` as it is, or, when `error` (what a page shows as its error) is a rate's refusal, that refusal's
    answer: 429 and Retry-After."""
    return error.answer(response) if isinstance(error, Refusal) else response


def too_many_requests(wait: float | None) -> str:
    if wait is None:
        return gettext("Trop de demandes en peu de temps : réessayez un peu plus tard.")
    if wait > 60:
        # A rate by the hour (the mails) would otherwise say "réessayez dans 3541 s".
        minutes = math.ceil(wait / 60)
        return gettext("Trop de demandes en peu de temps : réessayez dans %(minutes)d min.") % {"minutes": minutes}
    return gettext("Trop de demandes en peu de temps : réessayez dans %(seconds)d s.") % {"seconds": math.ceil(wait)}
