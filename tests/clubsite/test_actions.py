"""The shared shape of a POST action on an owned object, as the sheets and the duplicate sessions use it."""

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.test import RequestFactory
from django.urls import include, path

from clubsite.actions import object_action
from clubsite.models import Club

pytestmark = [pytest.mark.django_db, pytest.mark.urls(__name__)]


class Refusal(ValueError):
    pass


def load(request, pk):
    if request.user.username != "alice":
        raise PermissionDenied
    return Club.objects.get(pk=pk)


def refused(request, club, message, status):
    return HttpResponse(f"{club.name} : {message}", status=status)


@object_action(load=load, refusal=Refusal, refused=refused, page="club_page")
def rename(request, club):
    """Rename the club, unless the name is empty."""
    if not request.POST.get("name"):
        raise Refusal("un nom est attendu")
    club.name = request.POST["name"]
    club.save(update_fields=["name"])


def club_page(request, pk):
    return HttpResponse()


# The site's URLs, and a page reached by the object's pk as sessions and games are.
urlpatterns = [path("club/<int:pk>/", club_page, name="club_page"), path("", include("clubsite.urls"))]


@pytest.fixture
def club():
    return Club.objects.create(name="Club de Lyon", slug="lyon")


def post(user, club, data):
    request = RequestFactory().post("/", data)
    request.user = user
    return rename(request, club.pk)


def test_the_action_keeps_the_views_name_and_docstring():
    assert (rename.__name__, rename.__doc__) == ("rename", "Rename the club, unless the name is empty.")


def test_it_redirects_to_the_objects_page_or_shows_the_refusal(club):
    alice = User.objects.create_user("alice")
    response = post(alice, club, {"name": "Club de Villeurbanne"})
    assert (response.status_code, response["Location"]) == (302, f"/club/{club.pk}/")
    club.refresh_from_db()
    assert club.name == "Club de Villeurbanne"
    response = post(alice, club, {})
    assert (response.status_code, response.content.decode()) == (400, "Club de Villeurbanne : un nom est attendu")


def test_it_asks_to_log_in_sends_a_get_to_the_page_and_lets_load_refuse(club):
    assert post(AnonymousUser(), club, {"name": "X"})["Location"].startswith("/compte/connexion/")
    request = RequestFactory().get("/")
    request.user = User.objects.create_user("alice")
    response = rename(request, club.pk)
    assert (response.status_code, response["Location"]) == (302, f"/club/{club.pk}/")
    request = RequestFactory().put("/")
    request.user = User.objects.get(username="alice")
    assert rename(request, club.pk).status_code == 405
    with pytest.raises(PermissionDenied):
        post(User.objects.create_user("bob"), club, {"name": "X"})
    club.refresh_from_db()
    assert club.name == "Club de Lyon"
