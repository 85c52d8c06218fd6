from pathlib import Path

import dj_database_url
import pytest
from django.core.exceptions import ImproperlyConfigured

from clubsite.env import (
    database_from_url,
    env_bool,
    env_float,
    env_int,
    env_list,
    env_rate,
    env_redis_url,
    env_str,
)

BASE_DIR = Path("/srv/clubsite")


def error_message(excinfo) -> str:
    return str(excinfo.value)


def test_env_str_reads_the_value(monkeypatch):
    monkeypatch.setenv("CLUB_NAME", "Scrabble Club de Lyon")
    assert env_str("CLUB_NAME", "x") == "Scrabble Club de Lyon"


def test_env_str_treats_unset_and_empty_as_default(monkeypatch):
    monkeypatch.delenv("CLUB_NAME", raising=False)
    assert env_str("CLUB_NAME", "fallback") == "fallback"
    monkeypatch.setenv("CLUB_NAME", "")
    assert env_str("CLUB_NAME", "fallback") == "fallback"


@pytest.mark.parametrize("value", ["1", "true", "True", "YES", "on", " on "])
def test_env_bool_reads_true_words(monkeypatch, value):
    monkeypatch.setenv("FLAG", value)
    assert env_bool("FLAG", default=False) is True


@pytest.mark.parametrize("value", ["0", "false", "False", "no", "OFF"])
def test_env_bool_reads_false_words(monkeypatch, value):
    monkeypatch.setenv("FLAG", value)
    assert env_bool("FLAG", default=True) is False


def test_env_bool_falls_back_to_default(monkeypatch):
    monkeypatch.delenv("FLAG", raising=False)
    assert env_bool("FLAG", default=True) is True
    monkeypatch.setenv("FLAG", "")
    assert env_bool("FLAG", default=False) is False


def test_env_bool_rejects_other_words(monkeypatch):
    monkeypatch.setenv("FLAG", "maybe")
    with pytest.raises(ImproperlyConfigured) as excinfo:
        env_bool("FLAG", default=False)
    assert error_message(excinfo) == "FLAG must be a boolean (1/0, true/false, yes/no, on/off), got 'maybe'"


def test_env_int_reads_integers(monkeypatch):
    monkeypatch.setenv("PORT", "587")
    assert env_int("PORT", default=25) == 587
    monkeypatch.delenv("PORT")
    assert env_int("PORT", default=25) == 25


def test_env_int_rejects_non_integers(monkeypatch):
    monkeypatch.setenv("PORT", "25.5")
    with pytest.raises(ImproperlyConfigured) as excinfo:
        env_int("PORT", default=25)
    assert error_message(excinfo) == "PORT must be an integer, got '25.5'"


def test_env_list_splits_on_commas_and_ignores_blanks(monkeypatch):
    monkeypatch.setenv("HOSTS", " club.example.org, www.club.example.org,, ")
    assert env_list("HOSTS", ["localhost"]) == ["club.example.org", "www.club.example.org"]


def test_env_list_falls_back_to_a_copy_of_the_default(monkeypatch):
    monkeypatch.delenv("HOSTS", raising=False)
    default = ["localhost"]
    hosts = env_list("HOSTS", default)
    assert hosts == ["localhost"]
    assert hosts is not default


def test_env_list_rejects_a_list_of_blanks(monkeypatch):
    monkeypatch.setenv("HOSTS", " , ")
    with pytest.raises(ImproperlyConfigured) as excinfo:
        env_list("HOSTS", ["localhost"])
    assert error_message(excinfo) == "HOSTS must be a comma-separated list, got ' , '"


def test_env_redis_url_accepts_redis_and_unset(monkeypatch):
    monkeypatch.delenv("BROKER", raising=False)
    assert env_redis_url("BROKER") == ""
    monkeypatch.setenv("BROKER", "rediss://:secret@redis.example.org:6380/0")
    assert env_redis_url("BROKER") == "rediss://:secret@redis.example.org:6380/0"


def test_env_redis_url_rejects_other_schemes(monkeypatch):
    monkeypatch.setenv("BROKER", "amqp://guest:guest@localhost//")
    with pytest.raises(ImproperlyConfigured) as excinfo:
        env_redis_url("BROKER")
    assert error_message(excinfo) == "BROKER has unsupported scheme 'amqp': use redis:// or rediss://"


