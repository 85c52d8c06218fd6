"""Settings load in a fresh interpreter, as in production, since they are read once per process."""

import os
import subprocess
import sys
from pathlib import Path

from django.core.management.utils import get_random_secret_key

BASE_DIR = Path(__file__).resolve().parents[2]


def run_python(*args: str, **variables: str) -> subprocess.CompletedProcess:
    """Run the project's Python in BASE_DIR with only the given DJANGO_* variables set."""
    env = {name: value for name, value in os.environ.items() if not name.startswith("DJANGO_")}
    env |= variables
    return subprocess.run([sys.executable, *args], cwd=BASE_DIR, env=env, capture_output=True, text=True, timeout=60)


def read_setting(name: str, **variables: str) -> str:
    code = f"import django; django.setup(); from django.conf import settings; print(settings.{name})"
    result = run_python("-c", code, DJANGO_SETTINGS_MODULE="clubsite.settings", **variables)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_it_passes_the_deploy_check_with_debug_off():
    result = run_python("manage.py", "check", "--deploy", DJANGO_DEBUG="0", DJANGO_SECRET_KEY=get_random_secret_key())

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "System check identified no issues (0 silenced)."
    assert "WARNING" not in result.stderr


def test_it_passes_the_deploy_check_behind_a_tls_proxy():
    result = run_python(
        "manage.py",
        "check",
        "--deploy",
        DJANGO_SECRET_KEY=get_random_secret_key(),
        DJANGO_SECURE_SSL_REDIRECT="0",
        DJANGO_SECURE_PROXY_SSL_HEADER="1",
    )

    assert result.returncode == 0, result.stderr
    assert "System check identified no issues" in result.stdout


def test_it_refuses_to_start_with_debug_off_and_no_secret_key():
    result = run_python("manage.py", "check", DJANGO_DEBUG="0")

    assert result.returncode != 0
    assert "ImproperlyConfigured: DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off" in result.stderr


def test_debug_is_on_by_default_without_a_secret_key():
    assert read_setting("DEBUG") == "True"


def test_debug_is_off_by_default_with_a_secret_key():
    assert read_setting("DEBUG", DJANGO_SECRET_KEY=get_random_secret_key()) == "False"


def test_the_rate_limits_and_the_search_time_come_from_the_environment():
    rates = read_setting(
        "NINJA_DEFAULT_THROTTLE_RATES",
        DJANGO_RATE_SEARCH_VISITOR="5/min",
        DJANGO_RATE_API_MEMBER="1000/hour",
        DJANGO_RATE_DRAW_MEMBER="10/min",
        DJANGO_RATE_SHEET_COPY_MEMBER="20/hour",
        DJANGO_RATE_INVITATION_MEMBER="10/hour",
        DJANGO_RATE_IMPORT_MEMBER="15/hour",
    )
    assert rates == str(
        {
            "visitor_api": "60/min",
            "member_api": "1000/hour",
            "visitor_search": "5/min",
            "member_search": "60/min",
            "visitor_draw": "30/min",
            "member_draw": "10/min",
            "member_sheet_copy": "20/hour",
            "visitor_mail": "10/hour",
            "member_mail": "5/hour",
            "recipient_mail": "3/hour",
            # A visitor invites nobody: his figure, which throttling.refusal reads, is the member's.
            "visitor_club_invitation": "60/hour",
            "member_club_invitation": "60/hour",
            "visitor_invitation": "10/hour",
            "member_invitation": "10/hour",
            "visitor_import": "15/hour",
            "member_import": "15/hour",
        }
    )
    assert read_setting("SEARCH_TIME_LIMIT") == "3.0"
    assert read_setting("SEARCH_TIME_LIMIT", DJANGO_SEARCH_TIME_LIMIT="1.5") == "1.5"


def test_behind_a_proxy_a_visitor_is_the_address_it_appends():
    """One figure for the rate limits and the log-in lockout alike (they were two after issue 12's branches)."""
    assert read_setting("TRUSTED_PROXIES") == "0"
    assert read_setting("TRUSTED_PROXIES", DJANGO_SECURE_PROXY_SSL_HEADER="1") == "1"
    assert read_setting("TRUSTED_PROXIES", DJANGO_SECURE_PROXY_SSL_HEADER="1", DJANGO_TRUSTED_PROXIES="2") == "2"


def test_a_bad_rate_stops_the_site_at_start_up():
    result = run_python("manage.py", "check", DJANGO_RATE_SEARCH_VISITOR="10 per minute")
    assert result.returncode != 0
    assert "DJANGO_RATE_SEARCH_VISITOR must be a rate such as 60/min" in result.stderr
