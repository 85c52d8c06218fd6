"""Trial: opening a POST-only address (a form's action left in the bar, a link copied) answered a blank 405 page.
It is now a short French page of the site saying the action is done through its button, status 405 kept."""

import pytest
from django.urls import reverse

from tests.duplicate.conftest import make_session

pytestmark = pytest.mark.django_db


def test_it_explains_and_links_back_to_the_previous_page(client, alice):
    client.force_login(alice)
    response = client.get(reverse("club_create"), HTTP_REFERER="http://testserver/clubs/")
    page = response.content.decode()
    assert (response.status_code, response["Allow"]) == (405, "POST")
    assert "Cette action se fait par son bouton" in page
    assert '<a href="http://testserver/clubs/">Revenir à la page précédente</a>' in page
    assert '<link rel="stylesheet"' in page  # the site's frame (base.html)


def test_it_links_home_without_a_previous_page_or_with_another_sites(client, alice, lyon):
    session = make_session(alice, lyon)
    client.force_login(alice)
    for headers in ({}, {"HTTP_REFERER": "https://evil.example/"}):
        # (a GET there goes to the session's page; a PUT is refused by require_http_methods)
        response = client.put(f"/duplicate/{session.pk}/coups/", **headers)
        assert response.status_code == 405
        assert '<a href="/">Revenir à l\'accueil</a>' in response.content.decode()


def test_it_leaves_the_apis_json_alone(client):
    response = client.delete("/api/score")
    assert (response.status_code, response["Content-Type"]) == (405, "application/json")
