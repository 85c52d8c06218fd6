"""Rate limits on what anyone may make the server compute: django-ninja's throttles, for the API and the pages.

The counts live in Django's default cache, which every web process shares (a database table, or Redis), so four
gunicorn workers count one client once. A visitor is counted by address, a member by account, each at the rates
of settings.NINJA_DEFAULT_THROTTLE_RATES: `visitor_<kind>` and `member_<kind>`.
"""

import math

from django.conf import settings
from django.utils.module_loading import import_string
from django.utils.translation import gettext
from ninja.conf import settings as ninja_settings
from ninja.throttling import AnonRateThrottle, UserRateThrottle


class _RateFromSettings:
    """Reads its rate at each request (ninja reads it once, at import), so that a changed setting applies."""

    def __init__(self, scope: str):
        self.scope = scope
        super().__init__()

    def get_rate(self):
        return ninja_settings.DEFAULT_THROTTLE_RATES[self.scope]

    def allow_request(self, request) -> bool:
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        return super().allow_request(request)


class VisitorThrottle(_RateFromSettings, AnonRateThrottle):
    """A visitor's requests, counted by address; a member's are `MemberThrottle`'s. The address is the one the
    log-in lockout trusts too (settings.CLIENT_IP_CALLABLE: the connection's, or what our own proxies append)."""

    def get_ident(self, request):
        return import_string(settings.CLIENT_IP_CALLABLE)(request)

    def get_cache_key(self, request):
        if request.user.is_authenticated:
            return None
        return super().get_cache_key(request)


class MemberThrottle(_RateFromSettings, UserRateThrottle):
    """A logged-in member's requests, counted by account whatever his address."""

    def get_cache_key(self, request):
        if not request.user.is_authenticated:
            return None
        return super().get_cache_key(request)


def throttles(kind: str) -> list:
    """The throttles of one kind of request ("api", "search"): a visitor's rate and a member's."""
    return [VisitorThrottle(f"visitor_{kind}"), MemberThrottle(f"member_{kind}")]


def refusal(request, kind: str) -> str:
    """Count a page's request of `kind` as the API counts its own: "" while this client is within its rate, else
    the French sentence that refuses it."""
    for throttle in throttles(kind):
        if not throttle.allow_request(request):
            return too_many_requests(throttle.wait())
    return ""


def too_many_requests(wait: float | None) -> str:
    if wait is None:
        return gettext("Trop de demandes en peu de temps : réessayez un peu plus tard.")
    return gettext("Trop de demandes en peu de temps : réessayez dans %(seconds)d s.") % {"seconds": math.ceil(wait)}
