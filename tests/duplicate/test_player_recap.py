"""A player's recap of a duplicate session (issue 15): his moves beside the tops, running totals and percentages
that agree with the ranking (solos, avertissements, penalties), the board replayed, the chart, the API, and who
may read it."""

import re

import pytest

from clubsite.models import ApiToken, Membership
from duplicate.recap import player_recap
from duplicate.services.rankings import ranking
from tests.conftest import make_member

from .conftest import make_session, play_the_evening

pytestmark = pytest.mark.django_db


def test_the_recap_counts_as_the_ranking_with_solos_a_warning_and_a_penalty(alice, lyon):
    session, bob, paul = play_the_evening(alice, lyon)
    rules = session.rules_engine
    assert (rules.solo_bonus, rules.solo_min_players, rules.duplicate_penalty, rules.warnings_before_penalty) == (
        10, 16, 5, 4,
    )  # fmt: skip
    recap = player_recap(session, bob)
    lines = [
        (row.round.number, row.move, row.score, row.gap, row.solo, row.warning, row.penalty_points, row.total)
        for row in recap.rows
    ]
    assert lines == [
        (1, "H8 VAGUE", 20, -6, False, True, 0, 20),
        (2, "4G AVIONS", 18, 0, True, True, 0, 48),  # 18 + the solo's 10
        (3, "", 13, 0, False, True, 5, 56),  # the penalty
        (4, "M6 HUE", 24, -47, False, True, 5, 75),  # the 4th avertissement
    ]
    assert [(row.tops_total, row.percent) for row in recap.rows] == [(26, 76.9), (44, 109.1), (57, 98.2), (128, 58.6)]
    ranked = {named.player.pk: named.row for named in ranking(session)[0]}
    assert recap.rows[-1].total == ranked[bob.pk].total == 75
    assert (recap.place, recap.row.solos, recap.row.penalty_points, recap.row.warnings) == (2, 1, 10, 4)
    assert ranked[paul.pk].total == 26 + 12 + 13 + 71 + 10 and ranked[paul.pk].place == 1


def test_the_replay_lays_each_top_beside_the_players_move_and_says_what_is_still_to_come(alice, lyon):
    session, bob, _paul = play_the_evening(alice, lyon)
    steps = player_recap(session, bob).steps

    def laid(board):
        return {cell["name"]: cell["new"].letter for _letter, cells in board for cell in cells if cell["new"]}

    def on_board(board):
        return {cell["name"] for _letter, cells in board for cell in cells if cell["tile"]}

    assert laid(steps[0].top_board) == {"H4": "V", "H5": "A", "H6": "G", "H7": "U", "H8": "E"}
    assert laid(steps[0].own_board) == {"H8": "V", "H9": "A", "H10": "G", "H11": "U", "H12": "E"}
    assert on_board(steps[0].top_board) == set()
    # Move 2: his move is the top, shown once; VAGUE is on the board, AVIONS laid through its V.
    assert steps[1].own_is_top and steps[1].own_board is None
    assert on_board(steps[1].top_board) == {"H4", "H5", "H6", "H7", "H8"}
    assert set(laid(steps[1].top_board)) == {"G4", "I4", "J4", "K4", "L4"}
    assert steps[2].own_board is None and not steps[2].own_is_top  # a score alone
    assert laid(steps[3].own_board) == {"M6": "H", "M7": "U", "M8": "E"}
    # After move 1: 102 tiles, 5 on the board, S and T kept on the rack.
    assert (steps[0].reliquat, len(steps[0].bag)) == ("ST", 95)
    assert steps[3].reliquat == "" and len(steps[3].bag) == 102 - 5 - 5 - 3 - 7
    assert steps[0].bag_groups[:3] == ["??", "AAAAAAAA", "BB"]


def test_the_chart_sets_his_percentage_beside_the_rooms_average_and_the_winners(alice, lyon):
    session, bob, _paul = play_the_evening(alice, lyon)
    chart = player_recap(session, bob).chart
    player, average, winner = chart.series
    assert player.label == bob.name == "bob"
    assert [player.last, winner.last] == [58.6, 103.1]  # Paul: 132 of 128
    assert winner.label == "Vainqueur : Paul"
    # Move 1: Bob 20, Paul and Rémi 26, thirteen players 10: 202 / 16 = 12.625 of 26.
    assert average.label == "Moyenne de la salle" and average.last == round(
        100 * (75 + 132 + 51 + 13 * 35) / 16 / 128, 1
    )
    assert len(player.points.split()) == 4 and len(player.dots) == 4
    assert [number for _x, number in chart.x_ticks] == [1, 2, 3, 4]
    assert chart.y_ticks[-1][1] >= 110  # his 109.1 % after move 2 stays inside the chart


