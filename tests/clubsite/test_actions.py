"""The shared shape of a POST action on an owned object, as the sheets and the duplicate sessions use it."""

import pytest
from django.contrib.auth.models import AnonymousUser
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
    """The club, for its admin only."""
    club = Club.objects.get(pk=pk)
    if not club.is_admin(request.user):
        raise PermissionDenied
    return club


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


def post(user, club, data):
    request = RequestFactory().post("/", data)
    request.user = user
    return rename(request, club.pk)


def test_the_action_keeps_the_views_name_and_docstring():
    assert (rename.__name__, rename.__doc__) == ("rename", "Rename the club, unless the name is empty.")


def test_it_redirects_to_the_objects_page_or_shows_the_refusal(alice, lyon):
    response = post(alice, lyon, {"name": "Club de Villeurbanne"})
    assert (response.status_code, response["Location"]) == (302, f"/club/{lyon.pk}/")
    lyon.refresh_from_db()
    assert lyon.name == "Club de Villeurbanne"
    response = post(alice, lyon, {})
    assert (response.status_code, response.content.decode()) == (400, "Club de Villeurbanne : un nom est attendu")


def test_it_asks_to_log_in_sends_a_get_to_the_page_and_lets_load_refuse(alice, bob, lyon):
    assert post(AnonymousUser(), lyon, {"name": "X"})["Location"].startswith("/compte/connexion/")
    request = RequestFactory().get("/")
    request.user = alice
    response = rename(request, lyon.pk)
    assert (response.status_code, response["Location"]) == (302, f"/club/{lyon.pk}/")
    request = RequestFactory().put("/")
    request.user = alice
    assert rename(request, lyon.pk).status_code == 405
    with pytest.raises(PermissionDenied):
        post(bob, lyon, {"name": "X"})  # a member, not its admin
    lyon.refresh_from_db()
    assert lyon.name == "Club de Lyon"
