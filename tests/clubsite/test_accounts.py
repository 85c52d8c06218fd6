import re
import time

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core import mail, signing
from django.urls import reverse

from clubsite.models import PendingSignup
from tests.conftest import PASSWORD, with_name

pytestmark = pytest.mark.django_db


def signup_data(**overrides):
    data = {
        "username": "dave",
        "email": "dave@example.org",
        "first_name": "Dave",
        "last_name": "",
        "password1": PASSWORD,
        "password2": PASSWORD,
    }
    return {**data, **overrides}


def login_url(next_url):
    return f"{reverse(settings.LOGIN_URL)}?next={next_url}"


# Sign-up


def test_signup_page_shows_the_form(client):
    response = client.get(reverse("signup"))

    assert response.status_code == 200
    assert "Créer un compte" in response.text
    assert 'name="password2"' in response.text


SENT = "Un courriel vous a été envoyé à l'adresse indiquée"


def confirmation_link(message) -> str:
    return re.search(r"http://testserver(/compte/inscription/confirmer/\S+/)", message.body).group(1)


def test_it_mails_a_link_and_creates_the_account_when_it_is_followed(client):
    response = client.post(reverse("signup"), signup_data(), follow=True)

    assert response.redirect_chain == [(reverse("signup_sent"), 302)]
    assert SENT in response.text
    assert not User.objects.filter(username="dave").exists()
    assert "_auth_user_id" not in client.session
    [message] = mail.outbox
    assert message.to == ["dave@example.org"]
    assert "« dave »" in message.body
    link = confirmation_link(message)

    page = client.get(link)
    assert page.status_code == 200
    assert "Activer mon compte" in page.text
    assert not User.objects.filter(username="dave").exists()  # a mail scanner's GET creates nothing

    response = client.post(link, follow=True)

    dave = User.objects.get(username="dave")
    assert (dave.email, dave.first_name, dave.is_active) == ("dave@example.org", "Dave", True)
    assert dave.check_password(PASSWORD)
    assert response.redirect_chain == [(reverse("profile"), 302)]
    assert response.context["user"] == dave
    assert "Bienvenue ! Votre compte est créé." in response.text
    assert PendingSignup.objects.count() == 0


def test_it_refuses_a_taken_username(client, alice):
    response = client.post(reverse("signup"), signup_data(username="Alice", email="other@example.org"))

    assert response.status_code == 400
    assert "Un utilisateur avec ce nom existe déjà." in response.text
    assert User.objects.count() == 1
    assert "_auth_user_id" not in client.session
    assert mail.outbox == []


def test_it_answers_a_taken_email_as_a_new_one_and_tells_its_owner(client, alice):
    new = client.post(reverse("signup"), signup_data(username="eve", email="eve@example.org"), follow=True)
    taken = client.post(reverse("signup"), signup_data(email="ALICE@example.org"), follow=True)

    assert taken.redirect_chain == new.redirect_chain == [(reverse("signup_sent"), 302)]
    masked_token = re.compile(r'"X-CSRFToken": "\w+"')
    assert masked_token.sub("", taken.text) == masked_token.sub("", new.text)
    assert "Un compte utilise déjà cette adresse" not in taken.text
    assert not User.objects.filter(username="dave").exists()
    assert list(PendingSignup.objects.values_list("username", flat=True)) == ["eve"]
    notice = mail.outbox[1]
    assert notice.to == ["alice@example.org"]
    assert "Elle sert déjà au compte « alice »" in notice.body
    assert "http://testserver/compte/mot-de-passe/oubli/" in notice.body
    assert "/compte/inscription/confirmer/" not in notice.body


def test_a_confirmation_link_serves_once(client):
    client.post(reverse("signup"), signup_data())
    link = confirmation_link(mail.outbox[0])
    client.post(link)
    client.logout()

    response = client.post(link)

    assert response.status_code == 400
    assert "Ce lien n'est plus valable" in response.text
    assert User.objects.filter(username="dave").count() == 1


def test_a_forged_or_old_confirmation_link_is_refused(client, monkeypatch):
    client.post(reverse("signup"), signup_data())
    link = confirmation_link(mail.outbox[0])

    forged = client.post(link.replace("/confirmer/", "/confirmer/x"))
    now = time.time()
    monkeypatch.setattr(signing.time, "time", lambda: now + 3 * 24 * 3600 + 60)
    old = client.post(link)

    assert forged.status_code == old.status_code == 400
    assert "Ce lien n'est plus valable" in old.text
    assert not User.objects.filter(username="dave").exists()


def test_a_sign_up_reserves_no_name_until_confirmed(client):
    client.post(reverse("signup"), signup_data(email="first@example.org"))
    client.post(reverse("signup"), signup_data(email="second@example.org"))
    first, second = (confirmation_link(message) for message in mail.outbox)

    client.post(first)
    client.logout()
    response = client.post(second)

    assert response.status_code == 400
    assert "Ce nom d&#x27;utilisateur a été pris entre-temps" in response.text
    assert User.objects.get(username="dave").email == "first@example.org"


