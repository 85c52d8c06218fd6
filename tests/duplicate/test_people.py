"""Issue 16, "people, not only names": a player line carries a licence, a club and a series, a member's profile
gives his licence, and the exports print them with the session's name and date, the tops and what counted on each
move; the federation files give the place, players tied sharing it."""

import csv
import datetime
import io

import pytest
from openpyxl import load_workbook

from clubsite.models import Profile
from duplicate import exports
from duplicate.errors import DuplicateError
from duplicate.player_lines import PlayerLine
from duplicate.services.players import player_update
from duplicate.services.results import result_mark, result_set
from duplicate.services.rounds import round_add
from duplicate.services.tournaments import tournament_create, tournament_ranking
from tests.conftest import accept_invitations

from .conftest import make_session, play_the_evening

pytestmark = pytest.mark.django_db


def test_a_member_brings_his_licence_once_linked(alice, bob, lyon):
    Profile.objects.create(user=bob, licence="B4242")
    session = make_session(alice, lyon, players=[(1, "@bob"), PlayerLine(2, "@alice", "999")], accepted=False)
    assert list(session.players.values_list("licence", flat=True)) == ["", "999"]  # waiting for Bob's answer
    accept_invitations(session.players.all())
    assert list(session.players.values_list("name", "licence")) == [("bob", "B4242"), ("alice", "999")]


@pytest.fixture
def evening(alice, bob, lyon):
    """Anne and Bruno share move 1's top (26); Anne alone tops move 2 (a solo, no bonus under 16 players), Bruno
    an avertissement there, Bob (licence from his profile) a 5-point penalty."""
    Profile.objects.create(user=bob, licence="B4242")
    session = make_session(
        alice,
        lyon,
        players=[PlayerLine(1, "Anne", "123456", "Lyon", "A"), PlayerLine(2, "Bruno", "", "Paris", "B"), (3, "@bob")],
    )
    anne, bruno, bob_seat = session.players.order_by("table")
    first = round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    for player, score in ((anne, 26), (bruno, 26), (bob_seat, 20)):
        result_set(round_=first, player=player, score=score)
    second = round_add(session=session, draw_text="ST+AIONX", top_text="4G AVIONS")
    for player, score in ((anne, second.top_score), (bruno, 10), (bob_seat, 10)):
        result_set(round_=second, player=player, score=score)
    result_mark(round_=second, player=bruno, warning=True)
    result_mark(round_=second, player=bob_seat, penalty=5)
    return session


def test_the_csv_file_has_title_tops_people_and_marks(client, alice, evening):
    top = evening.rounds.get(number=2).top_score
    client.force_login(alice)
    content = client.get(f"/duplicate/{evening.pk}/export/csv/").content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(content, newline=""), delimiter=";"))
    assert rows[:3] == [["Nom", "Mardi soir"], ["Date", "24/11/2026"], []]
    assert rows[3][:7] == ["Place", "Table", "Nom", "Licence", "Club", "Série", "Total"]
    assert rows[3][13:] == ["Coup 1", "Coup 1 : notes", "Coup 2", "Coup 2 : notes"]
    assert rows[4][0] == "Tops" and rows[4][6] == str(26 + top) and rows[4][13:] == ["26", "", str(top), ""]
    assert [row[:7] + row[13:] for row in rows[5:]] == [
        ["1", "1", "Anne", "123456", "Lyon", "A", str(26 + top), "26", "", str(top), "solo"],
        ["2", "2", "Bruno", "", "Paris", "B", "36", "26", "", "10", "avert."],
        ["3", "3", "bob", "B4242", "", "", "25", "20", "", "10", "pén. 5"],
    ]


def test_the_xlsx_file_keeps_numbers_and_freezes_its_header(client, alice, evening):
    client.force_login(alice)
    sheet = load_workbook(io.BytesIO(client.get(f"/duplicate/{evening.pk}/export/xlsx/").content)).active
    assert (sheet["A1"].value, sheet["B1"].value) == ("Nom", "Mardi soir")
    assert sheet["B2"].value == datetime.datetime(2026, 11, 24)  # a date, not a text
    assert sheet.freeze_panes == "D6"
    assert [sheet.cell(row=6, column=c).value for c in (1, 2, 3, 4, 14, 15, 17)] == [
        1,
        1,
        "Anne",
        "123456",
        26,
        None,
        "solo",
    ]
    assert all(sheet.cell(row=row, column=7).data_type == "n" for row in range(5, 9))  # the tops and the totals
    assert sheet["I7"].data_type == "n" and isinstance(sheet["I7"].value, float)  # a percent
    assert sheet.column_dimensions["C"].width >= len("Bruno") + 2


