"""Results files of a session: CSV and XLSX rankings, and the federation's results file (facts §4: a latin-1
CSV, one line per table, `"table","name","total"`).

Every CSV cell goes through `spreadsheet_cell`, and every XLSX text is a typed text cell, so that a name typed by
anyone never becomes a formula in the spreadsheet that opens the file (CSV injection)."""

import csv
import io
import re

from django.http import HttpResponse
from django.utils.text import slugify
from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

from .models import Result, Session
from .services import ranking

KINDS = {
    "csv": ("text/csv; charset=utf-8", "csv"),
    "xlsx": ("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "xlsx"),
    "federation": ("text/csv; charset=iso-8859-1", "csv"),
}
# Each row adds up: the scores of the moves, plus the solos' bonus, minus the penalties (avertissements beyond
# the threshold included) make the total.
HEADER = ["Place", "Table", "Nom", "Total", "Écart", "% du top", "Solos", "Bonus solos", "Pénalités", "Absent"]

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
    """The ranking as rows: place, table, name, total, gap, percent, solos, their bonus, the penalties (negative),
    absent, then the score of each move.
    `progress(done, total)` is called as rows are built, for a long export run by a worker."""
    rows, _tops_total = ranking(session)
    numbers = list(session.rounds.exclude(top_score=None).values_list("number", flat=True))
    per_move: dict[int, dict[int, int]] = {}
    for player_id, number, score in (
        Result.objects.filter(round__session=session)
        .exclude(score=None)
        .values_list("player_id", "round__number", "score")
    ):
        per_move.setdefault(player_id, {})[number] = score
    out = []
    for done, named in enumerate(rows, start=1):
        row = named.row
        scores = per_move.get(named.player.pk, {})
        out.append(
            [row.place, named.player.table or "", named.player.name, row.total, row.gap, row.percent, row.solos]
            + [row.solo_points or "", -row.penalty_points or "", "oui" if named.player.absent else ""]
            + [scores.get(number, "") for number in numbers]
        )
        if progress and (done % 100 == 0 or done == len(rows)):
            progress(done, len(rows))
    return out


def build(session: Session, kind: str, progress=None) -> bytes:
    rows = table(session, progress)
    numbers = list(session.rounds.exclude(top_score=None).values_list("number", flat=True))
    if kind == "federation":
        # One line a table, tables in order, players without a table last.
        return _federation_file(
            [[row[1], row[2], row[3]] for row in sorted(rows, key=lambda r: (r[1] == "", r[1] or 0))]
        )
    return _spreadsheet(HEADER + [f"Coup {number}" for number in numbers], rows, kind)


def _federation_file(rows) -> bytes:
    """The federation's results file: latin-1, every field quoted."""
    buffer = io.StringIO()
    csv.writer(buffer, quoting=csv.QUOTE_ALL, lineterminator="\r\n").writerows(_cells(rows))
    return buffer.getvalue().encode("iso-8859-1", errors="replace")


def _spreadsheet(header, rows, kind: str) -> bytes:
    """An XLSX workbook, or a CSV for French spreadsheets (semicolons, decimal commas, a BOM for Excel)."""
    if kind == "xlsx":
        book = Workbook()
        sheet = book.active
        sheet.title = "Classement"
        for row in [header, *rows]:
            # openpyxl refuses the control characters XML cannot hold: they go rather than fail the export. A text
            # is written as a text cell, as typed: Excel never runs it (openpyxl would make "=…" a formula).
            sheet.append([ILLEGAL_CHARACTERS_RE.sub("", v) if isinstance(v, str) else v for v in row])
            for cell in sheet[sheet.max_row]:
                if isinstance(cell.value, str):
                    cell.data_type = "s"
        buffer = io.BytesIO()
        book.save(buffer)
        return buffer.getvalue()
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=";", lineterminator="\r\n")
    writer.writerows(
        [str(value).replace(".", ",") if isinstance(value, float) else value for value in row]
        for row in _cells([header, *rows])
    )
    return buffer.getvalue().encode("utf-8-sig")


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


def tournament_build(rows, sessions, kind: str) -> bytes:
    """A tournament's combined ranking: place, name, total, gap, percent, then each session's total."""
    header = ["Place", "Nom", "Total", "Écart", "% du top"] + [f"{s.date:%d/%m} {s.name}" for s in sessions]
    table_rows = [[row.place, name, row.total, row.gap, row.percent, *row.session_totals] for name, row in rows]
    if kind == "federation":
        return _federation_file([[position, row[1], row[2]] for position, row in enumerate(table_rows, start=1)])
    return _spreadsheet(header, table_rows, kind)
