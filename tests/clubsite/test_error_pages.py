"""Issue 23's trial with DEBUG off: a request Django refuses while reading it (256 KB pasted into a session's player
list: RequestDataTooBig) showed Django's bare English "Bad Request (400)", and a server error Django's English page.
Both are the site's pages now, in French with a link back; a request too big says the limit it passed, and one sent
by htmx gets the sentence on top of its page, where the other refusals go. The 500 page needs no database."""

import html

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from clubsite import urls
from clubsite.views import clubs, errors
from duplicate.models import Player, Session
from tests.duplicate.conftest import make_session

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("debug_off")]

TOO_BIG = "La page envoyée est trop grande (256 Ko au plus) : raccourcissez ce que vous avez saisi, puis recommencez."


@pytest.fixture
def debug_off():
    with override_settings(DEBUG=False):
        yield


@pytest.fixture
def browser(alice):
    """A member's browser: a 500 comes back as the page a visitor sees, not as the exception."""
    client = Client(raise_request_exception=False)
    client.force_login(alice)
    return client


def page(response) -> str:
    return html.unescape(response.content.decode())


def new_session(**fields):
    return {"name": "Mardi", "date": "2026-12-05", "move_seconds": 180, "entry": "arbiter", **fields}


def test_a_request_too_big_says_the_limit_on_the_sites_page(browser):
    form_page = "http://testserver" + reverse("duplicate:new")
    response = browser.post(reverse("duplicate:new"), new_session(players="1;" + "A" * 300_000), HTTP_REFERER=form_page)
    assert response.status_code == 413
    assert f'<p class="error" role="alert">{TOO_BIG} <a href="{form_page}">Revenir à la page du formulaire</a></p>' in (
        page(response)
    )
    assert '<html lang="fr">' in page(response)
    assert '<link rel="stylesheet"' in page(response)  # the site's frame (base.html)
    assert "Bad Request" not in page(response)
    assert not Session.objects.exists()


def test_the_limit_said_is_the_settings(browser, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 64 * 1024
    response = browser.post(reverse("duplicate:new"), new_session(players="A" * 70_000))
    assert response.status_code == 413
    assert "La page envoyée est trop grande (64 Ko au plus)" in page(response)


def test_too_many_fields_says_the_limit(browser):
    fields = {f"champ{number}": "1" for number in range(1_001)}
    response = browser.post(reverse("duplicate:new"), new_session(**fields))
    assert response.status_code == 400
    assert "La page envoyée compte trop de champs (1000 au plus) : rechargez-la, puis recommencez." in page(response)
    assert not Session.objects.exists()


def test_a_request_too_big_sent_by_htmx_gets_the_sentence_on_top_of_its_page(browser, alice, lyon):
    session = make_session(alice, lyon, players=["Anne"])
    response = browser.post(
        reverse("duplicate:players_add", args=[session.pk]), {"players": "2;" + "B" * 300_000}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 413
    assert (response["HX-Retarget"], response["HX-Reswap"]) == ("main", "afterbegin")
    assert page(response) == (f'<p class="error" role="alert">{TOO_BIG} <a href="/">Revenir à l\'accueil</a></p>')
    assert list(Player.objects.values_list("name", flat=True)) == ["Anne"]


def test_a_form_django_cannot_read_is_the_sites_page_too(browser):
    response = browser.post(reverse("duplicate:new"), b"--x--", content_type="multipart/form-data; boundary=")
    assert response.status_code == 400
    assert "La demande n'a pas pu être lue : rechargez la page, puis recommencez." in page(response)
    assert "Bad Request" not in page(response)
    assert not Session.objects.exists()


@override_settings(ALLOWED_HOSTS=["testserver"])
def test_a_host_not_allowed_is_answered_without_reading_the_host_again(browser):
    response = browser.get(reverse("clubs"), HTTP_HOST="evil.example", HTTP_REFERER="http://evil.example/")
    assert response.status_code == 400
    assert "La demande n'a pas pu être lue" in page(response)
    assert '<a href="/">Revenir à l\'accueil</a>' in page(response)


def test_handler400_is_the_sites():
    assert urls.handler400 == "clubsite.views.errors.bad_request"


# The 500 page


def test_a_server_error_is_the_sites_page_in_french(browser, lyon, monkeypatch):
    def fail(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(clubs, "_render_club", fail)
    response = browser.get(reverse("club_detail", args=[lyon.slug]))
    assert response.status_code == 500
    assert "<h1>Erreur du serveur</h1>" in page(response)
    assert "Une erreur inattendue a interrompu cette demande" in page(response)
    assert '<a href="/">Revenir à l\'accueil</a>' in page(response)
    assert '<html lang="fr">' in page(response)
    assert "Server Error" not in page(response)


def test_the_500_page_reads_nothing_from_the_database(rf, django_assert_num_queries):
    request = rf.get("/clubs/")
    try:
        raise RuntimeError("a bug")
    except RuntimeError:
        with django_assert_num_queries(0):
            response = errors.server_error(request)
    assert response.status_code == 500
    assert "Erreur du serveur" in page(response)
