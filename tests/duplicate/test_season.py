"""A club's season (issue 16): its sessions between two dates ranked together, all of them or each player's best N,
by the mean of the percentages of the tops or by the total; its pages, exports and API, with who may use each."""

import csv
import datetime
import io
import re

import pytest
from django.contrib.auth.models import AnonymousUser
from openpyxl import load_workbook

from clubsite.models import ApiToken
from duplicate import exports
from duplicate.models import Season
from duplicate.services.players import player_update
from duplicate.services.rounds import round_add
from duplicate.services.seasons import season_ranking
from duplicate.services.sessions import session_finish
from duplicate.services.tournaments import tournament_create, tournament_ranking

from .conftest import AVIONS, VAGUE, make_session, played_session

pytestmark = pytest.mark.django_db

NO_ROOM = AnonymousUser()  # a reader with no room in a simultané: season_ranking seals none of its sessions from him


@pytest.fixture
def autumn(alice, bob, lyon, grenoble, charlie):
    """Three finished evenings of the Club de Lyon in the autumn of 2026, and what a season must leave out.

    15 Sept. (tops 44): Anne 44 (100 %), Bruno 33 (75 %), Chloé 22 (50 %), Bob 26 (59.09 %).
    13 Oct. (top 26): Anne 13 (50 %), Bruno 26 (100 %), Chloé 26 (100 %); Bob, renamed Robert, absent (forfait).
    10 Nov. (tops 44): "ANNE " 33 (75 %), Bruno 22 (50 %), Chloé 44 (100 %).
    """
    played_session(
        alice,
        lyon,
        datetime.date(2026, 9, 15),
        [VAGUE, AVIONS],
        {"Anne": (26, 18), "Bruno": (20, 13), "Chloé": (13, 9), "@bob": (26, 0)},
    )
    october = played_session(
        alice,
        lyon,
        datetime.date(2026, 10, 13),
        [VAGUE],
        {"Anne": (13,), "Bruno": (26,), "Chloé": (26,), "@bob": None},
        finish=False,
    )
    robert = october.players.get(member=bob)
    player_update(
        player=robert,
        name="Robert",
        table=robert.table,
        absent=True,
        licence=robert.licence,
        club=robert.club_name,
        series=robert.series,
    )
    session_finish(session=october)
    played_session(
        alice,
        lyon,
        datetime.date(2026, 11, 10),
        [VAGUE, AVIONS],
        {"ANNE ": (26, 7), "Bruno": (13, 9), "Chloé": (26, 18)},
    )
    # Left out: a session not finished, one before the season, another club's, a game alone against the tops.
    played_session(alice, lyon, datetime.date(2026, 12, 1), [VAGUE], {"Anne": (26,), "Bruno": (0,)}, finish=False)
    played_session(alice, lyon, datetime.date(2026, 8, 30), [VAGUE], {"Anne": (0,), "Bruno": (26,)})
    played_session(charlie, grenoble, datetime.date(2026, 10, 1), [VAGUE], {"Anne": (0,), "Bruno": (26,)})
    alone = make_session(alice, None, players=(), automatic=True, date=datetime.date(2026, 10, 2))
    round_add(session=alone, draw_text=VAGUE[0], top_text=VAGUE[1])
    session_finish(session=alone)
    return lyon


def a_season(club, **fields):
    arguments = {
        "club": club,
        "name": "Saison 2026",
        "start": datetime.date(2026, 9, 1),
        "end": datetime.date(2026, 11, 30),
    }
    return Season.objects.create(**(arguments | fields))


def ranked(season):
    return [
        (name, row.place, row.played, row.counted, row.total, row.percent)
        for name, row in season_ranking(season, reader=NO_ROOM).rows
    ]


def test_every_session_by_the_mean_of_the_percentages(autumn):
    season = a_season(autumn)
    assert [session.date.month for session in season_ranking(season, reader=NO_ROOM).sessions] == [9, 10, 11]
    # Anne and Bruno both average 75 %: they share the second place. Bob's forfait does not count for him; he is
    # named as in the first session he played.
    assert ranked(season) == [
        ("Chloé", 1, 3, 3, 92, 83.33),
        ("Anne", 2, 3, 3, 90, 75.0),
        ("Bruno", 2, 3, 3, 81, 75.0),
        ("bob", 4, 1, 1, 26, 59.09),
    ]


