"""FISF §5's sanctions through a real session (issue 22): a penalty on a small score, a zero ("bulle"), a late
player, one avertissement a move. Every figure the product gives (the ranking, the player's recap, the game's recap
and sheet, the CSV, XLSX and federation files, a tournament and a season) counts the same total."""

import csv
import datetime
import io
import json
import re

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from clubsite.models import ApiToken
from duplicate.errors import DuplicateError
from duplicate.models import Season
from duplicate.recap import player_recap
from duplicate.services import rankings
from duplicate.services.players import players_add
from duplicate.services.results import result_mark, result_set
from duplicate.services.rounds import round_add
from duplicate.services.seasons import season_ranking
from duplicate.services.sessions import session_finish, session_reopen
from duplicate.services.tournaments import tournament_create, tournament_ranking
from scoring.models import RuleSet

from .conftest import AVIONS, VAGUE, make_session, played_session
from .test_simultanes import make_simultane, play, room

pytestmark = pytest.mark.django_db

SEXE = ("TX+EEHSU", "L4 SEXE")  # 13, after VAGUE (26) and AVIONS (18)
FIRST = 5  # the first player's row in a session's CSV and XLSX, below the title, the header and the tops


@pytest.fixture
def evening(alice, lyon):
    """Claire (table 10) writes 3 on move 1 with the arbiter's −5 (a right score, its place wrong), then 18 and 13:
    0 + 18 + 13 = 31 (29 if the 3 counted −2). Denis (table 11) tops move 1, writes 9 with −5 on move 2 (4), and
    plays a word the draw does not allow on move 3 (0). Zoé (table 12) comes after move 2: 0, 0, then 13."""
    session = make_session(alice, lyon, players=[(10, "Claire"), (11, "Denis")])
    claire, denis = session.players.order_by("table")
    penalty = session.rules_engine.duplicate_penalty
    first = round_add(session=session, draw_text=VAGUE[0], top_text=VAGUE[1])
    result_set(round_=first, player=claire, score=3)
    result_mark(round_=first, player=claire, penalty=penalty)
    result_set(round_=first, player=denis, move="H4 VAGUE")
    second = round_add(session=session, draw_text=AVIONS[0], top_text=AVIONS[1])
    result_set(round_=second, player=claire, move="4G AVIONS")
    result_set(round_=second, player=denis, score=9)
    result_mark(round_=second, player=denis, penalty=penalty)
    (zoe,) = players_add(session=session, rows=[(12, "Zoé")])
    third = round_add(session=session, draw_text=SEXE[0], top_text=SEXE[1])
    result_set(round_=third, player=claire, score=13)
    result_set(round_=third, player=denis, move="L4 SEXY")
    result_set(round_=third, player=zoe, move="L4 SEXE")
    session_finish(session=session)
    return session


def test_a_penalty_on_a_small_score_counts_zero_in_the_ranking_and_the_recaps(client, alice, evening):
    rows, tops_total = rankings.ranking(evening)
    assert tops_total == 57
    assert [
        (n.player.name, n.row.total, n.row.gap, n.row.percent, n.row.place, n.row.penalty_points) for n in rows
    ] == [
        ("Claire", 31, -26, 54.4, 1, 3),
        ("Denis", 30, -27, 52.6, 2, 5),
        ("Zoé", 13, -44, 22.8, 3, 0),
    ]
    claire = rows[0].player
    recap = player_recap(evening, claire)
    assert [(row.score, row.penalty_points, row.total) for row in recap.rows] == [(3, 3, 0), (18, 0, 18), (13, 0, 31)]
    assert (recap.row.total, recap.row.penalty_points, recap.place) == (31, 3, 1)
    late = player_recap(evening, rows[2].player)  # Zoé, added once move 2 was played
    assert [(row.score, row.total) for row in late.rows] == [(None, 0), (None, 0), (13, 13)]
    client.force_login(alice)
    html = client.get(f"/duplicate/{evening.pk}/recapitulatif/").content.decode()
    assert '<td class="number">3 <small>(−3)</small></td>' in html  # the points taken, not the arbiter's 5
    assert "<td>−3</td><td><strong>31</strong></td><td>-26</td>" in html
    sheet = client.get(f"/duplicate/{evening.pk}/feuille/").content.decode()
    assert re.findall(r'<small class="marks">([^<]*)</small>', sheet) == ["−3", "solo ", "solo ", "−5"]


