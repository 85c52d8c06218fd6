"""Issue 23: nobody can use the site's mail against anyone. Every action that mails (a sign-up, a forgotten
password, a new address) is counted by who asks (a visitor by address, a member by account) and by the address
mailed, whoever asks, at the rates of settings.NINJA_DEFAULT_THROTTLE_RATES; past one, the form again with the
French sentence, 429 and Retry-After, and nothing saved, nothing sent."""

import hashlib
import re

import pytest
from django.core import mail
from django.urls import reverse
from ninja.throttling import SimpleRateThrottle

from clubsite.models import PendingSignup, RateWindow
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

REFUSAL = "Trop de demandes en peu de temps : réessayez dans 60 min."
SHOWN = f'<ul class="errorlist nonfield"><li>{REFUSAL}</li></ul>'
ELSEWHERE = "192.0.2.7"


@pytest.fixture(autouse=True)
def small_rates(settings, monkeypatch):
    settings.NINJA_DEFAULT_THROTTLE_RATES = {
        **settings.NINJA_DEFAULT_THROTTLE_RATES,
        "visitor_mail": "3/hour",
        "member_mail": "2/hour",
        "recipient_mail": "2/hour",
    }
    # The throttles' clock stands still, so that the wait they announce is exactly the hour.
    monkeypatch.setattr(SimpleRateThrottle, "timer", staticmethod(lambda: 1_000_000.0))


def sign_up(client, number, email=None, **extra):
    data = {
        "username": f"joueur{number}",
        "email": email or f"joueur{number}@example.org",
        "password1": PASSWORD,
        "password2": PASSWORD,
    }
    return client.post(reverse("signup"), data, **extra)


def reset(client, email, **extra):
    return client.post(reverse("password_reset"), {"email": email}, **extra)


def change_address(client, email, first_name="Alice", **extra):
    return client.post(reverse("profile"), {"first_name": first_name, "last_name": "", "email": email}, **extra)


def assert_refused(response):
    assert (response.status_code, response["Retry-After"]) == (429, "3600")
    assert SHOWN in response.text


# Sign-up


def test_a_visitors_sign_ups_past_the_rate_get_429_in_french(client):
    assert [sign_up(client, n).status_code for n in range(3)] == [302, 302, 302]

    refused = sign_up(client, 3)

    assert_refused(refused)
    assert 'name="username" value="joueur3"' in refused.text  # the form again, as typed
    assert len(mail.outbox) == 3
    assert PendingSignup.objects.count() == 3
    assert sign_up(client, 3, REMOTE_ADDR=ELSEWHERE).status_code == 302  # counted by address


def test_one_address_gets_no_more_sign_up_mails_from_anywhere(client):
    first = sign_up(client, 1, "dave@example.org", REMOTE_ADDR="198.51.100.1")
    second = sign_up(client, 2, "dave@example.org", REMOTE_ADDR="198.51.100.2")

    refused = sign_up(client, 3, "Dave@Example.org", REMOTE_ADDR="198.51.100.3")

    assert (first.status_code, second.status_code) == (302, 302)
    assert_refused(refused)
    assert [message.to for message in mail.outbox] == [["dave@example.org"], ["dave@example.org"]]
    assert list(PendingSignup.objects.values_list("username", flat=True)) == ["joueur1", "joueur2"]


def test_a_mailbox_is_counted_by_a_digest_where_every_process_reads_it(client):
    sign_up(client, 1, "dave@example.org")

    digest = hashlib.sha256(b"dave@example.org").hexdigest()
    counts = dict(RateWindow.objects.values_list("key", "hits"))
    assert counts == {f"throttle_recipient_mail_{digest}": 1, "throttle_visitor_mail_127.0.0.1": 1}


def test_only_a_form_that_mails_counts(client):
    for n in range(4):
        assert sign_up(client, n, "pas-une-adresse").status_code == 400

    assert [sign_up(client, n).status_code for n in range(4)] == [302, 302, 302, 429]
    assert len(mail.outbox) == 3