def test_it_requires_an_email(client):
    response = client.post(reverse("signup"), signup_data(email=""))

    assert response.status_code == 400
    assert not User.objects.filter(username="dave").exists()


def test_it_refuses_mismatched_passwords(client):
    response = client.post(reverse("signup"), signup_data(password2="autre-chose-2024"))

    assert response.status_code == 400
    assert "Les deux mots de passe ne correspondent pas." in response.text
    assert not User.objects.exists()


def test_signup_sends_a_member_to_the_profile(client, alice):
    client.force_login(alice)

    response = client.get(reverse("signup"))

    assert response.status_code == 302
    assert response.url == reverse("profile")


# Log-in and log-out


def test_it_logs_in_and_goes_to_the_profile(client, alice):
    response = client.post(reverse("login"), {"username": "alice", "password": PASSWORD})

    assert response.status_code == 302
    assert response.url == reverse(settings.LOGIN_REDIRECT_URL) == reverse("profile")
    assert client.session["_auth_user_id"] == str(alice.pk)


def test_it_logs_in_and_follows_next(client, alice):
    response = client.post(reverse("login"), {"username": "alice", "password": PASSWORD, "next": reverse("clubs")})

    assert response.url == reverse("clubs")


def test_it_refuses_a_wrong_password(client, alice):
    response = client.post(reverse("login"), {"username": "alice", "password": "pas-le-bon"})

    assert response.status_code == 200
    assert "Saisissez un nom d’utilisateur et un mot de passe valides." in response.text
    assert "_auth_user_id" not in client.session


def test_it_logs_out_by_post(client, alice):
    client.force_login(alice)

    response = client.post(reverse("logout"))

    assert response.status_code == 302
    assert response.url == reverse(settings.LOGOUT_REDIRECT_URL) == reverse("counter")
    assert "_auth_user_id" not in client.session


def test_logout_rejects_get(client, alice):
    client.force_login(alice)

    response = client.get(reverse("logout"))

    assert response.status_code == 405
    assert client.session["_auth_user_id"] == str(alice.pk)


def test_account_nav_offers_login_and_signup_to_visitors(client):
    response = client.get(reverse("counter"))

    assert f'href="{reverse("login")}"' in response.text
    assert f'href="{reverse("signup")}"' in response.text
    assert f'action="{reverse("logout")}"' not in response.text


def test_account_nav_offers_profile_clubs_and_logout_to_members(client, alice):
    client.force_login(alice)

    response = client.get(reverse("counter"))

    assert f'href="{reverse("profile")}"' in response.text
    assert f'href="{reverse("clubs")}"' in response.text
    assert f'<form method="post" action="{reverse("logout")}">' in response.text
    assert f'href="{reverse("login")}"' not in response.text


# Passwords


def test_it_changes_the_password(client, alice):
    client.force_login(alice)
    data = {"old_password": PASSWORD, "new_password1": "nouveau-mot-2025", "new_password2": "nouveau-mot-2025"}

    response = client.post(reverse("password_change"), data)

    assert response.status_code == 302
    assert response.url == reverse("password_change_done")
    alice.refresh_from_db()
    assert alice.check_password("nouveau-mot-2025")
    assert client.session["_auth_user_id"] == str(alice.pk)


def test_password_change_refuses_a_wrong_old_password(client, alice):
    client.force_login(alice)
    data = {"old_password": "pas-le-bon", "new_password1": "nouveau-mot-2025", "new_password2": "nouveau-mot-2025"}

    response = client.post(reverse("password_change"), data)

    assert response.status_code == 200
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)


def test_password_change_requires_login(client):
    response = client.get(reverse("password_change"))

    assert response.status_code == 302
    assert response.url == login_url(reverse("password_change"))


def test_it_mails_a_reset_link_that_works(client, alice):
    response = client.post(reverse("password_reset"), {"email": "alice@example.org"})

    assert response.status_code == 302
    assert response.url == reverse("password_reset_done")
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["alice@example.org"]
    assert "« alice »" in message.body
    link = re.search(r"http://testserver(/compte/mot-de-passe/nouveau/\S+/)", message.body).group(1)

    form_page = client.get(link, follow=True)
    assert form_page.status_code == 200
    assert 'name="new_password1"' in form_page.text
    set_password_url = form_page.redirect_chain[-1][0]
    done = client.post(set_password_url, {"new_password1": "nouveau-mot-2025", "new_password2": "nouveau-mot-2025"})

    assert done.status_code == 302
    assert done.url == reverse("password_reset_complete")
    alice.refresh_from_db()
    assert alice.check_password("nouveau-mot-2025")


def test_reset_mails_nobody_for_an_unknown_address(client, alice):
    response = client.post(reverse("password_reset"), {"email": "personne@example.org"})

    assert response.status_code == 302
    assert response.url == reverse("password_reset_done")
    assert mail.outbox == []