# What dj-database-url puts in every entry besides the URL's own fields: Django's defaults but for the
# connection lifetime, which is only raised for PostgreSQL.
POSTGRES_CONNECTION = {"CONN_MAX_AGE": 60, "CONN_HEALTH_CHECKS": True, "DISABLE_SERVER_SIDE_CURSORS": False}
# Queries bound and prepared by PostgreSQL unless the URL says otherwise.
PREPARED = {"connect_timeout": 2, "server_side_binding": True, "prepare_threshold": 5}
SQLITE_DEFAULTS = {
    "ENGINE": "django.db.backends.sqlite3",
    "USER": "",
    "PASSWORD": "",
    "HOST": "",
    "PORT": "",
    "CONN_MAX_AGE": 0,
    "CONN_HEALTH_CHECKS": False,
    "DISABLE_SERVER_SIDE_CURSORS": False,
}
INVALID_URL_MESSAGE = (
    "DATABASE_URL is not a valid URL: check the port, and percent-encode special characters such as @ : / # "
    "in the user name and password"
)


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        (
            "postgres://club:s%40cret@db.example.org:5433/clubsite",
            {"NAME": "clubsite", "USER": "club", "PASSWORD": "s@cret", "HOST": "db.example.org", "PORT": 5433},
        ),
        (  # postgresql://, without password or port
            "postgresql://postgres@127.0.0.1/clubsite_ci",
            {"NAME": "clubsite_ci", "USER": "postgres", "PASSWORD": "", "HOST": "127.0.0.1", "PORT": ""},
        ),
    ],
)
def test_database_from_url_reads_postgres(url, expected):
    database = database_from_url(url, base_dir=BASE_DIR)
    assert database == {
        "ENGINE": "django.db.backends.postgresql",
        **expected,
        **POSTGRES_CONNECTION,
        "OPTIONS": PREPARED,
    }


def test_database_from_url_passes_query_parameters_as_options():
    database = database_from_url("postgres://u@db/club?sslmode=require", base_dir=BASE_DIR)
    assert database["OPTIONS"] == {"sslmode": "require", **PREPARED}


def test_database_from_url_types_option_values_as_django_expects():
    # Django tests `server_side_binding is True`: the string "true" would silently leave it off.
    database = database_from_url("postgres://u@db/club?server_side_binding=true&connect_timeout=10", base_dir=BASE_DIR)
    assert database["OPTIONS"] == {"server_side_binding": True, "connect_timeout": 10, "prepare_threshold": 5}


def test_database_from_url_lets_a_pooler_turn_prepared_queries_off():
    database = database_from_url("postgres://u@db/club?server_side_binding=false", base_dir=BASE_DIR)
    assert database["OPTIONS"] == {"connect_timeout": 2, "server_side_binding": False}


def test_database_from_url_reads_a_unix_socket_host():
    database = database_from_url("postgres://u@%2Fvar%2Frun%2Fpostgresql/club", base_dir=BASE_DIR)
    assert database["HOST"] == "/var/run/postgresql"


def test_database_from_url_requires_a_database_name():
    with pytest.raises(ImproperlyConfigured) as excinfo:
        database_from_url("postgres://u@db:5432/", base_dir=BASE_DIR)
    assert error_message(excinfo) == "DATABASE_URL must name a database: postgres://user@host:5432/name"


@pytest.mark.parametrize(
    "url",
    [
        "postgres://u:hunter2@db:port/club",
        "postgres://u:hunter2@db:99999/club",
        # An unencoded "#" starts the fragment, leaving "hunter" to be read as the port.
        "postgres://u:hunter#2@db/club",
        "postgres://u:hunter2@[::1/club",
        # A full-width number sign: urlsplit's own message would quote the netloc, password included.
        "postgres://u:hunter\uff032@db/club",
    ],
)
def test_database_from_url_rejects_a_bad_url_without_echoing_the_password(url):
    with pytest.raises(ImproperlyConfigured) as excinfo:
        database_from_url(url, base_dir=BASE_DIR)
    assert error_message(excinfo) == INVALID_URL_MESSAGE
    # Neither the message nor a chained exception's may carry the password to a log.
    assert excinfo.value.__cause__ is None
    assert excinfo.value.__suppress_context__


def test_database_from_url_reads_an_absolute_sqlite_path():
    database = database_from_url("sqlite:////var/lib/clubsite/db.sqlite3", base_dir=BASE_DIR)
    assert database == {**SQLITE_DEFAULTS, "NAME": Path("/var/lib/clubsite/db.sqlite3")}


def test_database_from_url_reads_a_sqlite_path_relative_to_base_dir():
    database = database_from_url("sqlite:///db.sqlite3", base_dir=BASE_DIR)
    assert database == {**SQLITE_DEFAULTS, "NAME": BASE_DIR / "db.sqlite3"}


def test_database_from_url_reads_an_in_memory_sqlite_database():
    database = database_from_url("sqlite:///:memory:", base_dir=BASE_DIR)
    assert database == {**SQLITE_DEFAULTS, "NAME": ":memory:"}


@pytest.mark.parametrize("url", ["sqlite://host/db.sqlite3", "sqlite:///", "sqlite://", "sqlite://:memory:"])
def test_database_from_url_rejects_a_sqlite_url_without_a_local_path(url):
    with pytest.raises(ImproperlyConfigured) as excinfo:
        database_from_url(url, base_dir=BASE_DIR)
    assert error_message(excinfo) == (
        "DATABASE_URL for SQLite must be sqlite:////absolute/path.sqlite3 or sqlite:///relative.sqlite3"
    )


