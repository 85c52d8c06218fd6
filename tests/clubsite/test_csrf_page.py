"""Trial (issue 23): a form refused by the CSRF check (a page left open past its session, a form sent again after
logging out elsewhere) showed Django's bare English page, which talks about DEBUG. It is now the site's page, in
French, saying what to do, with a link back to the form; status 403 as before, and nothing saved."""

import pytest
from django.test import Client
from django.urls import reverse

from clubsite.models import Club

pytestmark = pytest.mark.django_db


@pytest.fixture
def strict_client():
    return Client(enforce_csrf_checks=True)


def test_an_expired_form_says_to_reload_and_links_back(strict_client, alice):
    strict_client.force_login(alice)
    strict_client.get(reverse("clubs"))  # the form's page sets the CSRF cookie
    form_page = "http://testserver" + reverse("clubs")
    response = strict_client.post(
        reverse("club_create"), {"name": "Club de Lyon", "csrfmiddlewaretoken": "expired" * 8}, HTTP_REFERER=form_page
    )
    page = response.content.decode()
    assert response.status_code == 403
    assert "La page a expiré : rechargez-la, puis recommencez" in page
    assert f'<a href="{form_page}">Revenir à la page du formulaire</a>' in page
    assert '<link rel="stylesheet"' in page  # the site's frame (base.html)
    assert "DEBUG" not in page and "Forbidden" not in page
    assert not Club.objects.exists()


def test_without_the_cookie_it_says_to_allow_cookies(strict_client, alice):
    strict_client.force_login(alice)
    response = strict_client.post(
        reverse("club_create"), {"name": "Club de Lyon"}, HTTP_REFERER="https://evil.example/"
    )
    page = response.content.decode()
    assert response.status_code == 403
    assert "autorisez les cookies pour ce site" in page
    assert '<a href="/">Revenir à l\'accueil</a>' in page  # never back to another site
    assert not Club.objects.exists()


def test_a_form_sent_by_htmx_gets_the_sentence_on_top_of_its_page(strict_client, alice):
    """The form keeps what was typed: the refusal is put at the top of <main>, not swapped in place of the form."""
    strict_client.force_login(alice)
    strict_client.get(reverse("clubs"))
    response = strict_client.post(
        reverse("club_create"), {"name": "Club de Lyon", "csrfmiddlewaretoken": "expired" * 8}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 403
    assert (response["HX-Retarget"], response["HX-Reswap"]) == ("main", "afterbegin")
    assert response.content.decode().startswith('<p class="error" role="alert">La page a expiré : rechargez-la')
    assert "<html" not in response.content.decode()