def test_reset_link_with_a_bad_token_is_refused(client, alice):
    response = client.get(reverse("password_reset_confirm", args=["MQ", "faux-jeton"]))

    assert response.status_code == 200
    assert "Ce lien n'est plus valable" in response.text
    assert 'name="new_password1"' not in response.text


# Profile


def test_profile_requires_login(client):
    response = client.get(reverse("profile"))

    assert response.status_code == 302
    assert response.url == login_url(reverse("profile"))


def test_profile_shows_the_member_and_their_clubs(client, alice, lyon):
    with_name(alice, "Alice", "Martin")
    client.force_login(alice)

    response = client.get(reverse("profile"))

    assert response.status_code == 200
    assert "Alice Martin" in response.text
    assert "alice@example.org" in response.text
    assert reverse("club_detail", args=["lyon"]) in response.text
    assert "Administrateur du club" in response.text
    assert reverse("password_change") in response.text


def test_profile_shows_only_the_visitors_own_data(client, alice, bob):
    client.force_login(alice)

    response = client.get(reverse("profile"))

    assert "bob@example.org" not in response.text


def test_it_edits_the_names_at_once(client, alice):
    client.force_login(alice)

    response = client.post(
        reverse("profile"), {"first_name": "Alicia", "last_name": "Durand", "email": "ALICE@example.org"}
    )

    assert response.status_code == 302
    assert response.url == reverse("profile")
    alice.refresh_from_db()
    assert (alice.first_name, alice.last_name, alice.email) == ("Alicia", "Durand", "ALICE@example.org")
    assert "Profil enregistré." in client.get(reverse("profile")).text
    assert mail.outbox == []


def test_a_new_address_changes_once_its_mailed_link_is_followed(client, alice):
    client.force_login(alice)

    response = client.post(reverse("profile"), {"first_name": "Alice", "last_name": "Martin", "email": "a@example.org"})

    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.email == "alice@example.org"
    [message] = mail.outbox
    assert message.to == ["a@example.org"]
    link = re.search(r"http://testserver(/compte/adresse/\S+/)", message.body).group(1)
    assert "Votre adresse deviendra a@example.org." in client.get(link).text
    response = client.post(link, follow=True)
    assert "Adresse enregistrée." in response.text
    alice.refresh_from_db()
    assert alice.email == "a@example.org"
    assert client.post(link).status_code == 400  # served once: the address it replaces is gone


def test_a_confirmation_link_serves_only_its_member(client, alice, bob):
    client.force_login(alice)
    client.post(reverse("profile"), {"first_name": "", "last_name": "", "email": "a@example.org"})
    link = re.search(r"http://testserver(/compte/adresse/\S+/)", mail.outbox[0].body).group(1)
    client.force_login(bob)

    response = client.post(link)

    assert response.status_code == 400
    bob.refresh_from_db()
    assert bob.email == "bob@example.org"


def test_profile_answers_a_taken_email_as_a_new_one_and_tells_its_owner(client, alice, bob):
    with_name(alice, "Alice", "Martin")
    client.force_login(alice)

    bad = client.post(reverse("profile"), {"first_name": "", "last_name": "", "email": "pas-une-adresse"})
    free = client.post(reverse("profile"), {"first_name": "", "last_name": "", "email": "new@example.org"}, follow=True)
    taken = client.post(
        reverse("profile"), {"first_name": "", "last_name": "", "email": "BOB@example.org"}, follow=True
    )

    assert bad.status_code == 400
    assert "<h2>Alice Martin</h2>" in bad.text
    assert "Un courriel a été envoyé à new@example.org" in free.text
    assert "Un courriel a été envoyé à BOB@example.org" in taken.text
    assert "Un compte utilise déjà cette adresse" not in taken.text
    notice = mail.outbox[1]
    assert notice.to == ["bob@example.org"]
    assert "sert déjà au compte « bob »" in notice.body
    assert "/compte/adresse/" not in notice.body
    alice.refresh_from_db()
    assert alice.email == "alice@example.org"


def test_an_empty_post_is_refused_not_ignored(client, alice):
    assert client.post(reverse("signup"), {}).status_code == 400
    client.force_login(alice)

    response = client.post(reverse("profile"), {})

    assert response.status_code == 400
    alice.refresh_from_db()
    assert alice.email == "alice@example.org"


def test_a_member_keeps_his_licence_on_his_account(client, alice):
    """Issue 16: a member's profile holds his federation licence; a seat linked to him takes it (tests of the
    duplicate app). Refused with the reason on the field when it is not letters and digits."""
    from clubsite.models import Profile

    client.force_login(alice)
    data = {"first_name": "Alice", "last_name": "Martin", "email": alice.email, "licence": "0123456"}
    assert client.post("/compte/", data).status_code == 302
    assert Profile.licence_of(alice) == "0123456"
    assert 'name="licence" value="0123456"' in client.get("/compte/").content.decode()
    response = client.post("/compte/", data | {"licence": "12-34"})
    assert response.status_code == 400
    assert Profile.licence_of(alice) == "0123456"
