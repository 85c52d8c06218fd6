"""Every page that answers GET answers HEAD (issue 23): an uptime monitor, a link checker or a proxy's health
check asks HEAD, and a 405 would tell it the site is down. The answer is the GET's, status and headers, without
its body."""

import pytest
from django.urls import reverse

from .test_pages import ENDPOINTS, _client_for

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("name", sorted(ENDPOINTS))
def test_head_answers_as_get_does(name, world, owner_client, isolated):
    endpoint = ENDPOINTS[name]
    client = _client_for(endpoint, owner_client)
    url = reverse(name, kwargs=endpoint.kwargs(world))
    got, _, _ = isolated(lambda: client.get(url))
    head, changed, _ = isolated(lambda: client.head(url))
    assert (head.status_code, head.get("Content-Type"), head.get("Location")) == (
        got.status_code,
        got.get("Content-Type"),
        got.get("Location"),
    )
    assert head.content == b""
    assert not changed


def test_head_on_the_home_page_for_a_visitor(client):
    response = client.head("/")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/html; charset=utf-8"
    assert response.content == b""