def test_every_session_by_the_total(autumn):
    season = a_season(autumn, ranked_by=Season.RankedBy.TOTAL)
    assert ranked(season) == [
        ("Chloé", 1, 3, 3, 92, 83.33),
        ("Anne", 2, 3, 3, 90, 75.0),
        ("Bruno", 3, 3, 3, 81, 75.0),
        ("bob", 4, 1, 1, 26, 59.09),
    ]


def test_the_best_two_by_percentage_and_by_total(autumn):
    best = a_season(autumn, counting=Season.Counting.BEST, best_of=2)
    assert ranked(best) == [
        ("Chloé", 1, 3, 2, 70, 100.0),  # 100 % twice
        ("Anne", 2, 3, 2, 77, 87.5),  # 100 % and 75 %
        ("Bruno", 2, 3, 2, 59, 87.5),  # 100 % and 75 %
        ("bob", 4, 1, 1, 26, 59.09),
    ]
    best.ranked_by = Season.RankedBy.TOTAL
    assert ranked(best) == [
        ("Anne", 1, 3, 2, 77, 87.5),  # 44 + 33
        ("Chloé", 2, 3, 2, 70, 100.0),  # 44 + 26
        ("Bruno", 3, 3, 2, 59, 87.5),  # 33 + 26
        ("bob", 4, 1, 1, 26, 59.09),
    ]


def test_the_dates_bound_the_sessions(autumn):
    october = a_season(autumn, start=datetime.date(2026, 10, 13), end=datetime.date(2026, 10, 13))
    assert ranked(october) == [
        ("Bruno", 1, 1, 1, 26, 100.0),
        ("Chloé", 1, 1, 1, 26, 100.0),
        ("Anne", 3, 1, 1, 13, 50.0),
    ]
    assert ranked(a_season(autumn, start=datetime.date(2027, 1, 1), end=datetime.date(2027, 6, 30))) == []


def test_the_season_page_and_its_links(client, autumn, bob):
    season = a_season(autumn, counting=Season.Counting.BEST, best_of=2)
    client.force_login(bob)
    assert 'href="/duplicate/saisons/"' in client.get("/duplicate/").content.decode()
    assert f'href="/duplicate/saisons/{season.pk}/"' in client.get("/duplicate/saisons/").content.decode()
    html = client.get(f"/duplicate/saisons/{season.pk}/").content.decode()
    row = r'<tr><td>(\d+)</td><td class="name">([^<]+)</td><td class="number"><strong>([\d,.]+) %</strong>'
    rows = re.findall(row, html)
    assert rows == [("1", "Chloé", "100,00"), ("2", "Anne", "87,50"), ("2", "Bruno", "87,50"), ("4", "bob", "59,09")]
    assert "2/3" in html and "ses 2 meilleures séances sont retenues" in html
    assert "Modifier la saison" not in html  # Bob is a plain member


def test_the_exports(client, autumn, bob):
    season = a_season(autumn, counting=Season.Counting.BEST, best_of=2)
    client.force_login(bob)
    url = f"/duplicate/saisons/{season.pk}/?export="
    response = client.get(f"{url}csv")
    assert response["Content-Disposition"] == 'attachment; filename="saison-2026-saison-2026.csv"'
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"), newline=""), delimiter=";"))
    assert rows == [
        ["Club", "Club de Lyon"],
        ["Saison", "Saison 2026"],
        ["Du", "01/09/2026"],
        ["Au", "30/11/2026"],
        ["Séances retenues", "Les meilleures séances de chaque joueur : 2"],
        ["Classement par", "Moyenne des pourcentages du top"],
        [],
        ["Place", "Nom", "Séances jouées", "Séances retenues", "Total", "% moyen du top"],
        ["1", "Chloé", "3", "2", "70", "100,0"],
        ["2", "Anne", "3", "2", "77", "87,5"],
        ["2", "Bruno", "3", "2", "59", "87,5"],
        ["4", "bob", "1", "1", "26", "59,09"],
    ]
    sheet = load_workbook(io.BytesIO(client.get(f"{url}xlsx").content)).active
    assert (sheet["B3"].value, sheet["B3"].number_format) == (datetime.datetime(2026, 9, 1), "DD/MM/YYYY")
    assert [cell.value for cell in sheet[9]] == [1, "Chloé", 3, 2, 70, 100]
    assert [cell.data_type for cell in sheet[12]] == ["n", "s", "n", "n", "n", "n"]
    assert sheet["F12"].value == 59.09
    assert sheet.freeze_panes == "C9"  # the title, the header, the place and the name stay in view
    assert client.get(f"{url}federation").status_code == 404


