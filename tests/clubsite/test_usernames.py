"""Issue 23's trial of the user names: nothing checked them, so « dave » with a Hangul filler (U+1160) and « аlice »
with a Cyrillic а (U+0430) were accepted, and the second passed for @alice in a session's history. A user name is
now held to the names' rule (nothing invisible) and to one script, at the sign-up and in the admin."""

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from clubsite.models import PendingSignup
from clubsite.text import mixed_scripts

from .test_accounts import signup_data

pytestmark = pytest.mark.django_db

CYRILLIC_A = "\u0430"
MIXED = "Un nom d'utilisateur ne peut mêler deux écritures"


@pytest.fixture
def root(db):
    return User.objects.create_superuser("root", "root@example.org", "root-password-2024")


def errors(response) -> dict:
    return response.context["form"].errors


def admin_errors(response) -> dict:
    return response.context["adminform"].form.errors


# The user's admin page shows his clubs: its form sends their rows' management fields.
NO_MEMBERSHIPS = {"memberships-TOTAL_FORMS": "0", "memberships-INITIAL_FORMS": "0"}


@pytest.mark.parametrize(
    ("username", "message"),
    [
        (
            "dave\u1160",
            "Un nom d'utilisateur ne peut contenir de caractère invisible ou de contrôle de sens d'écriture (U+1160).",
        ),
        (
            "dave\u3164",
            "Un nom d'utilisateur ne peut contenir de caractère invisible ou de contrôle de sens d'écriture (U+1160).",
        ),  # Django makes the compatibility filler the Hangul one (NFKC) before it is checked
        (f"{CYRILLIC_A}lice", f"{MIXED} : « {CYRILLIC_A} » (U+0430) n'est pas de l'écriture de « l »."),
        ("b\u03bfb", f"{MIXED} : « \u03bf » (U+03BF) n'est pas de l'écriture de « b »."),  # a Greek omicron
    ],
    ids=["hangul_filler", "hangul_compatibility_filler", "cyrillic_a", "greek_omicron"],
)
def test_the_sign_up_refuses_a_user_name_that_would_lie(client, alice, username, message):
    response = client.post(reverse("signup"), signup_data(username=username))
    assert response.status_code == 400
    assert errors(response) == {"username": [message]}
    assert not PendingSignup.objects.exists()


@pytest.mark.parametrize("username", ["dave", "Hélène", "zoé.martin-2", "дмитрий", "李小龍", "山田たろう", "kim김민준"])
def test_real_user_names_of_one_script_are_taken(client, username):
    response = client.post(reverse("signup"), signup_data(username=username))
    assert response.status_code == 302
    assert PendingSignup.objects.get().username == username


def test_the_message_names_the_letter_that_is_not_latin_wherever_it_is():
    assert mixed_scripts(f"{CYRILLIC_A}lice") == ("l", CYRILLIC_A)
    assert mixed_scripts(f"alic{CYRILLIC_A}") == ("a", CYRILLIC_A)
    assert mixed_scripts("bob\u0661") == ("b", "\u0661")  # an Arabic-Indic one beside Latin letters
    assert mixed_scripts("محمد٣") is None  # Arabic letters with Arabic digits
    assert mixed_scripts("alice_42") is None


def test_the_admin_cannot_add_a_user_named_as_a_look_alike(client, root, alice):
    client.force_login(root)
    data = {"username": f"{CYRILLIC_A}lice", "usable_password": "false", **NO_MEMBERSHIPS}
    response = client.post(reverse("admin:auth_user_add"), data)
    assert response.status_code == 200  # the admin answers its page again
    assert admin_errors(response) == {
        "username": [f"{MIXED} : « {CYRILLIC_A} » (U+0430) n'est pas de l'écriture de « l »."]
    }
    assert list(User.objects.values_list("username", flat=True).order_by("username")) == ["alice", "root"]


def test_the_admin_cannot_rename_a_user_with_an_invisible_character(client, root, bob):
    client.force_login(root)
    url = reverse("admin:auth_user_change", args=[bob.pk])
    form = client.get(url).context["adminform"].form
    data = {name: value for name, value in form.initial.items() if value is not None and name != "password"}
    data.update(
        {
            "username": "bob\u1160",
            "date_joined_0": "2026-01-01",
            "date_joined_1": "10:00:00",
            "groups": [],
            "user_permissions": [],
            **NO_MEMBERSHIPS,
        }
    )
    data.pop("last_login", None)
    data.pop("date_joined", None)
    response = client.post(url, data)
    assert response.status_code == 200
    assert admin_errors(response) == {
        "username": [
            "Un nom d'utilisateur ne peut contenir de caractère invisible ou de contrôle de sens d'écriture (U+1160)."
        ]
    }
    bob.refresh_from_db()
    assert bob.username == "bob"


@pytest.mark.parametrize("username", ["Alice", "ＡＬＩＣＥ", "𝐚𝐥𝐢𝐜𝐞"])
def test_a_user_name_that_is_alices_in_another_case_or_form_is_taken_already(client, alice, username):
    """Django makes the name NFKC, then looks for it in any case: the rule the docs promise beside ours."""
    response = client.post(reverse("signup"), signup_data(username=username))
    assert response.status_code == 400
    assert list(errors(response)) == ["username"]
    assert not PendingSignup.objects.exists()