def test_the_page_shows_his_moves_the_replay_and_the_chart(client, alice, lyon, bob):
    session, player, _paul = play_the_evening(alice, lyon)
    client.force_login(bob)
    response = client.get(f"/duplicate/{session.pk}/joueurs/{player.pk}/recapitulatif/")
    assert response.status_code == 200
    html = response.content.decode()
    assert '<strong class="total" id="recap-place">2</strong>' in html
    assert '<strong class="total" id="recap-total">75</strong>' in html
    assert '<strong class="total" id="recap-percent">58,6</strong>' in html
    row = re.search(r'<tr data-number="2">(.*?)</tr>', html, re.S).group(1)
    cells = [
        " ".join(re.sub(r"<[^>]+>", " ", cell).split()) for cell in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)
    ]
    assert cells == [
        "2",
        "ST+AIONX",
        "AVIONS",
        "4G",
        "18",
        "4G AVIONS",
        "18",
        "0",
        "48",
        "44",
        "109,1",
        "solo +10 avert.",
    ]
    # The replay: every move in the page, the first one shown, the others hidden until asked for.
    assert re.findall(r'data-move="(\d)"[^>]*?( hidden)?>', html) == [
        ("1", ""),
        ("2", " hidden"),
        ("3", " hidden"),
        ("4", " hidden"),
    ]
    assert html.count('class="board small-board own-board"') == 2  # moves 1 and 4: his own move beside the top
    assert "<polyline" in html and "Vainqueur : Paul" in html and 'src="/static/js/replay.js"' in html
    # ?coup=3 opens the replay on move 3 (the buttons' links without JavaScript).
    html = client.get(f"/duplicate/{session.pk}/joueurs/{player.pk}/recapitulatif/?coup=3").content.decode()
    assert re.findall(r'data-move="(\d)"[^>]*?( hidden)?>', html)[2] == ("3", "")
    assert 'name="coup" value="2"' in html and 'name="coup" value="4"' in html
    # Past the last move, the last one (issue 15's trial: ?coup=8 opened move 1 silently).
    html = client.get(f"/duplicate/{session.pk}/joueurs/{player.pk}/recapitulatif/?coup=8").content.decode()
    assert re.findall(r'data-move="(\d)"[^>]*?( hidden)?>', html)[3] == ("4", "")


def test_during_the_session_the_recap_counts_the_moves_closed_only(client, alice, lyon):
    session, bob, _paul = play_the_evening(alice, lyon, finish=False)
    recap = player_recap(session, bob)
    assert [row.round.number for row in recap.rows] == [1, 2, 3]  # move 4 closes at the next draw
    assert (recap.rows[-1].total, recap.closed) == (56, 3)
    assert recap.chart.series[2].label == "En tête : bob"  # 56 against Paul's 51
    client.force_login(alice)
    html = client.get(f"/duplicate/{session.pk}/joueurs/{bob.pk}/recapitulatif/").content.decode()
    assert "Séance en cours : le récapitulatif compte 3 coups clos" in html


def test_who_reads_a_players_recap(client, alice, bob, charlie, lyon, grenoble, give_role):
    """His organisers and the member linked to him; nobody else, not even another member of the club or another
    player of the session, who are answered as if it did not exist. An anonymous visitor is sent to log in."""
    session, player, paul = play_the_evening(alice, lyon, moves=1)
    dora = give_role(make_member("dora"), Membership.Role.MEMBER)
    paul.member = dora
    paul.save(update_fields=["member"])
    url = f"/duplicate/{session.pk}/joueurs/{player.pk}/recapitulatif/"
    assert client.get(url)["Location"].startswith("/compte/connexion/")
    for outsider in (charlie, dora):
        client.force_login(outsider)
        assert client.get(url).status_code == 404
    client.force_login(dora)
    assert client.get(f"/duplicate/{session.pk}/joueurs/{paul.pk}/recapitulatif/").status_code == 200
    for reader in (bob, alice):
        client.force_login(reader)
        assert client.get(url).status_code == 200
    # Another session's player, or one that does not exist, under this session's id.
    other = make_session(alice, lyon, players=["Zoé"]).players.get()
    assert client.get(f"/duplicate/{session.pk}/joueurs/{other.pk}/recapitulatif/").status_code == 404
    assert client.get(f"/duplicate/{session.pk}/joueurs/987654321/recapitulatif/").status_code == 404


