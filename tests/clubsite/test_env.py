from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from clubsite.env import env_bool, env_int, env_list, env_redis_url, env_str, parse_database_url

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


def test_parse_database_url_reads_postgres():
    database = parse_database_url("postgres://club:s%40cret@db.example.org:5433/clubsite", base_dir=BASE_DIR)
    assert database == {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": "clubsite",
        "USER": "club",
        "PASSWORD": "s@cret",
        "HOST": "db.example.org",
        "PORT": "5433",
        "OPTIONS": {},
        "CONN_MAX_AGE": 60,
        "CONN_HEALTH_CHECKS": True,
    }


def test_parse_database_url_reads_postgresql_without_password_or_port():
    database = parse_database_url("postgresql://postgres@127.0.0.1/clubsite_ci", base_dir=BASE_DIR)
    assert database["ENGINE"] == "django.db.backends.postgresql"
    assert (database["USER"], database["PASSWORD"], database["HOST"], database["PORT"]) == (
        "postgres",
        "",
        "127.0.0.1",
        "",
    )


def test_parse_database_url_passes_query_parameters_as_options():
    database = parse_database_url("postgres://u@db/club?sslmode=require", base_dir=BASE_DIR)
    assert database["OPTIONS"] == {"sslmode": "require"}


def test_parse_database_url_reads_a_unix_socket_host():
    database = parse_database_url("postgres://u@%2Fvar%2Frun%2Fpostgresql/club", base_dir=BASE_DIR)
    assert database["HOST"] == "/var/run/postgresql"


def test_parse_database_url_requires_a_database_name():
    with pytest.raises(ImproperlyConfigured) as excinfo:
        parse_database_url("postgres://u@db:5432/", base_dir=BASE_DIR)
    assert error_message(excinfo) == "DATABASE_URL must name a database: postgres://user@host:5432/name"


def test_parse_database_url_rejects_a_bad_port_without_echoing_the_password():
    with pytest.raises(ImproperlyConfigured) as excinfo:
        parse_database_url("postgres://u:hunter2@db:port/club", base_dir=BASE_DIR)
    assert error_message(excinfo) == "DATABASE_URL has an invalid port"


def test_parse_database_url_reads_an_absolute_sqlite_path():
    database = parse_database_url("sqlite:////var/lib/clubsite/db.sqlite3", base_dir=BASE_DIR)
    assert database == {"ENGINE": "django.db.backends.sqlite3", "NAME": Path("/var/lib/clubsite/db.sqlite3")}


def test_parse_database_url_reads_a_sqlite_path_relative_to_base_dir():
    database = parse_database_url("sqlite:///db.sqlite3", base_dir=BASE_DIR)
    assert database == {"ENGINE": "django.db.backends.sqlite3", "NAME": BASE_DIR / "db.sqlite3"}


def test_parse_database_url_reads_an_in_memory_sqlite_database():
    database = parse_database_url("sqlite:///:memory:", base_dir=BASE_DIR)
    assert database == {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}


@pytest.mark.parametrize("url", ["sqlite://host/db.sqlite3", "sqlite:///", "sqlite://"])
def test_parse_database_url_rejects_a_sqlite_url_without_a_local_path(url):
    with pytest.raises(ImproperlyConfigured) as excinfo:
        parse_database_url(url, base_dir=BASE_DIR)
    assert error_message(excinfo) == (
        "DATABASE_URL for SQLite must be sqlite:////absolute/path.sqlite3 or sqlite:///relative.sqlite3"
    )


@pytest.mark.parametrize(
    ("url", "scheme"),
    [("mysql://club:secret@db/club", "mysql"), ("/srv/db.sqlite3", ""), ("pgsql://db/x", "pgsql")],
)
def test_parse_database_url_rejects_other_schemes(url, scheme):
    with pytest.raises(ImproperlyConfigured) as excinfo:
        parse_database_url(url, base_dir=BASE_DIR)
    assert error_message(excinfo) == (
        f"DATABASE_URL has unsupported scheme {scheme!r}: use postgres://, postgresql:// or sqlite://"
    )
