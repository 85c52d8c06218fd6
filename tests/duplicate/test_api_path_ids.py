"""Attacker's trial of issue 23: a path's id written "27.0" or "+27" was read as 27. An id in a path is written
with digits only; anything else is a French 422 naming the field, as a body's integer is."""

import pytest

from .conftest import make_session

pytestmark = pytest.mark.django_db


@pytest.fixture
def session(alice, lyon):
    return make_session(alice, lyon, players=["Ann", "Ben"])


@pytest.mark.parametrize("written", ["{pk}.0", "+{pk}", " {pk}", "{pk}e0", "٣"])
def test_a_path_id_is_digits_only(client, alice, session, written):
    client.force_login(alice)
    path = "/api/duplicate/sessions/" + written.format(pk=session.pk) + "/ranking"
    response = client.get(path)
    assert response.status_code == 422, (path, response.content)
    assert response.json()["detail"] == "Champ « pk » : un nombre entier est attendu."


def test_digits_are_read(client, alice, session):
    client.force_login(alice)
    assert client.get(f"/api/duplicate/sessions/{session.pk}/ranking").status_code == 200


def test_an_unreadable_move_is_refused_through_the_api_as_at_the_console(client, alice, session):
    """Newcomer's trial of issue 24: PATCH …/results/{player} with {"move": "abc"} saved 0 with a reason, where the
    console and the phone refuse the slip; the service refuses it, for every caller."""
    from duplicate.models import Result
    from duplicate.services.rounds import round_add

    round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    player = session.players.order_by("table").first()
    client.force_login(alice)
    path = f"/api/duplicate/sessions/{session.pk}/rounds/1/results/{player.pk}"
    response = client.patch(path, {"move": "abc"}, content_type="application/json")
    assert response.status_code == 422, response.content
    assert not Result.objects.filter(player=player).exists()
    scores = f"/api/duplicate/sessions/{session.pk}/rounds/1/scores"
    response = client.put(scores, [{"player": player.pk, "move": "abc"}], content_type="application/json")
    assert response.status_code == 422, response.content
    assert not Result.objects.filter(player=player).exists()
