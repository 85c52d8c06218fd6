"""Trial of issue 16: a member could get an API token only from `manage.py create_api_token` (a shell on the
server). "Mon compte" now creates one, shown once, lists them and deletes them."""

import re

import pytest

from clubsite.models import ApiToken

pytestmark = pytest.mark.django_db


def api_call(client, raw: str):
    """A personal session created through the API with the token."""
    return client.post(
        "/api/duplicate/sessions",
        {"name": "Essai", "players": ["Ann"]},
        content_type="application/json",
        headers={"Authorization": f"Bearer {raw}"},
    )


def created_token(response) -> str:
    (raw,) = re.findall(r'id="new-token" type="text" readonly value="([^"]+)"', response.content.decode())
    return raw


def test_a_member_creates_a_token_shown_once_that_the_api_takes(client, alice):
    client.force_login(alice)
    response = client.post("/compte/jetons/")
    assert response.status_code == 201
    assert "Jeton créé. Copiez-le maintenant : il ne sera plus affiché." in response.content.decode()
    raw = created_token(response)
    token = ApiToken.objects.get(user=alice)
    assert token.digest == ApiToken.digest_of(raw)
    assert raw not in client.get("/compte/").content.decode()  # never shown again
    client.logout()
    assert api_call(client, raw).status_code == 201


def test_five_tokens_at_most_and_a_deleted_one_is_refused(client, alice):
    client.force_login(alice)
    raws = [created_token(client.post("/compte/jetons/")) for _ in range(5)]
    response = client.post("/compte/jetons/")
    assert response.status_code == 409
    assert "Vous avez déjà 5 jetons : supprimez-en un avant d&#x27;en créer un autre." in response.content.decode()
    assert ApiToken.objects.filter(user=alice).count() == 5
    first = ApiToken.objects.get(digest=ApiToken.digest_of(raws[0]))
    response = client.post(f"/compte/jetons/{first.pk}/supprimer/", follow=True)
    assert "Jeton supprimé : les appels qui s&#x27;en servent sont désormais refusés." in response.content.decode()
    client.logout()
    assert api_call(client, raws[0]).status_code == 401
    assert api_call(client, raws[1]).status_code == 201


def test_a_token_is_named_after_the_program_that_uses_it(client, alice):
    """Second trial: two tokens created in the same minute could not be told apart."""
    client.force_login(alice)
    response = client.post("/compte/jetons/", {"label": "  Logiciel d'arbitrage  "})
    assert response.status_code == 201
    assert ApiToken.objects.get(user=alice).label == "Logiciel d'arbitrage"
    page = client.get("/compte/").content.decode()
    assert "<strong>Logiciel d&#x27;arbitrage</strong> · créé le" in page
    assert 'data-confirm="Supprimer le jeton « Logiciel d&#x27;arbitrage » ?' in page
    refused = client.post("/compte/jetons/", {"label": "x" * 61})
    assert refused.status_code == 400
    assert ApiToken.objects.filter(user=alice).count() == 1


def test_only_its_owner_deletes_a_token(client, alice, bob):
    ApiToken.issue(alice)
    token = ApiToken.objects.get(user=alice)
    client.force_login(bob)
    assert client.post(f"/compte/jetons/{token.pk}/supprimer/").status_code == 404
    assert client.get("/compte/jetons/").status_code == 405
    client.logout()
    response = client.post("/compte/jetons/")
    assert (response.status_code, response["Location"].split("?")[0]) == (302, "/compte/connexion/")
    assert ApiToken.objects.filter(user=alice).count() == 1
