"""Log-in throttling (issue 12): django-axes locks a user name out from one address after repeated failures there,
so that a member's mistakes on a club's Wi-Fi do not lock out everyone else behind its address."""

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.test import RequestFactory
from django.urls import reverse

from clubsite.client_ip import client_ip
from tests.clubsite.test_deploy_check import read_setting
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

LOCKED = "Trop de tentatives de connexion : réessayez dans 15 min, ou demandez un nouveau mot de passe."


def log_in(client, username, password, address="203.0.113.7", **headers):
    return client.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address, headers=headers
    )


def test_sixty_wrong_passwords_then_the_right_one_is_refused(client, alice):
    for _ in range(60):
        log_in(client, "alice", "pas-le-bon")

    response = log_in(client, "alice", PASSWORD)

    assert response.status_code == 429
    assert LOCKED in response.text
    assert 'name="password"' in response.text  # the log-in page, with its form
    assert "_auth_user_id" not in client.session


def test_it_locks_out_at_the_limit_and_not_before(client, alice, settings):
    assert settings.AXES_FAILURE_LIMIT == 5
    for _ in range(4):
        assert log_in(client, "alice", "pas-le-bon").status_code == 200
    assert log_in(client, "alice", PASSWORD).status_code == 302

    client.logout()
    assert log_in(client, "alice", "pas-le-bon").status_code == 429
    assert log_in(client, "alice", PASSWORD).status_code == 429


def test_it_locks_a_user_name_out_from_that_address_only(client, alice):
    for _ in range(5):
        log_in(client, "alice", "pas-le-bon")

    response = log_in(client, "alice", PASSWORD)

    assert response.status_code == 429
    assert LOCKED in response.text
    assert log_in(client, "alice", PASSWORD, address="192.0.2.1").status_code == 302  # at home, say


def test_a_second_member_behind_the_same_address_still_logs_in(client, alice, bob):
    """Trial: one member's failures on a club's Wi-Fi locked out everyone behind its address."""
    for _ in range(5):
        log_in(client, "alice", "pas-le-bon")
    assert log_in(client, "alice", PASSWORD).status_code == 429

    assert log_in(client, "bob", PASSWORD).status_code == 302


def test_the_lockout_ends_after_the_cool_off(client, alice):
    for _ in range(5):
        log_in(client, "alice", "pas-le-bon")
    assert log_in(client, "alice", PASSWORD).status_code == 429

    AccessAttempt.objects.update(attempt_time=AccessAttempt.objects.get().attempt_time - timedelta(minutes=16))

    assert log_in(client, "alice", PASSWORD).status_code == 302


def test_the_failures_are_rows_every_process_reads(client, alice):
    for _ in range(3):
        log_in(client, "alice", "pas-le-bon")

    attempt = AccessAttempt.objects.get()
    assert (attempt.username, attempt.ip_address, attempt.failures_since_start) == ("alice", "203.0.113.7", 3)


def test_a_forwarded_header_is_ignored_without_a_trusted_proxy(client, alice):
    for number in range(5):
        log_in(client, "alice", "pas-le-bon", x_forwarded_for=f"10.0.0.{number}")

    assert log_in(client, "alice", PASSWORD, x_forwarded_for="10.0.0.99").status_code == 429


def test_behind_a_trusted_proxy_each_client_counts_apart(client, alice, settings):
    settings.TRUSTED_PROXIES = 1
    for _ in range(5):
        log_in(client, "alice", "pas-le-bon", address="10.1.1.1", x_forwarded_for="forged, 198.51.100.9")

    assert log_in(client, "alice", PASSWORD, address="10.1.1.1", x_forwarded_for="198.51.100.9").status_code == 429
    assert log_in(client, "alice", PASSWORD, address="10.1.1.1", x_forwarded_for="192.0.2.1").status_code == 302
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"198.51.100.9"}


def test_client_ip_takes_the_entry_the_outermost_trusted_proxy_wrote(settings):
    request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.2", headers={"x-real-ip": "a, b, c"})
    settings.CLIENT_IP_HEADER = "X-Real-IP"

    settings.TRUSTED_PROXIES = 0
    assert client_ip(request) == "10.0.0.2"
    settings.TRUSTED_PROXIES = 2
    assert client_ip(request) == "b"
    settings.TRUSTED_PROXIES = 4  # fewer entries than proxies: the request did not come through them all
    assert client_ip(request) == "10.0.0.2"


def test_the_figures_come_from_the_environment():
    assert read_setting("AXES_FAILURE_LIMIT", DJANGO_LOGIN_FAILURE_LIMIT="8") == "8"
    assert read_setting("AXES_COOLOFF_TIME", DJANGO_LOGIN_LOCKOUT_MINUTES="30") == "0:30:00"
    assert read_setting("TRUSTED_PROXIES", DJANGO_TRUSTED_PROXIES="2") == "2"
