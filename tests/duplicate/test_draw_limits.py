"""Issue 23: each search of a duplicate draw's tops (the console, the API, an automatic game's "Coup suivant") counts
against a rate of draws, per account, or per address for a visitor holding a player's link: any member may open a
session of his own, and drew as many as he liked, each running the top finder up to three times. Past the rate: 429,
Retry-After and the French sentence, as /api/top says it, and no move drawn."""

import json

import pytest
from ninja.throttling import SimpleRateThrottle

from clubsite.models import ApiToken
from duplicate.games import GameRound
from duplicate.models import Round, Session

from .conftest import TOPS, make_session

pytestmark = pytest.mark.django_db

REFUSAL = "Trop de demandes en peu de temps : réessayez dans 60 s."


@pytest.fixture
def two_draws_a_minute(settings, monkeypatch):
    settings.NINJA_DEFAULT_THROTTLE_RATES = {
        **settings.NINJA_DEFAULT_THROTTLE_RATES,
        "visitor_draw": "2/min",
        "member_draw": "2/min",
    }
    # The throttles' clock stands still, so that the wait they announce is exactly the minute.
    monkeypatch.setattr(SimpleRateThrottle, "timer", staticmethod(lambda: 1_000_000.0))


@pytest.fixture
def still_clock(monkeypatch):
    monkeypatch.setattr(SimpleRateThrottle, "timer", staticmethod(lambda: 1_000_000.0))


def api_draw(client, session, token, **body):
    return client.post(
        f"/api/duplicate/sessions/{session.pk}/rounds",
        json.dumps(body),
        content_type="application/json",
        headers={"Authorization": f"Bearer {token}"},
    )


def console_draw(client, session, **form):
    return client.post(f"/duplicate/{session.pk}/coups/", form)


def test_the_api_s_third_draw_in_the_minute_is_refused_and_draws_nothing(client, alice, lyon, two_draws_a_minute):
    session = make_session(alice, lyon)
    token = ApiToken.issue(alice)
    for draw, top in TOPS[:2]:  # a typed draw's tops are searched too
        assert api_draw(client, session, token, draw=draw, top=top).status_code == 201
    response = api_draw(client, session, token)
    assert (response.status_code, response.json(), response["Retry-After"]) == (429, {"detail": REFUSAL}, "60")
    assert list(session.rounds.values_list("number", flat=True)) == [1, 2]


def test_the_console_s_third_draw_in_the_minute_is_refused_and_draws_nothing(client, alice, lyon, two_draws_a_minute):
    session = make_session(alice, lyon)
    client.force_login(alice)
    for draw, top in TOPS[:2]:
        assert console_draw(client, session, action="typed", draw=draw, top=top).status_code == 302
    response = console_draw(client, session, action="server", draw="")
    assert (response.status_code, response["Retry-After"]) == (429, "60")
    assert f'<p id="draw-error" class="error" role="alert">{REFUSAL}</p>' in response.content.decode()
    assert session.rounds.count() == 2


def test_the_console_and_the_api_count_one_member_once(client, alice, lyon, two_draws_a_minute):
    session = make_session(alice, lyon)
    token = ApiToken.issue(alice)
    assert api_draw(client, session, token, draw=TOPS[0][0], top=TOPS[0][1]).status_code == 201
    client.force_login(alice)
    assert console_draw(client, session, action="typed", draw=TOPS[1][0], top=TOPS[1][1]).status_code == 302
    assert console_draw(client, session, action="server", draw="").status_code == 429
    assert api_draw(client, session, token).status_code == 429
    assert session.rounds.count() == 2


def test_each_member_is_counted_apart(client, alice, bob, lyon, two_draws_a_minute):
    mine, his = make_session(alice, lyon), make_session(bob)
    for draw, top in TOPS[:2]:
        assert api_draw(client, mine, ApiToken.issue(alice), draw=draw, top=top).status_code == 201
    assert api_draw(client, mine, ApiToken.issue(alice)).status_code == 429
    assert api_draw(client, his, ApiToken.issue(bob)).status_code == 201


def test_a_refused_draw_leaves_the_session_as_it_was(client, alice, lyon, two_draws_a_minute):
    session = make_session(alice, lyon)
    token = ApiToken.issue(alice)
    for draw, top in TOPS[:2]:
        api_draw(client, session, token, draw=draw, top=top)
    before = list(Round.objects.values_list("number", "draw", "top"))
    assert api_draw(client, session, token, draw=TOPS[2][0]).status_code == 429
    assert list(Round.objects.values_list("number", "draw", "top")) == before
    assert session.changes.filter(field="draw").count() == 2


def test_an_automatic_game_s_next_move_is_counted_by_address_for_a_visitor(client, alice, two_draws_a_minute):
    """The player's page needs no log-in: his link is enough, so its visitor is counted by address."""
    session = make_session(alice, players=(f"@{alice.username}",), automatic=True, entry=Session.Entry.PLAYERS)
    url = f"/duplicate/joueur/{session.players.get().key}/"
    assert [client.post(url, {"action": "next"}).status_code for _ in range(2)] == [302, 302]
    response = client.post(url, {"action": "next"})
    assert (response.status_code, response["Retry-After"]) == (429, "60")
    assert f'<p class="error" role="alert">{REFUSAL}</p>' in response.content.decode()
    assert session.rounds.count() == 2
    assert client.post(url, {"action": "next"}, REMOTE_ADDR="192.0.2.7").status_code == 302


def test_a_game_s_draw_searches_nothing_and_counts_nothing(client, alice, lyon, two_draws_a_minute):
    scores = [26, 18, 13, 71]
    game = [GameRound(n, draw, top, score) for n, ((draw, top), score) in enumerate(zip(TOPS, scores, strict=True), 1)]
    session = make_session(alice, lyon, game=game)
    token = ApiToken.issue(alice)
    for number in range(1, 4):
        assert api_draw(client, session, token).status_code == 201
        client.put(
            f"/api/duplicate/sessions/{session.pk}/rounds/{number}/top",
            "{}",
            content_type="application/json",
            headers={"Authorization": f"Bearer {token}"},
        )
    assert session.rounds.count() == 3


def test_a_whole_game_drawn_at_once_stays_within_the_default_rate(client, alice, lyon, still_clock, settings):
    """An organiser's pace is one draw a move, a minute at the quickest; even a paper game of 25 moves entered by a
    script in one go, every one of them in the same minute, is never refused."""
    assert settings.NINJA_DEFAULT_THROTTLE_RATES["member_draw"] == "30/min"
    session = make_session(alice, lyon)
    token = ApiToken.issue(alice)
    for number in range(1, 26):
        response = api_draw(client, session, token)
        if response.status_code == 422 and response.json()["detail"].startswith("Fin de partie"):
            break
        assert response.status_code == 201, (number, response.content)
        top = Round.objects.get(session=session, number=number).suggestions[0]["move"]
        placed = client.put(
            f"/api/duplicate/sessions/{session.pk}/rounds/{number}/top",
            json.dumps({"top": top}),
            content_type="application/json",
            headers={"Authorization": f"Bearer {token}"},
        )
        assert placed.status_code == 200, placed.content
    assert session.rounds.count() >= 18  # a whole game
