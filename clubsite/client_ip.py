"""The address a request comes from, as far as the site can trust it.

Without a trusted proxy it is the connection's own address (REMOTE_ADDR): a header such as X-Forwarded-For is
written by the client and proves nothing. Behind `TRUSTED_PROXIES` proxies (a load balancer, nginx), each appends
the address it received the request from to `CLIENT_IP_HEADER`, so the client is the entry that many places from
the end: what stands before it may be forged, what follows was written by the proxies themselves.
"""

from django.conf import settings


def client_ip(request) -> str | None:
    remote = request.META.get("REMOTE_ADDR")
    if not settings.TRUSTED_PROXIES:
        return remote
    header = "HTTP_" + settings.CLIENT_IP_HEADER.upper().replace("-", "_")
    addresses = [part.strip() for part in request.META.get(header, "").split(",") if part.strip()]
    if len(addresses) < settings.TRUSTED_PROXIES:
        # The request did not come through every proxy (or one dropped the header): only the connection is known.
        return remote
    return addresses[-settings.TRUSTED_PROXIES]


def login_username(request, credentials=None) -> str | None:
    """The user name a log-in attempt is counted under (django-axes): the one typed, cut to the longest a user name
    may be, so that 10,000 characters typed in the box are refused as a wrong log-in, not a database error."""
    source = credentials if credentials is not None else request.POST
    username = source.get("username") if source else None
    if username is None:
        return None
    return str(username).replace("\x00", "")[:150]
