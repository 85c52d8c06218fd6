"""Rate limits on what anyone may make the server compute or send: django-ninja's throttles, for the API and the
pages.

The counts live in Django's default cache, which every web process shares (a database table, or Redis), so four
gunicorn workers count one client once. A visitor is counted by address, a member by account, each at the rates
of settings.NINJA_DEFAULT_THROTTLE_RATES: `visitor_<kind>` and `member_<kind>`. A page refused answers as the API
does: 429, Retry-After and the French sentence (`Refusal`).
"""

import math
from dataclasses import dataclass

from django.conf import settings
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
        return super().allow_request(request)


class VisitorThrottle(RateFromSettings, AnonRateThrottle):
    """A visitor's requests, counted by address; a member's are `MemberThrottle`'s. The address is the one the
    log-in lockout trusts too (settings.CLIENT_IP_CALLABLE: the connection's, or what our own proxies append)."""

    def get_ident(self, request):
        return import_string(settings.CLIENT_IP_CALLABLE)(request)

    def get_cache_key(self, request):
        if request.user.is_authenticated:
            return None
        return super().get_cache_key(request)


class MemberThrottle(RateFromSettings, UserRateThrottle):
    """A logged-in member's requests, counted by account whatever his address."""

    def get_cache_key(self, request):
        if not request.user.is_authenticated:
            return None
        return super().get_cache_key(request)


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