def test_permission_ladder(client, autumn, alice, bob, charlie):
    season = a_season(autumn)
    pages = [f"/duplicate/saisons/{season.pk}/", f"/duplicate/saisons/{season.pk}/?export=csv"]
    management = [f"/duplicate/saisons/{season.pk}/modifier/"]
    delete = f"/duplicate/saisons/{season.pk}/supprimer/"
    for url in ["/duplicate/saisons/", *pages, *management]:
        assert client.get(url)["Location"].startswith("/compte/connexion/")
    assert client.post(delete)["Location"].startswith("/compte/connexion/")
    client.force_login(charlie)  # another club's admin
    assert "Saison 2026" not in client.get("/duplicate/saisons/").content.decode()
    assert [client.get(url).status_code for url in pages + management] == [404, 404, 404]
    assert client.post(delete).status_code == 404
    client.force_login(bob)  # a plain member of the club reads it
    assert "Saison 2026" in client.get("/duplicate/saisons/").content.decode()
    assert [client.get(url).status_code for url in pages + management] == [200, 200, 403]
    assert client.post(delete).status_code == 403
    assert client.post("/duplicate/saisons/", season_form(autumn)).status_code == 403
    assert Season.objects.count() == 1
    client.force_login(alice)  # the club's organiser runs it
    assert [client.get(url).status_code for url in pages + management] == [200, 200, 200]
    assert client.post(delete)["Location"] == "/duplicate/saisons/"
    assert not Season.objects.exists()


def season_form(club, **fields):
    """The "Nouvelle saison" form as the page posts it, with `fields` changed."""
    return {
        "club": club.pk,
        "name": "Saison 2026-2027",
        "start": "2026-09-01",
        "end": "2027-06-30",
        "counting": "best",
        "best_of": "2",
        "ranked_by": "percent",
    } | fields


def test_an_organiser_creates_and_changes_a_season(client, autumn, alice):
    client.force_login(alice)
    response = client.post("/duplicate/saisons/", season_form(autumn))
    season = Season.objects.get()
    assert response["Location"] == f"/duplicate/saisons/{season.pk}/"
    assert (season.club, season.best, season.by_percent) == (autumn, 2, True)
    fields = season_form(autumn, name="Saison d'automne", counting="all", ranked_by="total")
    response = client.post(f"/duplicate/saisons/{season.pk}/modifier/", fields)
    season.refresh_from_db()
    assert response["Location"] == f"/duplicate/saisons/{season.pk}/"
    # Counting every session forgets how many of the best.
    assert (season.name, season.best_of, season.best, season.by_percent) == ("Saison d'automne", None, None, False)


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"end": "2026-08-31"}, "end", "La saison finit le jour où elle commence ou après."),
        ({"best_of": "0"}, "best_of", "On retient de 1 à 200 séances par joueur."),
        ({"best_of": "201"}, "best_of", "On retient de 1 à 200 séances par joueur."),
        ({"best_of": "99999999999"}, "best_of", "On retient de 1 à 200 séances par joueur."),
        ({"best_of": ""}, "best_of", "Dites combien de séances retenir pour chaque joueur."),
        ({"name": "Saison\x002026"}, "name", "Un nom de saison ne peut contenir le caractère nul."),
        ({"start": "2026-02-30"}, "start", "Saisissez une date valide."),
        ({"ranked_by": "moyenne"}, "ranked_by", "Sélectionnez un choix valide. moyenne n’en fait pas partie."),
    ],
)
def test_a_bad_season_is_refused_on_its_field(client, autumn, alice, fields, field, message):
    client.force_login(alice)
    response = client.post("/duplicate/saisons/", season_form(autumn, **fields))
    assert (response.status_code, response.context["form"].errors) == (400, {field: [message]})
    assert message in response.content.decode()
    assert not Season.objects.exists()
    season = a_season(autumn)
    response = client.post(f"/duplicate/saisons/{season.pk}/modifier/", season_form(autumn, **fields))
    assert (response.status_code, response.context["form"].errors) == (400, {field: [message]})
    assert Season.objects.get().name == "Saison 2026"


