"""Typed readers for the environment variables that configure the site.

Each reader fails loudly with ImproperlyConfigured naming the variable and the bad value, so a typo in a
deployment stops the process at start-up instead of quietly falling back to a default. An empty value
counts as unset, so `NAME=` in an env file means "use the default".
"""

import os
from pathlib import Path
from urllib.parse import parse_qsl, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

TRUE_WORDS = {"1", "true", "yes", "on"}
FALSE_WORDS = {"0", "false", "no", "off"}
POSTGRES_SCHEMES = {"postgres", "postgresql"}
REDIS_SCHEMES = {"redis", "rediss"}


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


def parse_database_url(url: str, *, base_dir: Path) -> dict:
    """Turn a DATABASE_URL into a Django DATABASES entry.

    Accepts postgres://user:password@host:port/name (or postgresql://, with query parameters such as
    ?sslmode=require passed to psycopg), sqlite:////absolute/path, sqlite:///path/relative/to/base_dir and
    sqlite:///:memory: (a database that lives as long as its connection, for throwaway runs).
    Error messages never repeat the URL itself: it may hold a password.
    """
    parts = urlsplit(url)
    if parts.scheme in POSTGRES_SCHEMES:
        return _postgres_database(parts)
    if parts.scheme == "sqlite":
        return _sqlite_database(parts, base_dir)
    raise ImproperlyConfigured(
        f"DATABASE_URL has unsupported scheme {parts.scheme!r}: use postgres://, postgresql:// or sqlite://"
    )


def _postgres_database(parts) -> dict:
    name = unquote(parts.path.removeprefix("/"))
    if not name:
        raise ImproperlyConfigured("DATABASE_URL must name a database: postgres://user@host:5432/name")
    try:
        port = parts.port
    except ValueError:
        raise ImproperlyConfigured("DATABASE_URL has an invalid port") from None
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": name,
        "USER": unquote(parts.username or ""),
        "PASSWORD": unquote(parts.password or ""),
        # A percent-encoded host such as %2Fvar%2Frun%2Fpostgresql is a Unix socket directory.
        "HOST": unquote(parts.hostname or ""),
        "PORT": str(port or ""),
        "OPTIONS": dict(parse_qsl(parts.query)),
        # Gunicorn workers keep their connection between requests; the health check drops dead ones
        # (after a PostgreSQL restart) instead of failing the next request.
        "CONN_MAX_AGE": 60,
        "CONN_HEALTH_CHECKS": True,
    }


def _sqlite_database(parts, base_dir: Path) -> dict:
    # sqlite:////abs/db.sqlite3 has the path "//abs/db.sqlite3", sqlite:///rel.sqlite3 has "/rel.sqlite3".
    path = parts.path.removeprefix("/")
    if path == ":memory:" and not parts.netloc:
        return {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}
    if parts.netloc or not path:
        raise ImproperlyConfigured(
            "DATABASE_URL for SQLite must be sqlite:////absolute/path.sqlite3 or sqlite:///relative.sqlite3"
        )
    # Joining an absolute path to base_dir yields the absolute path unchanged.
    return {"ENGINE": "django.db.backends.sqlite3", "NAME": base_dir / unquote(path)}