@pytest.mark.parametrize(
    ("url", "scheme"),
    [("mysql://club:secret@db/club", "mysql"), ("/srv/db.sqlite3", ""), ("pgsql://db/x", "pgsql")],
)
def test_database_from_url_rejects_other_schemes(url, scheme):
    with pytest.raises(ImproperlyConfigured) as excinfo:
        database_from_url(url, base_dir=BASE_DIR)
    assert error_message(excinfo) == (
        f"DATABASE_URL has unsupported scheme {scheme!r}: use postgres://, postgresql:// or sqlite://"
    )


def test_database_from_url_delegates_to_dj_database_url():
    # mysql:// and pgsql:// are schemes dj-database-url parses: refusing them is our choice, not its limit.
    assert dj_database_url.parse("mysql://club:secret@db/club")["ENGINE"] == "django.db.backends.mysql"
    assert dj_database_url.parse("pgsql://db/x")["ENGINE"] == "django.db.backends.postgresql"
    url = "postgres://club:s%40cret@%2Fvar%2Frun%2Fpostgresql:5433/clubsite?sslmode=require&currentSchema=club"
    expected = dj_database_url.parse(url, conn_max_age=60, conn_health_checks=True)
    # currentSchema is dj-database-url's own translation, which the hand-written parser never had.
    assert expected["OPTIONS"] == {"sslmode": "require", "options": "-c search_path=club"}
    expected["OPTIONS"] |= PREPARED
    assert database_from_url(url, base_dir=BASE_DIR) == expected


def test_database_from_url_makes_sqlite_paths_relative_to_base_dir_where_dj_database_url_does_not():
    assert dj_database_url.parse("sqlite:///db.sqlite3")["NAME"] == "db.sqlite3"
    assert database_from_url("sqlite:///db.sqlite3", base_dir=BASE_DIR) == {
        **dj_database_url.parse("sqlite:///db.sqlite3"),
        "NAME": BASE_DIR / "db.sqlite3",
    }


def test_env_float_reads_a_positive_number(monkeypatch):
    monkeypatch.setenv("LIMIT", "0.5")
    assert env_float("LIMIT", default=3.0) == 0.5
    monkeypatch.delenv("LIMIT")
    assert env_float("LIMIT", default=3.0) == 3.0


@pytest.mark.parametrize("value", ["0", "-1", "soon", "inf", "nan"])
def test_env_float_rejects_what_is_not_a_positive_number(monkeypatch, value):
    monkeypatch.setenv("LIMIT", value)
    with pytest.raises(ImproperlyConfigured) as excinfo:
        env_float("LIMIT", default=3.0)
    assert error_message(excinfo) == f"LIMIT must be a positive number, got {value!r}"


@pytest.mark.parametrize("value", ["10/min", "1/s", "100/hour", "5000/day", "10/5min"])
def test_env_rate_reads_ninjas_rates(monkeypatch, value):
    monkeypatch.setenv("RATE", value)
    assert env_rate("RATE", "60/min") == value


@pytest.mark.parametrize("value", ["10", "10 per minute", "ten/min", "10/week"])
def test_env_rate_rejects_other_text(monkeypatch, value):
    monkeypatch.setenv("RATE", value)
    with pytest.raises(ImproperlyConfigured) as excinfo:
        env_rate("RATE", "60/min")
    assert error_message(excinfo) == f"RATE must be a rate such as 60/min (s, min, hour or day), got {value!r}"


def test_postgres_connections_wait_for_a_lock_two_seconds_at_most():
    """Issue 13's trial: a table locked for 12 s froze every page behind it. Each connection says how long a
    statement may wait for a lock and run; an option the URL gave is kept."""
    database = database_from_url("postgres://u@db/club", base_dir=BASE_DIR, wait_limits=(2000, 20000))
    assert database["OPTIONS"]["options"] == "-c lock_timeout=2000 -c statement_timeout=20000"
    url = "postgres://u@db/club?options=-c%20search_path%3Dclub"
    database = database_from_url(url, base_dir=BASE_DIR, wait_limits=(0, 5000))
    assert database["OPTIONS"]["options"] == "-c search_path=club -c lock_timeout=0 -c statement_timeout=5000"
    sqlite = database_from_url("sqlite:///x.sqlite3", base_dir=BASE_DIR, wait_limits=(2000, 20000))
    assert sqlite == database_from_url("sqlite:///x.sqlite3", base_dir=BASE_DIR)  # PostgreSQL only


def test_the_settings_set_the_wait_limits(settings):
    assert settings.DATABASE_WAIT_LIMITS == (2000, 20000)
