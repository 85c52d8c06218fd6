"""A score sheet's form sent twice writes once (issue 12: 10 pairs of the same form sent at once gave 10 lines
twice). Each form carries the last line it saw ("after"); the service holds the game's row while it checks it."""

import re
import threading

import pytest
from django.db import connection, connections
from django.test import Client

from sheets.models import Line

from .conftest import make_game

STALE = "Ce formulaire a déjà été envoyé, ou la feuille a changé depuis son affichage"


def form_after(client, url) -> str:
    """The `after` value the page's forms carry, as the browser would send it."""
    values = set(re.findall(r'name="after" value="(\d+)"', client.get(url).text))
    assert len(values) == 1
    return values.pop()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "data", "kind"),
    [
        ("lignes/", {"kind": "play", "points": "12"}, "play"),
        ("lignes/", {"kind": "pass"}, "pass"),
        ("penalite/", {"player": "1", "points": "10"}, "penalty"),
        ("contestation/", {"player": "0", "words": "1"}, "challenge"),
    ],
)
def test_a_form_sent_twice_writes_one_line(client, alice, path, data, kind):
    game = make_game(alice)
    client.force_login(alice)
    data = {**data, "after": form_after(client, f"/parties/{game.pk}/")}

    first = client.post(f"/parties/{game.pk}/{path}", data)
    second = client.post(f"/parties/{game.pk}/{path}", data)

    assert first.status_code == 302
    assert second.status_code == 409
    assert STALE in second.text
    assert list(game.lines.values_list("kind", "player__position")) == [(kind, 1 if path == "penalite/" else 0)]


@pytest.mark.django_db
def test_the_next_form_from_the_fresh_page_goes_through(client, alice):
    game = make_game(alice)
    client.force_login(alice)
    url = f"/parties/{game.pk}/"
    client.post(f"{url}lignes/", {"kind": "play", "points": "12", "after": form_after(client, url)})

    response = client.post(f"{url}lignes/", {"kind": "play", "points": "20", "after": form_after(client, url)})

    assert response.status_code == 302
    assert list(game.lines.values_list("player__position", "points")) == [(0, 12), (1, 20)]


@pytest.mark.django_db
def test_undo_sent_twice_takes_back_one_line(client, alice):
    game = make_game(alice)
    client.force_login(alice)
    url = f"/parties/{game.pk}/"
    for points in ("12", "20"):
        client.post(f"{url}lignes/", {"kind": "play", "points": points, "after": form_after(client, url)})
    after = form_after(client, url)

    client.post(f"{url}lignes/annuler/", {"after": after})
    second = client.post(f"{url}lignes/annuler/", {"after": after})

    assert second.status_code == 409
    assert list(game.lines.values_list("points", flat=True)) == [12]


@pytest.mark.django_db
def test_the_grid_and_the_counter_inscribe_once(client, alice):
    """The typed counter's move is on no board: only the form's "after" stops it from being written twice."""
    game = make_game(alice)
    client.force_login(alice)
    grid = {
        "start": "H4",
        "letters": "VAGUE",
        "action": "inscribe",
        "after": form_after(client, f"/parties/{game.pk}/grille/"),
    }

    client.post(f"/parties/{game.pk}/grille/", grid)
    again = client.post(f"/parties/{game.pk}/grille/", grid)
    assert again.status_code == 400  # the move's tiles are on the board already: the engine refuses it first
    counter = {"w0": "MOT", "action": "inscribe", "after": form_after(client, f"/parties/{game.pk}/compter/")}
    client.post(f"/parties/{game.pk}/compter/", counter)
    again = client.post(f"/parties/{game.pk}/compter/", counter)

    assert STALE in again.text
    assert list(game.lines.values_list("player__position", "move")) == [(0, "H4 VAGUE"), (1, "")]


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_the_same_form_sent_at_once_writes_one_line(alice):
    if connection.vendor != "postgresql":
        pytest.skip("concurrent writers need PostgreSQL's row locks (set DATABASE_URL, as .ci/run does)")
    game = make_game(alice)
    pairs, statuses = 10, []
    for pair in range(pairs):
        client = Client()
        client.force_login(alice)
        data = {"kind": "play", "points": str(pair), "after": form_after(client, f"/parties/{game.pk}/")}
        start = threading.Barrier(2)

        def send(client=client, data=data, start=start):
            start.wait()
            statuses.append(client.post(f"/parties/{game.pk}/lignes/", data).status_code)
            connections.close_all()

        threads = [threading.Thread(target=send) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

    assert sorted(statuses) == [302] * pairs + [409] * pairs
    lines = list(game.lines.order_by("pk").values_list("player__position", "points"))
    assert lines == [(pair % 2, pair) for pair in range(pairs)]
    assert Line.objects.count() == pairs