def test_a_season_may_only_be_created_for_a_club_one_organises(client, autumn, grenoble, alice):
    client.force_login(alice)
    response = client.post("/duplicate/saisons/", season_form(grenoble))
    assert response.status_code == 400
    assert not Season.objects.exists()


def test_the_api(client, autumn, bob, charlie):
    season = a_season(autumn, counting=Season.Counting.BEST, best_of=2, ranked_by=Season.RankedBy.TOTAL)
    url = f"/api/duplicate/seasons/{season.pk}/ranking"
    response = client.get(url, headers={"Authorization": f"Bearer {ApiToken.issue(bob)}"})
    assert response.json() == {
        "name": "Saison 2026",
        "start": "2026-09-01",
        "end": "2026-11-30",
        "ranked_by": "total",
        "best": 2,
        "rows": [
            {"place": 1, "name": "Anne", "sessions": 3, "counted": 2, "total": 77, "percent": 87.5},
            {"place": 2, "name": "Chloé", "sessions": 3, "counted": 2, "total": 70, "percent": 100.0},
            {"place": 3, "name": "Bruno", "sessions": 3, "counted": 2, "total": 59, "percent": 87.5},
            {"place": 4, "name": "bob", "sessions": 1, "counted": 1, "total": 26, "percent": 59.09},
        ],
    }
    assert client.get(url, headers={"Authorization": f"Bearer {ApiToken.issue(charlie)}"}).status_code == 404
    assert client.get(url).status_code == 401


def test_the_title_block_of_a_sessions_file_is_unchanged(autumn):
    """The season's title block reuses the session's: a session's file still starts with its name and date."""
    session = autumn.duplicate_sessions.order_by("date").first()
    rows = exports.build(session, "csv").decode("utf-8-sig").splitlines()
    assert rows[:3] == [f"Nom;{session.name}", "Date;30/08/2026", ""]


def test_a_name_is_the_same_player_whatever_its_spaces_and_shows_its_form_with_capitals(alice, lyon):
    played_session(alice, lyon, datetime.date(2026, 9, 15), [VAGUE], {"bruno  vidal": (26,), "alice martin": (20,)})
    played_session(alice, lyon, datetime.date(2026, 10, 13), [VAGUE], {"Bruno Vidal": (26,), "Alice Martin": (13,)})
    season = a_season(lyon)
    # Merged across their spaces and case; each shown as its first form with capitals.
    assert ranked(season) == [("Bruno Vidal", 1, 2, 2, 52, 100.0), ("Alice Martin", 2, 2, 2, 33, 63.46)]


def test_a_tournament_merges_and_names_its_players_alike(alice, lyon):
    sessions = [
        played_session(alice, lyon, datetime.date(2026, 9, 15), [VAGUE], {"alice  martin": (20,)}),
        played_session(alice, lyon, datetime.date(2026, 10, 13), [VAGUE], {"Alice Martin": (13,)}),
    ]
    tournament = tournament_create(name="Coupe", creator=alice, sessions=sessions)
    assert [(player.name, row.total) for player, row in tournament_ranking(tournament, reader=alice).rows] == [
        ("Alice Martin", 33)
    ]