def test_past_his_own_rate_a_visitor_uses_up_nothing_of_a_mailbox(client):
    for n in range(3):
        sign_up(client, n)
    assert sign_up(client, 3, "dave@example.org").status_code == 429

    assert sign_up(client, 4, "dave@example.org", REMOTE_ADDR="198.51.100.1").status_code == 302
    assert sign_up(client, 5, "dave@example.org", REMOTE_ADDR="198.51.100.2").status_code == 302
    assert len(mail.outbox) == 5


# Forgotten password


def test_resets_for_one_address_stop_at_its_rate_from_anywhere(client, alice):
    sent = [reset(client, "alice@example.org", REMOTE_ADDR=f"198.51.100.{n}").status_code for n in (1, 2)]

    refused = reset(client, "ALICE@example.org", REMOTE_ADDR="198.51.100.3")

    assert sent == [302, 302]
    assert_refused(refused)
    assert 'value="ALICE@example.org"' in refused.text
    assert [message.to for message in mail.outbox] == [["alice@example.org"], ["alice@example.org"]]


def test_the_refusal_of_a_reset_tells_nothing_of_who_has_an_account(client, alice):
    masked_token = re.compile(r'"X-CSRFToken": "\w+"|name="csrfmiddlewaretoken" value="\w+"')
    answers = {}
    for email in ("alice@example.org", "personne@example.org"):
        statuses = [reset(client, email, REMOTE_ADDR=f"198.51.100.{n}").status_code for n in (1, 2)]
        refused = reset(client, email, REMOTE_ADDR="198.51.100.3")
        answers[email] = (statuses, refused.status_code, refused["Retry-After"], masked_token.sub("", refused.text))

    known, unknown = answers["alice@example.org"], answers["personne@example.org"]
    assert known == (unknown[0], unknown[1], unknown[2], unknown[3].replace("personne@", "alice@"))
    assert known[:3] == ([302, 302], 429, "3600")
    assert len(mail.outbox) == 2  # the unknown address is mailed nothing, and counted all the same


def test_a_visitors_resets_past_the_rate_get_429(client, alice):
    assert [reset(client, f"inconnu{n}@example.org").status_code for n in range(3)] == [302, 302, 302]

    assert_refused(reset(client, "alice@example.org"))
    assert mail.outbox == []
    assert reset(client, "alice@example.org", REMOTE_ADDR=ELSEWHERE).status_code == 302
    assert len(mail.outbox) == 1


def test_every_action_counts_for_the_same_mailbox(client, alice):
    assert reset(client, "alice@example.org").status_code == 302
    assert sign_up(client, 1, "alice@example.org").status_code == 302  # mails alice that she has an account

    assert_refused(reset(client, "alice@example.org", REMOTE_ADDR=ELSEWHERE))
    assert len(mail.outbox) == 2


# A member's new address


def test_a_members_address_changes_past_his_rate_get_429_and_save_nothing(client, alice):
    client.force_login(alice)
    assert change_address(client, "a1@example.org").status_code == 302
    assert change_address(client, "a2@example.org").status_code == 302

    refused = change_address(client, "a3@example.org", "Alicia", REMOTE_ADDR=ELSEWHERE)  # counted by account

    assert_refused(refused)
    alice.refresh_from_db()
    assert (alice.first_name, alice.email) == ("Alice", "alice@example.org")  # the first two posts' name, kept
    assert [message.to for message in mail.outbox] == [["a1@example.org"], ["a2@example.org"]]


def test_a_new_address_gets_no_more_mails_whoever_asks(client, alice, bob):
    client.force_login(alice)
    change_address(client, "partagee@example.org")
    change_address(client, "partagee@example.org")
    client.force_login(bob)

    assert_refused(change_address(client, "partagee@example.org"))
    assert len(mail.outbox) == 2


def test_editing_the_names_mails_nothing_and_counts_nothing(client, alice):
    client.force_login(alice)

    edits = [change_address(client, "ALICE@example.org", f"Alice{n}").status_code for n in range(4)]

    assert edits == [302, 302, 302, 302]
    assert mail.outbox == []
    changes = [change_address(client, f"a{n}@example.org").status_code for n in range(3)]
    assert changes == [302, 302, 429]