def test_the_session_files_count_the_same_total(client, alice, evening):
    client.force_login(alice)
    content = client.get(f"/duplicate/{evening.pk}/export/csv/").content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(content, newline=""), delimiter=";"))
    assert rows[FIRST][:13] == ["1", "10", "Claire", "", "", "", "31", "-26", "54,4", "1", "", "-3", ""]
    assert rows[FIRST][13:] == ["3", "pén. 3", "18", "solo", "13", ""]
    assert rows[FIRST + 1][6] == "30" and rows[FIRST + 1][13:] == ["26", "solo", "9", "pén. 5", "0", ""]
    assert rows[FIRST + 2][6] == "13" and rows[FIRST + 2][13:] == ["", "", "", "", "13", ""]  # Zoé came late
    sheet = load_workbook(io.BytesIO(client.get(f"/duplicate/{evening.pk}/export/xlsx/").content)).active
    assert [sheet.cell(row=FIRST + 1, column=c).value for c in (3, 7, 8, 12, 14, 15)] == [
        "Claire", 31, -26, -3, 3, "pén. 3",
    ]  # fmt: skip
    federation = client.get(f"/duplicate/{evening.pk}/export/federation/").content.decode("iso-8859-1")
    assert list(csv.reader(io.StringIO(federation))) == [
        ["10", "Claire", "31"],
        ["11", "Denis", "30"],
        ["12", "Zoé", "13"],
    ]


def test_an_arbiters_zero_is_noted_in_the_session_files(client, alice, evening):
    """Third trial: the recap marks an arbiter's zero « z », the CSV and the XLSX left its notes cell empty."""
    session_reopen(session=evening)
    claire = evening.players.get(name="Claire")
    result_mark(round_=evening.rounds.get(number=3), player=claire, zero=True)
    client.force_login(alice)
    content = client.get(f"/duplicate/{evening.pk}/export/csv/").content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(content, newline=""), delimiter=";"))
    claire_row = next(row for row in rows[FIRST:] if row[2] == "Claire")
    assert claire_row[13:] == ["3", "pén. 3", "18", "solo", "0", "zéro"]
    sheet = load_workbook(io.BytesIO(client.get(f"/duplicate/{evening.pk}/export/xlsx/").content)).active
    line = next(row for row in sheet.iter_rows(min_row=FIRST + 1, values_only=True) if row[2] == "Claire")
    assert line[13:] == (3, "pén. 3", 18, "solo", 0, "zéro")
    assert "<sup>z</sup>" in client.get(f"/duplicate/{evening.pk}/recapitulatif/").content.decode()


def test_an_arbiters_zero_is_noted_in_the_combined_rankings_files(client, comite, eve, lyon, alice):
    """As in a session's files: the recap's « z », « zéro » in the move's notes."""
    simultane = make_simultane(comite, eve)
    lyon_room = room(simultane, lyon, alice, [("Ann", "A"), ("Ben", "B")])
    play(lyon_room, [(26, 20)], finish=False)
    ben = lyon_room.players.get(name="Ben")
    result_mark(round_=lyon_room.rounds.get(number=1), player=ben, zero=True)
    session_finish(session=lyon_room)
    client.force_login(eve)
    url = reverse("duplicate:simultane_ranking", args=[simultane.pk])
    lines = client.get(url, {"export": "csv"}).content.decode("utf-8-sig").splitlines()
    assert lines[8] == "2;Ben;;Club de Lyon;B;Simultané des Alpes · Club de Lyon;0;-26;0,0;0;;0;zéro"


def test_a_tournament_and_a_season_count_the_same_total(client, alice, lyon, evening):
    other = played_session(alice, lyon, datetime.date(2026, 11, 26), [VAGUE], {"Claire": (26,), "Denis": (26,)})
    tournament = tournament_create(name="Coupe", creator=alice, sessions=[evening, other])
    ranking = tournament_ranking(tournament, reader=alice)
    assert [(player.name, row.total, row.session_totals) for player, row in ranking.rows] == [
        ("Claire", 57, (31, 26)),
        ("Denis", 56, (30, 26)),
        ("Zoé", 13, (13, 0)),
    ]
    client.force_login(alice)
    federation = client.get(f"/duplicate/tournois/{tournament.pk}/?export=federation").content.decode("iso-8859-1")
    assert list(csv.reader(io.StringIO(federation)))[0] == ["1", "Claire", "57"]
    season = Season.objects.create(
        club=lyon, name="Automne", start=datetime.date(2026, 11, 1), end=datetime.date(2026, 11, 30),
        ranked_by=Season.RankedBy.TOTAL,
    )  # fmt: skip
    assert [(name, row.total) for name, row in season_ranking(season, reader=alice).rows][:2] == [
        ("Claire", 57),
        ("Denis", 56),
    ]


