"""Results files of a session: CSV and XLSX rankings, and the federation's results file (facts §4: a latin-1
CSV, one line per table, `"table","name","total"`).

Every CSV cell goes through `spreadsheet_cell`, and every XLSX text is a typed text cell, so that a name typed by
anyone never becomes a formula in the spreadsheet that opens the file (CSV injection)."""

import csv
import datetime
import io
import re

from django.http import HttpResponse
from django.utils.text import slugify
from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter

from scoring.engine.ranking import rank, solos_by_move

from .models import Season, Session
from .services import ranking_input

KINDS = {
    "csv": ("text/csv; charset=utf-8", "csv"),
    "xlsx": ("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "xlsx"),
    "federation": ("text/csv; charset=iso-8859-1", "csv"),
}
# Each row adds up: the scores of the moves, plus the solos' bonus, minus the penalties (avertissements beyond
# the threshold included) make the total. Each move has its score, then what counted on it (a solo, an
# avertissement, a penalty) in the column beside.
HEADER = [
    "Place",
    "Table",
    "Nom",
    "Licence",
    "Club",
    "Série",
    "Total",
    "Écart",
    "% du top",
    "Solos",
    "Bonus solos",
    "Pénalités",
    "Absent",
]
TOTAL_COLUMN = HEADER.index("Total")
# Above the header: the session's name, its date, an empty line.
TITLE_ROWS = 3

# What makes a spreadsheet read a cell as a formula: OWASP's = + - @ tab and carriage return, the full-width
# signs some spreadsheets read as well, any other control character, and the same after leading spaces.
FORMULA_START = re.compile(r" *[=+\-@＝＋－＠\x00-\x1f]")


def spreadsheet_cell(value):
    """`value` as a cell of an exported file: a text that a spreadsheet would run as a formula gets a leading
    apostrophe and is shown as typed; numbers (a gap of -13) and other texts are left alone."""
    if isinstance(value, str) and FORMULA_START.match(value):
        return "'" + value
    return value


def table(session: Session, progress=None) -> list[list]:
    """The ranking as rows: place, table, name, licence, club, series, total, gap, percent, solos, their bonus,
    the penalties (negative), absent, then for each move the score and what counted on it (`_marks`). The first
    row gives the tops, each move's and their sum. An empty cell is None.
    `progress(done, total)` is called as rows are built, for a long export run by a worker."""
    figures = ranking_input(session)
    rows = rank(**figures.engine_arguments())
    solos = solos_by_move(figures.tops, figures.scores)
    out = [["Tops", None, None, None, None, None, sum(figures.tops), *[None] * 6]]
    for top in figures.tops:
        out[0] += [top, None]
    for done, row in enumerate(rows, start=1):
        player = figures.players[row.player]
        line = [row.place, player.table, player.name, player.licence, player.club_name, player.series, row.total]
        line += [row.gap, row.percent, row.solos, row.solo_points or None, -row.penalty_points or None]
        line.append("oui" if player.absent else None)
        for move, score in enumerate(figures.scores[row.player]):
            line += [
                score,
                _marks(
                    solos[move] == row.player, figures.warnings[row.player][move], figures.penalties[row.player][move]
                ),
            ]
        out.append([None if value == "" else value for value in line])
        if progress and (done % 100 == 0 or done == len(rows)):
            progress(done, len(rows))
    return out


def _marks(solo: bool, warning: bool, penalty: int) -> str | None:
    """What counted on a move beside its score: "solo", "avert.", "pén. 5"; None for nothing."""
    marks = (["solo"] if solo else []) + (["avert."] if warning else []) + ([f"pén. {penalty}"] if penalty else [])
    return ", ".join(marks) or None


def header(session: Session) -> list[str]:
    numbers = session.rounds.exclude(top_score=None).values_list("number", flat=True)
    return HEADER + [title for number in numbers for title in (f"Coup {number}", f"Coup {number} : notes")]


def build(session: Session, kind: str, progress=None) -> bytes:
    rows = table(session, progress)
    if kind == "federation":
        # The federation's own columns only (facts §4); one line a table, tables in order, players without a
        # table last.
        players = sorted(rows[1:], key=lambda r: (r[1] is None, r[1] or 0))
        return _federation_file([[row[1] or "", row[2], row[TOTAL_COLUMN]] for row in players])
    return _spreadsheet([("Nom", session.name), ("Date", session.date)], header(session), rows, kind)


def _federation_file(rows) -> bytes:
    """The federation's results file: latin-1, every field quoted."""
    buffer = io.StringIO()
    csv.writer(buffer, quoting=csv.QUOTE_ALL, lineterminator="\r\n").writerows(_cells(rows))
    return buffer.getvalue().encode("iso-8859-1", errors="replace")


def _spreadsheet(title: list[tuple], header: list[str], rows: list[list], kind: str, **frozen) -> bytes:
    """An XLSX workbook, or a CSV for French spreadsheets (semicolons, decimal commas, a BOM for Excel): the title
    block (label, value) on the first lines (the session's name and date), an empty line, the header, then the
    rows. `frozen`: what `_workbook` keeps in view."""
    top = [[label, value] for label, value in title] + [[]]
    if kind == "xlsx":
        return _workbook(top, header, rows, **frozen)
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=";", lineterminator="\r\n")
    writer.writerows([_csv_value(value) for value in row] for row in _cells([*top, header, *rows]))
    return buffer.getvalue().encode("utf-8-sig")