def test_the_federation_files_give_the_place_ties_sharing_it(client, alice, lyon, evening):
    client.force_login(alice)
    federation = client.get(f"/duplicate/{evening.pk}/export/federation/").content.decode("iso-8859-1")
    assert [row[:2] for row in csv.reader(io.StringIO(federation))] == [["1", "Anne"], ["2", "Bruno"], ["3", "bob"]]

    def tied_evening():
        session = make_session(alice, lyon, players=[(1, "Anne"), (2, "Bruno"), (3, "Chloé")])
        move = round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
        for player, score in zip(session.players.order_by("table"), (26, 26, 20), strict=True):
            result_set(round_=move, player=player, score=score)
        return session

    tournament = tournament_create(name="Coupe", creator=alice, sessions=[tied_evening(), tied_evening()])
    content = client.get(f"/duplicate/tournois/{tournament.pk}/?export=federation").content.decode("iso-8859-1")
    assert list(csv.reader(io.StringIO(content))) == [["1", "Anne", "52"], ["1", "Bruno", "52"], ["3", "Chloé", "40"]]
    ranking = tournament_ranking(tournament, reader=alice)
    assert exports.tournament_build(ranking, "csv", "Coupe").decode("utf-8-sig").splitlines()[:2] == [
        "Nom;Coupe",
        "Date;24/11/2026",
    ]


# Correcting a player after the session is created: his licence, club and series with his name and table.


def _edit(client, player, **fields):
    form = {"name": player.name, "table": player.table or "", "licence": "", "club": "", "series": ""} | fields
    return client.post(f"/duplicate/{player.session_id}/joueurs/{player.pk}/", form)


def test_the_service_corrects_licence_club_and_series_and_keeps_each_in_the_history(alice, lyon):
    session = make_session(alice, lyon, players=[PlayerLine(1, "Anne", "123456", "Lyon", "A")])
    anne = session.players.get()
    player_update(
        player=anne, name="Anne", table=1, absent=False, licence=" 654321 ", club="Lyon Bellecour", series="", by=alice
    )
    anne.refresh_from_db()
    assert (anne.licence, anne.club_name, anne.series) == ("654321", "Lyon Bellecour", "")
    changes = session.changes.filter(player=anne, user=alice).order_by("pk").values_list("field", "old", "new")
    assert list(changes)[-3:] == [
        ("player", "licence 123456", "licence 654321"),
        ("player", "club Lyon", "club Lyon Bellecour"),
        ("player", "série A", "série"),
    ]


def test_the_same_values_again_add_nothing_to_the_history(alice, lyon):
    session = make_session(alice, lyon, players=[PlayerLine(1, "Anne", "123456", "Lyon", "A")])
    anne = session.players.get()
    before = session.changes.count()
    player_update(player=anne, name="Anne", table=1, absent=False, licence="123456", club="Lyon", series="A")
    assert session.changes.count() == before


