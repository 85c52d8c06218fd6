"""Issue 23: the console of a large room. Any member may run a personal session of up to 2,000 players, and a room of
1,000 is a real one: the console drew every player's row twice (his bulletin, and "Gérer les joueurs"), 10 s and
6.6 MB for 2,000. It draws them a hundred a page (?joueurs=N), each row's forms and its poll keep to their page, and
its queries do not grow with the players."""

import re

import pytest

from duplicate.models import Player, Result
from duplicate.services.rounds import round_add
from duplicate.views.console import CONSOLE_PAGE_PLAYERS

from .conftest import make_session

pytestmark = pytest.mark.django_db

ROOM = 250  # three pages: 100, 100 and 50


def room_session(organiser, count=ROOM):
    """A personal session (no club) of `count` players at tables 1 to `count`, its first move drawn with its top."""
    session = make_session(organiser, players=[f"Joueur {table}" for table in range(1, count + 1)])
    round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    return session


def rows(html: str) -> list[str]:
    """The tables of the players whose bulletin rows the page draws."""
    return re.findall(r'<tr id="player-\d+">\s*<td>(\d*)</td>', html)


def managed(html: str) -> int:
    """The players' rows under "Gérer les joueurs"."""
    return html.count('class="player-edit"')


@pytest.fixture
def room(alice):
    return room_session(alice)


def test_a_room_of_250_draws_its_players_a_hundred_a_page(client, alice, room):
    client.force_login(alice)
    html = client.get(f"/duplicate/{room.pk}/").content.decode()
    assert CONSOLE_PAGE_PLAYERS == 100
    assert rows(html) == [str(table) for table in range(1, 101)]
    assert managed(html) == 100
    assert "Joueurs 1 à 100 sur 250 :" in html
    pager = html.split('<nav class="pager" aria-label="Joueurs affichés">')[1].split("</nav>")[0]
    assert re.findall(r'href="([^"]+)"', pager) == [f"?joueurs={page}#results-title" for page in (1, 2, 3)]
    html = client.get(f"/duplicate/{room.pk}/?joueurs=3").content.decode()
    assert rows(html) == [str(table) for table in range(201, 251)]
    assert managed(html) == 50
    assert "Joueurs 201 à 250 sur 250 :" in html
    assert "0/250 bulletins" in html  # the count is the whole room's


def test_a_page_out_of_range_is_the_nearest(client, alice, room):
    client.force_login(alice)
    for asked, first in (("0", "1"), ("9", "201"), ("x", "1"), ("99999999999", "1")):
        response = client.get(f"/duplicate/{room.pk}/?joueurs={asked}")
        assert (response.status_code, rows(response.content.decode())[0]) == (200, first)


def test_a_room_of_one_page_has_no_pager(client, alice):
    session = room_session(alice, count=CONSOLE_PAGE_PLAYERS)
    client.force_login(alice)
    html = client.get(f"/duplicate/{session.pk}/").content.decode()
    assert len(rows(html)) == CONSOLE_PAGE_PLAYERS
    assert 'class="pager"' not in html


def test_the_pager_keeps_the_move_being_corrected(client, alice, room):
    round_add(session=room, draw_text="ST+AIONX", top_text="4G AVIONS")
    client.force_login(alice)
    html = client.get(f"/duplicate/{room.pk}/?coup=1&joueurs=2").content.decode()
    assert 'href="?coup=1&amp;joueurs=3#results-title"' in html
    assert 'href="?coup=1&amp;gerer=joueurs&amp;joueurs=3#gerer-joueurs"' in html
    assert rows(html)[0] == "101"


def test_a_row_of_page_3_posts_back_to_page_3(client, alice, room):
    player = room.players.get(table=230)
    client.force_login(alice)
    html = client.get(f"/duplicate/{room.pk}/?joueurs=3").content.decode()
    url = f"/duplicate/{room.pk}/coups/1/resultats/{player.pk}/?joueurs=3"
    assert html.count(f'action="{url}"') == 2  # the score and the marks
    response = client.post(url, {"score": "12"})
    assert response["Location"] == f"/duplicate/{room.pk}/?joueurs=3"
    response = client.post(url, {"score": "12"}, HTTP_HX_REQUEST="true")
    assert f'action="{url}"' in response.content.decode()  # the row swapped in still posts to its page
    assert Result.objects.get(player=player).score == 12


def test_a_player_managed_on_page_3_comes_back_to_page_3(client, alice, room):
    player = room.players.get(table=230)
    client.force_login(alice)
    url = f"/duplicate/{room.pk}/joueurs/{player.pk}/?joueurs=3"
    assert f'action="{url}"' in client.get(f"/duplicate/{room.pk}/?joueurs=3").content.decode()
    response = client.post(url, {"table": "230", "name": "Zoé"})
    assert response["Location"] == f"/duplicate/{room.pk}/?gerer=joueurs&joueurs=3#gerer-joueurs"
    assert Player.objects.get(pk=player.pk).name == "Zoé"
    refused = client.post(url, {"table": "229", "name": "Zoé"})  # table 229 is taken: the row again, on page 3
    assert refused.status_code == 400
    assert rows(refused.content.decode())[0] == "201"


def test_the_poll_brings_the_rows_of_its_page_only(client, alice, room):
    on_page_1, on_page_3 = room.players.get(table=5), room.players.get(table=230)
    round_ = room.rounds.get()
    Result.objects.bulk_create(
        [Result(round=round_, player=on_page_1, score=10), Result(round=round_, player=on_page_3, score=20)]
    )
    client.force_login(alice)
    poll = f"/duplicate/{room.pk}/coups/1/suivi/?v={room.version}&depuis=0"
    page_3 = client.get(f"{poll}&joueurs=3").content.decode()
    assert re.findall(r'<tr id="player-(\d+)"', page_3) == [str(on_page_3.pk)]
    assert "2/250 bulletins" in page_3
    assert "&amp;joueurs=3" in page_3  # the next poll asks for the same page
    page_1 = client.get(poll).content.decode()
    assert re.findall(r'<tr id="player-(\d+)"', page_1) == [str(on_page_1.pk)]


def test_the_console_reads_as_many_queries_for_250_players_as_for_3(client, alice, room, django_assert_max_num_queries):
    small = room_session(alice, count=3)
    client.force_login(alice)
    for session in (small, room):
        Result.objects.bulk_create(Result(round=session.rounds.get(), player=p, score=7) for p in session.players.all())
    queries = []
    for session in (small, room):
        with django_assert_max_num_queries(50) as captured:
            assert client.get(f"/duplicate/{session.pk}/?joueurs=2").status_code == 200
        queries.append(len(captured))
    assert queries[0] == queries[1]