def _csv_value(value):
    """A date as French spreadsheets read it, a decimal with its comma."""
    if isinstance(value, datetime.date):
        return f"{value:%d/%m/%Y}"
    return str(value).replace(".", ",") if isinstance(value, float) else value


def _workbook(top: list[list], header: list[str], rows: list[list], *, rows_in_view=1, columns_in_view=3) -> bytes:
    """The title block, the header and its first `rows_in_view` rows (a session's tops) stay in view, and so do
    the first `columns_in_view` columns (the place, the table and the name)."""
    book = Workbook()
    sheet = book.active
    sheet.title = "Classement"
    for row in [*top, header, *rows]:
        # openpyxl refuses the control characters XML cannot hold: they go rather than fail the export. A text
        # is written as a text cell, as typed: Excel never runs it (openpyxl would make "=…" a formula).
        sheet.append([ILLEGAL_CHARACTERS_RE.sub("", v) if isinstance(v, str) else v for v in row])
        for cell in sheet[sheet.max_row]:
            if isinstance(cell.value, str):
                cell.data_type = "s"
    bold = Font(bold=True)
    header_row = len(top) + 1
    for label, value in sheet.iter_rows(min_row=1, max_row=len(top) - 1, max_col=2):
        label.font = value.font = bold
        if isinstance(value.value, datetime.date):
            value.number_format = "DD/MM/YYYY"
    for cell in sheet[header_row]:
        cell.font = bold
    sheet.freeze_panes = sheet.cell(row=header_row + rows_in_view + 1, column=columns_in_view + 1)
    for number, column in enumerate(sheet.iter_cols(min_row=header_row), start=1):
        widest = max(len(str(cell.value)) for cell in column if cell.value is not None)
        sheet.column_dimensions[get_column_letter(number)].width = min(max(widest + 2, 6), 40)
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def _cells(rows):
    return [[spreadsheet_cell(value) for value in row] for row in rows]


def filename(session: Session, kind: str) -> str:
    base = slugify(f"{session.date:%Y-%m-%d} {session.name}") or f"seance-{session.pk}"
    suffix = "-federation" if kind == "federation" else ""
    return f"{base}{suffix}.{KINDS[kind][1]}"


def response(session: Session, kind: str) -> HttpResponse:
    content_type, _extension = KINDS[kind]
    reply = HttpResponse(build(session, kind), content_type=content_type)
    reply["Content-Disposition"] = f'attachment; filename="{filename(session, kind)}"'
    return reply


def tournament_build(rows, sessions, kind: str, title: str) -> bytes:
    """A tournament's combined ranking: place, name, total, gap, percent, then each session's total; its
    federation file gives the place in its first column, players tied sharing it. `title`: the tournament's
    name, printed above with its first session's date."""
    header = ["Place", "Nom", "Total", "Écart", "% du top"] + [f"{s.date:%d/%m} {s.name}" for s in sessions]
    table_rows = [[row.place, name, row.total, row.gap, row.percent, *row.session_totals] for name, row in rows]
    if kind == "federation":
        return _federation_file([[row[0], row[1], row[2]] for row in table_rows])
    return _spreadsheet([("Nom", title), ("Date", min(s.date for s in sessions))], header, table_rows, kind)


SEASON_KINDS = ("csv", "xlsx")  # the federation's file (facts §4) is a session's: a season has none
SEASON_HEADER = ["Place", "Nom", "Séances jouées", "Séances retenues", "Total", "% moyen du top"]


def season_build(season: Season, standing, kind: str) -> bytes:
    """A season's ranking (`services.season_ranking`): place, name, sessions played and counted, total, mean
    percentage; above it its club, name, dates and how it ranks."""
    counting = season.get_counting_display()
    if season.best:
        counting = f"{counting} : {season.best}"
    title = [
        ("Club", season.club.name),
        ("Saison", season.name),
        ("Du", season.start),
        ("Au", season.end),
        ("Séances retenues", counting),
        ("Classement par", season.get_ranked_by_display()),
    ]
    rows = [[row.place, name, row.played, row.counted, row.total, row.percent] for name, row in standing.rows]
    return _spreadsheet(title, SEASON_HEADER, rows, kind, rows_in_view=0, columns_in_view=2)


def season_filename(season: Season, kind: str) -> str:
    base = slugify(f"saison {season.start:%Y} {season.name}") or f"saison-{season.pk}"
    return f"{base}.{KINDS[kind][1]}"