def test_the_arbiter_edits_them_from_the_session_page(client, alice, lyon):
    session = make_session(alice, lyon, players=[(1, "Anne"), (2, "Bruno")])
    bruno = session.players.get(table=2)
    client.force_login(alice)
    response = _edit(client, bruno, table="7", licence="B4242", club="Paris Rive Gauche", series="N2")
    assert response.status_code == 302
    bruno.refresh_from_db()
    assert (bruno.table, bruno.licence, bruno.club_name, bruno.series) == (7, "B4242", "Paris Rive Gauche", "N2")
    page = client.get(f"/duplicate/{session.pk}/").content.decode()
    assert 'value="B4242"' in page and 'value="Paris Rive Gauche"' in page and 'value="N2"' in page
    history = client.get(f"/duplicate/{session.pk}/historique/").content.decode()
    assert "licence B4242" in history and "club Paris Rive Gauche" in history


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"licence": "12-34"}, "Une licence ne compte que des lettres et des chiffres, sans espace."),
        ({"licence": "1" * 21}, "Une licence compte 20 lettres et chiffres au plus."),
        ({"licence": "12\x0034"}, "Une licence ne compte que des lettres et des chiffres, sans espace."),
        ({"club": "C" * 81}, "Un nom de club compte 80 caractères au plus."),
        ({"club": "Ly\x00on"}, "Un nom de club ne peut contenir le caractère nul."),
        ({"series": "ABCDEFGHIJK"}, "Une série compte 10 caractères au plus."),
        ({"series": "N\x001"}, "Une série ne peut contenir le caractère nul."),
    ],
)
def test_a_bad_value_is_refused_in_the_players_row_and_nothing_changes(client, alice, lyon, fields, message):
    session = make_session(alice, lyon, players=[PlayerLine(1, "Anne", "123456", "Lyon", "A")])
    anne = session.players.get()
    before = session.changes.count()
    client.force_login(alice)
    response = _edit(
        client, anne, **({"name": "Anne Martin", "licence": "123456", "club": "Lyon", "series": "A"} | fields)
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert f'<p id="edit-{anne.pk}-error" class="error" role="alert">{message}</p>' in page.replace("&#x27;", "'")
    assert 'value="Anne Martin"' in page  # what was typed stays in his row
    anne.refresh_from_db()
    assert (anne.name, anne.licence, anne.club_name, anne.series) == ("Anne", "123456", "Lyon", "A")
    assert session.changes.count() == before


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"licence": "AB 12"}, "La licence « AB 12 » ne compte que des lettres et des chiffres (20 au plus)."),
        ({"club": "C" * 81}, "Un nom de club compte 80 caractères au plus, sans caractère nul."),
        ({"series": "N\x001"}, "Une série compte 10 caractères au plus, sans caractère nul."),
    ],
)
def test_the_service_refuses_what_the_columns_would_not_keep(alice, lyon, fields, message):
    session = make_session(alice, lyon, players=[PlayerLine(1, "Anne", "123456", "Lyon", "A")])
    anne = session.players.get()
    values = {"licence": "123456", "club": "Lyon", "series": "A"} | fields
    with pytest.raises(DuplicateError) as refused:
        player_update(player=anne, name="Anne", table=1, absent=False, **values)
    assert str(refused.value) == message
    anne.refresh_from_db()
    assert (anne.licence, anne.club_name, anne.series) == ("123456", "Lyon", "A")


def test_only_the_sessions_organisers_edit_a_player(client, alice, bob, lyon):
    session = make_session(alice, lyon, players=[PlayerLine(1, "Anne", "123456")])
    anne = session.players.get()
    client.force_login(bob)
    assert _edit(client, anne, licence="999").status_code in (403, 404)
    anne.refresh_from_db()
    assert anne.licence == "123456"


def test_a_refused_list_comes_back_whole_beside_its_reasons(client, alice, lyon):
    """On the new session's form each bad line is its own error; on the session's page « Ajouter des joueurs » keeps
    the pasted list, opened, its reasons under it, and adds nobody."""
    from tests.duplicate.test_views import new_session_form

    client.force_login(alice)
    response = client.post("/duplicate/nouvelle/", new_session_form(club=lyon.pk, players="1;Anne\n1;Bruno\nx;Yves"))
    html = response.content.decode()
    assert response.status_code == 400
    assert html.count('class="error" role="alert"') == 2
    assert "Ligne 2 : la table 1 est déjà celle de la ligne 1." in html
    assert "Ligne 3 : « x » n&#x27;est pas un numéro de table." in html

    session = make_session(alice, lyon, players=[(1, "Anne")])
    pasted = "2;Bruno\n2;Claire\n3;Denis;12-34"
    response = client.post(f"/duplicate/{session.pk}/joueurs/", {"players": pasted})
    html = response.content.decode()
    assert response.status_code == 400
    assert f">{pasted}</textarea>" in html
    assert (
        '<p id="players-error" class="error" role="alert">Ligne 2 : la table 2 est déjà celle de la ligne 1.<br>'
        "Ligne 3 : la licence « 12-34 » ne compte que des lettres et des chiffres (20 au plus).</p>"
    ) in html
    assert list(session.players.values_list("name", flat=True)) == ["Anne"]


def test_the_avertissement_that_costs_says_so_in_the_exports(alice, bob, lyon):
    """Trial of issue 16: four « avert. » in a row and a total 5 below the scores' sum, nothing saying why. Bob's
    4th avertissement costs 5 (tournament rules, 3 min a move); his move 3 also has a 5-point penalty."""
    session, bob_seat, _paul = play_the_evening(alice, lyon)
    header, *rows = exports.table(session)
    bob_row = next(row for row in rows if row[2] == bob_seat.name)
    assert bob_row[13:] == [20, "avert.", 18, "solo, avert.", 13, "avert., pén. 5", 24, "avert. −5"]
    assert bob_row[6] == 20 + 18 + 13 + 24 + 10 - 5 - 5