def test_the_recap_is_reached_from_the_sessions_recap_and_from_his_list(client, alice, bob, lyon):
    session, player, paul = play_the_evening(alice, lyon, moves=1)
    own = f'href="/duplicate/{session.pk}/joueurs/{player.pk}/recapitulatif/"'
    pauls = f'href="/duplicate/{session.pk}/joueurs/{paul.pk}/recapitulatif/"'
    client.force_login(bob)
    html = client.get(f"/duplicate/{session.pk}/recapitulatif/").content.decode()
    assert own in html and pauls not in html  # his own name only: the others' recaps are not his
    assert own in client.get("/duplicate/").content.decode()
    client.force_login(alice)
    html = client.get(f"/duplicate/{session.pk}/recapitulatif/").content.decode()
    assert own in html and pauls in html


def api(client, url, user=None, token=None):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    if user is not None:
        client.force_login(user)
    return client.get(url, headers=headers)


def test_the_api_gives_the_same_numbers_to_whom_may_read_them(client, alice, bob, charlie, lyon, grenoble, give_role):
    session, player, paul = play_the_evening(alice, lyon)
    url = f"/api/duplicate/sessions/{session.pk}/players/{player.pk}/recap"
    response = api(client, url, token=ApiToken.issue(alice))
    assert response.status_code == 200
    body = response.json()
    assert (body["place"], body["player"], body["name"], body["finished"]) == (2, player.pk, "bob", True)
    assert body["rows"][0] == {
        "number": 1,
        "draw": "VAGUEST",
        "top": "H4 VAGUE",
        "top_score": 26,
        "move": "H8 VAGUE",
        "score": 20,
        "gap": -6,
        "solo": False,
        "solo_points": 0,
        "warning": True,
        "penalty": 0,
        "total": 20,
        "tops_total": 26,
        "percent": 76.9,
    }
    assert [(r["move"], r["score"], r["gap"], r["total"], r["percent"]) for r in body["rows"][1:]] == [
        ("4G AVIONS", 18, 0, 48, 109.1),
        (None, 13, 0, 56, 98.2),
        ("M6 HUE", 24, -47, 75, 58.6),
    ]
    assert api(client, url, user=bob).status_code == 200  # his own, through his logged-in session
    client.logout()
    assert api(client, url).status_code == 401  # no credentials, as everywhere in the API
    for refused in (charlie, paul_member(paul, give_role)):
        response = api(client, url, token=ApiToken.issue(refused))
        assert (response.status_code, response.json()) == (404, {"detail": "Joueur introuvable."})
    other = make_session(alice, lyon, players=["Zoé"]).players.get()
    token = ApiToken.issue(alice)
    assert api(client, f"/api/duplicate/sessions/{session.pk}/players/{other.pk}/recap", token=token).status_code == 404
    assert api(client, f"/api/duplicate/sessions/{session.pk}/players/abc/recap", token=token).status_code == 422


def paul_member(paul, give_role):
    """Another player of the session, a plain member of Lyon's club, linked to his own seat."""
    dora = give_role(make_member("dora"), Membership.Role.MEMBER)
    paul.member = dora
    paul.save(update_fields=["member"])
    return dora


def test_before_any_move_is_closed_the_recap_says_so(client, alice, lyon):
    session, bob, _paul = play_the_evening(alice, lyon, moves=1, finish=False)
    client.force_login(alice)
    html = client.get(f"/duplicate/{session.pk}/joueurs/{bob.pk}/recapitulatif/").content.decode()
    assert "Aucun coup compté pour l'instant." in html and "<svg" not in html and "data-move=" not in html
    body = client.get(f"/api/duplicate/sessions/{session.pk}/players/{bob.pk}/recap").json()
    assert (body["rows"], body["finished"]) == ([], False)