def test_the_zeros_of_the_reglement_count_zero(alice, lyon):
    """A bulle: no bulletin, a word the arbiter finds invalid (his "0"), a move off the grid, a letter not in the
    draw. Each counts 0, and a penalty or an avertissement on it takes nothing more."""
    session = make_session(alice, lyon, players=["Anne", "Bruno", "Chloé", "Denis", "Émile"])
    anne, bruno, chloe, denis, _emile = session.players.order_by("table")
    first = round_add(session=session, draw_text=VAGUE[0], top_text=VAGUE[1])
    result_set(round_=first, player=anne, move="H4 VAGUE")
    result_set(round_=first, player=bruno, score=26)
    result_mark(round_=first, player=bruno, zero=True, penalty=session.rules_engine.duplicate_penalty)
    chloe_result = result_set(round_=first, player=chloe, move="A1 VAGUE")
    denis_result = result_set(round_=first, player=denis, move="H4 VAGUEZ")
    assert (chloe_result.score, denis_result.score) == (0, 0) and chloe_result.reason and denis_result.reason
    totals = {named.player.name: named.row.total for named in rankings.ranking(session)[0]}
    assert totals == {"Anne": 26, "Bruno": 0, "Chloé": 0, "Denis": 0, "Émile": 0}


def test_a_move_has_one_avertissement_at_most(session):
    """Four marks on one move are one avertissement: the next three moves' avertissements are the 2nd to the 4th,
    the 4th costing 5 on a move of 10."""
    player = session.players.first()
    rounds = [round_add(session=session, draw_text=VAGUE[0], top_text=VAGUE[1])]
    rounds += [session.rounds.create(number=number, draw="ABCDEFG", top="", top_score=10) for number in (2, 3, 4)]
    for round_ in rounds:
        result_set(round_=round_, player=player, score=10)
    for _twice in range(4):
        result_mark(round_=rounds[0], player=player, warning=True)
    for round_ in rounds[1:]:
        result_mark(round_=round_, player=player, warning=True)
    row = rankings.ranking(session)[0][0].row
    assert (row.warnings, row.penalty_points, row.total) == (4, 5, 10 * 4 - 5)


@pytest.fixture
def fifty_points_at_most():
    """The tournament rules as an admin may set them: a penalty takes 50 points at most on one move."""
    rules = RuleSet.objects.get(code="tournoi")
    rules.max_penalty = 50
    rules.save()
    return rules


def _penalty_refusals(client, session, alice, points: int) -> list[tuple]:
    """A penalty of `points` on move 1's second player through the service, the arbiter's form and the API: each
    refusal (status, sentence), nothing written."""
    round_ = session.rounds.get(number=1)
    player = session.players.get(table=2)
    with pytest.raises(DuplicateError) as caught:
        result_mark(round_=round_, player=player, penalty=points)
    client.force_login(alice)
    form = client.post(f"/duplicate/{session.pk}/coups/1/resultats/{player.pk}/", {"score": "18", "penalty": points})
    api = client.patch(
        f"/api/duplicate/sessions/{session.pk}/rounds/1/results/{player.pk}",
        json.dumps({"penalty": points}),
        content_type="application/json",
        headers={"Authorization": f"Bearer {ApiToken.issue(alice)}"},
    )
    assert not round_.results.exists()
    return [str(caught.value), (form.status_code, _error_of(form)), (api.status_code, api.json()["detail"])]


def _error_of(response) -> str:
    return re.search(r"Une pénalité va de 0 à \d+ points\.", response.content.decode())[0]


def test_a_penalty_is_bounded_by_the_sessions_rule_set(client, alice, lyon, fifty_points_at_most):
    session = make_session(alice, lyon)
    round_add(session=session, draw_text=VAGUE[0], top_text=VAGUE[1])
    sentence = "Une pénalité va de 0 à 50 points."
    assert _penalty_refusals(client, session, alice, 60) == [sentence, (400, sentence), (422, sentence)]
    result_mark(round_=session.rounds.get(), player=session.players.get(table=2), penalty=50)
    assert session.rounds.get().results.get().penalty == 50


def test_a_penalty_takes_100_points_at_most_by_default(client, alice, lyon):
    assert RuleSet.objects.get(code="tournoi").max_penalty == 100
    session = make_session(alice, lyon)
    round_add(session=session, draw_text=VAGUE[0], top_text=VAGUE[1])
    sentence = "Une pénalité va de 0 à 100 points."
    assert _penalty_refusals(client, session, alice, 101) == [sentence, (400, sentence), (422, sentence)]
    result_mark(round_=session.rounds.get(), player=session.players.get(table=2), penalty=100)
    assert session.rounds.get().results.get().penalty == 100
