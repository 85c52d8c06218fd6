"""Typed readers for the environment variables that configure the site.

Each reader fails loudly with ImproperlyConfigured naming the variable and the bad value, so a typo in a
deployment stops the process at start-up instead of quietly falling back to a default. An empty value
counts as unset, so `NAME=` in an env file means "use the default".
"""

import os
import re
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

TRUE_WORDS = {"1", "true", "yes", "on"}
FALSE_WORDS = {"0", "false", "no", "off"}
POSTGRES_SCHEMES = {"postgres", "postgresql"}
REDIS_SCHEMES = {"redis", "rediss"}
INVALID_DATABASE_URL = (
    "DATABASE_URL is not a valid URL: check the port, and percent-encode special characters such as @ : / # "
    "in the user name and password"
)


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name) or default


def env_bool(name: str, default: bool) -> bool:
    value = env_str(name)
    if not value:
        return default
    word = value.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (1/0, true/false, yes/no, on/off), got {value!r}")


def env_int(name: str, default: int) -> int:
    value = env_str(name)
    if not value:
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be an integer, got {value!r}") from None


def env_float(name: str, default: float) -> float:
    value = env_str(name)
    if not value:
        return default
    try:
        number = float(value)
    except ValueError:
        number = -1.0
    if not number > 0 or number == float("inf"):
        raise ImproperlyConfigured(f"{name} must be a positive number, got {value!r}")
    return number


# A request rate as django-ninja's throttles read it: a count, "/", then a period, optionally multiplied.
_RATE = re.compile(r"^\d+/\d*(s|sec|m|min|h|hour|d|day)$")


def env_rate(name: str, default: str) -> str:
    """Read a rate such as `60/min` (periods: s, min, hour, day; `10/5min` for ten every five minutes)."""
    value = env_str(name, default).strip()
    if not _RATE.match(value):
        raise ImproperlyConfigured(f"{name} must be a rate such as 60/min (s, min, hour or day), got {value!r}")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    """Split a comma-separated value, ignoring blanks so a trailing comma is harmless."""
    value = env_str(name)
    if not value:
        return list(default)
    items = [item.strip() for item in value.split(",") if item.strip()]
    if not items:
        raise ImproperlyConfigured(f"{name} must be a comma-separated list, got {value!r}")
    return items


def env_redis_url(name: str) -> str:
    """Read a redis:// or rediss:// URL, or "" when the variable is unset."""
    url = env_str(name)
    scheme = urlsplit(url).scheme
    if url and scheme not in REDIS_SCHEMES:
        raise ImproperlyConfigured(f"{name} has unsupported scheme {scheme!r}: use redis:// or rediss://")
    return url


def database_from_url(url: str, *, base_dir: Path, wait_limits: tuple[int, int] | None = None) -> dict:
    """Turn a DATABASE_URL into a Django DATABASES entry, parsed by dj-database-url.

    Accepts postgres://user:password@host:port/name (or postgresql://, with query parameters such as
    ?sslmode=require passed to psycopg), sqlite:////absolute/path, sqlite:///path/relative/to/base_dir and
    sqlite:///:memory: (a database that lives as long as its connection, for throwaway runs).
    `wait_limits` (PostgreSQL only): the milliseconds a statement may wait for a lock, and run at all (0: no
    limit), set on every connection. Error messages never repeat the URL itself: it may hold a password.
    """
    try:
        parts = urlsplit(url)
    except ValueError:  # some of these messages quote the netloc, password included
        raise ImproperlyConfigured(INVALID_DATABASE_URL) from None
    # dj-database-url knows many more schemes (mysql, pgsql, oracle...): only the two databases the site is
    # tested on are accepted, so a typo cannot select an untested engine.
    if parts.scheme in POSTGRES_SCHEMES:
        return _postgres_database(url, wait_limits)
    if parts.scheme == "sqlite":
        return _sqlite_database(url, parts, base_dir)
    raise ImproperlyConfigured(
        f"DATABASE_URL has unsupported scheme {parts.scheme!r}: use postgres://, postgresql:// or sqlite://"
    )


def _parse(url: str, **options) -> dict:
    try:
        return dj_database_url.parse(url, **options)
    except dj_database_url.ParseError:
        # Raised for a port that is not a number, but also for a password with an unencoded "#" or "/" that cuts
        # the URL short (its tail is then read as the port): the message names both causes.
        raise ImproperlyConfigured(INVALID_DATABASE_URL) from None


def _postgres_database(url: str, wait_limits: tuple[int, int] | None = None) -> dict:
    # Gunicorn workers keep their connection between requests; the health check drops dead ones (after a
    # PostgreSQL restart) instead of failing the next request.
    database = _parse(url, conn_max_age=60, conn_health_checks=True)
    # Parameters bound by the server, and a query run 5 times on a connection prepared there: PostgreSQL then
    # skips planning it again, most of its work for the short queries of a score sent (a room's 500 in a few
    # seconds). Behind a pooler that shares connections between transactions (PgBouncer's transaction mode),
    # ?server_side_binding=false turns both off.
    options = database.setdefault("OPTIONS", {})
    # A server that does not answer (restarting, a failover) costs a request 2 s, not the system's minutes.
    options.setdefault("connect_timeout", 2)
    options.setdefault("server_side_binding", True)
    if options["server_side_binding"] is True:
        options.setdefault("prepare_threshold", 5)
    if wait_limits:
        # A table or row held by something else (a long transaction, a lock taken by hand) makes a request fail
        # within the lock limit with a 503 that says to try again, instead of freezing every page behind it.
        lock_ms, statement_ms = wait_limits
        limits = f"-c lock_timeout={lock_ms} -c statement_timeout={statement_ms}"
        options["options"] = f"{options['options']} {limits}" if options.get("options") else limits
    # dj-database-url leaves NAME empty, and Django would only complain at the first query.
    if not database["NAME"]:
        raise ImproperlyConfigured("DATABASE_URL must name a database: postgres://user@host:5432/name")
    return database


def _sqlite_database(url: str, parts, base_dir: Path) -> dict:
    # dj-database-url turns sqlite:// and sqlite:/// into an in-memory database and accepts a host that SQLite
    # has no use for: both are more likely mistakes than a wish to lose every write, so only sqlite:///:memory:
    # asks for memory.
    # Connections keep Django's default lifetime (closed after each request): reusing a SQLite connection
    # gains little, and an in-memory database would then outlive requests only by accident.
    if parts.netloc or parts.path in ("", "/"):
        raise ImproperlyConfigured(
            "DATABASE_URL for SQLite must be sqlite:////absolute/path.sqlite3 or sqlite:///relative.sqlite3"
        )
    database = _parse(url)
    if database["NAME"] != ":memory:":
        # dj-database-url leaves sqlite:///db.sqlite3 relative to the working directory; the project directory
        # is where it belongs whatever directory the process starts in. An absolute path is kept as it is.
        database["NAME"] = base_dir / database["NAME"]
    return database
