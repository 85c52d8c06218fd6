"""Results files of a session: CSV and XLSX rankings, and the federation's results file (facts §4: a latin-1
CSV, one line per table, `"table","name","total"`).

Every CSV cell goes through `spreadsheet_cell`, and every XLSX text is a typed text cell, so that a name typed by
anyone never becomes a formula in the spreadsheet that opens the file (CSV injection)."""

import csv
import datetime
import io
import re
import unicodedata
from itertools import zip_longest

from django.http import HttpResponse, JsonResponse
from django.utils import timezone
from django.utils.text import slugify
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter

from scoring.engine.ranking import MovePoints, move_points, rank_points

from .models import Result, Season, Session
from .services.rankings import ranking_input
from .services.tournaments import TournamentRanking

KINDS = {
    "csv": ("text/csv; charset=utf-8", "csv"),
    "xlsx": ("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "xlsx"),
    "federation": ("text/csv; charset=iso-8859-1", "csv"),
}
# Each row adds up: the scores of the moves, plus the solos' bonus, minus what the penalties took (avertissements
# beyond the threshold included; never more than a move's score, FISF §5) make the total. Each move has its score,
# then what counted on it (an arbiter's zero, a solo, an avertissement, a penalty) in the column beside.
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
    points = move_points(**figures.engine_arguments())
    rows = rank_points(points, tops=figures.tops)
    placed = [pk for pk, _top in figures.rounds]
    zeros = set(Result.objects.filter(round__in=placed).zero_marks().values_list("player_id", "round_id"))
    out = [["Tops", None, None, None, None, None, sum(figures.tops), *[None] * 6]]
    for top in figures.tops:
        out[0] += [top, None]
    for done, row in enumerate(rows, start=1):
        player = figures.players[row.player]
        line = [row.place, player.table, player.name, player.licence, player.club_name, player.series, row.total]
        line += [row.gap, row.percent, row.solos, row.solo_points or None, -row.penalty_points or None]
        line.append("oui" if player.absent else None)
        for round_pk, score, move in zip(placed, figures.scores[row.player], points[row.player], strict=True):
            line += [score, _marks(move, zero=(row.player, round_pk) in zeros)]
        out.append([None if value == "" else value for value in line])
        if progress and (done % 100 == 0 or done == len(rows)):
            progress(done, len(rows))
    return out


def _marks(move: MovePoints, *, zero: bool = False) -> str | None:
    """What counted on a move beside its score, as the engine counted it: "zéro" (the arbiter's, the recap's
    « z »), "solo", "avert." ("avert. −5" when it took points), "pén. 5" (the points the penalty took); None for
    nothing."""
    warned = [f"avert. −{move.warning_points}" if move.warning_points else "avert."] if move.warning else []
    marks = (["zéro"] if zero else []) + (["solo"] if move.solo else []) + warned
    marks += [f"pén. {move.penalty_taken}"] if move.penalty_taken else []
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
    # Place, table and name stay in view as the moves scroll by.
    return _spreadsheet([["Nom", session.name], ["Date", session.date]], header(session), rows, kind, fixed=3)


def _federation_file(rows) -> bytes:
    """The federation's results file: latin-1, every field quoted. A letter latin-1 lacks is transliterated before
    the formula check, so that a dropped character cannot uncover a leading "="."""
    latin_1_rows = [[latin_1(value) if isinstance(value, str) else value for value in row] for row in rows]
    buffer = io.StringIO()
    csv.writer(buffer, quoting=csv.QUOTE_ALL, lineterminator="\r\n").writerows(_cells(latin_1_rows))
    return buffer.getvalue().encode("iso-8859-1")


# Letters that Unicode does not decompose into a base letter and marks.
TRANSLITERATIONS = str.maketrans({"Œ": "OE", "œ": "oe", "Ł": "L", "ł": "l", "Æ": "AE", "æ": "ae", "ß": "ss"})


def latin_1(text: str) -> str:
    """`text` as latin-1 can hold it: its latin-1 characters kept (é, ç, æ), others transliterated ("Łukasz Œil"
    gives "Lukasz OEil", "Ćwik" "Cwik"), what has no latin-1 form (an emoji) dropped, never a "?"."""
    kept = []
    for character in text:
        if ord(character) < 256:
            kept.append(character)
            continue
        for part in unicodedata.normalize("NFKD", character.translate(TRANSLITERATIONS)):
            if ord(part) < 256 and not unicodedata.combining(part):
                kept.append(part)
    return "".join(kept)


def file_slug(text: str) -> str:
    """A file name's slug, the letters slugify would drop transliterated ("Œuvre" gives "oeuvre", not "uvre")."""
    return slugify(text.translate(TRANSLITERATIONS))


def _spreadsheet(
    title: list[list], header: list[str], rows: list[list], kind: str, fixed: int, tops: bool = True
) -> bytes:
    """An XLSX workbook, or a CSV for French spreadsheets (semicolons, decimal commas, dates as 24/11/2026, a BOM
    for Excel): the `title` lines (the name, the date…), an empty line, the header, then the rows, the first of
    them the tops unless `tops` is false (a season has none). The XLSX keeps the `fixed` first columns in view."""
    top = [*title, []]
    if kind == "xlsx":
        return _workbook(top, header, rows, fixed, tops)
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=";", lineterminator="\r\n")
    writer.writerows([_csv_text(value) for value in row] for row in _cells([*top, header, *rows]))
    return buffer.getvalue().encode("utf-8-sig")


def _csv_text(value):
    if isinstance(value, float):
        return str(value).replace(".", ",")
    if isinstance(value, datetime.date):
        return f"{value:%d/%m/%Y}"
    return value


def _workbook(top: list[list], header: list[str], rows: list[list], fixed: int, tops: bool) -> bytes:
    """Written as it streams (openpyxl's write-only mode), the columns' widths taken from the values beforehand: a
    workbook kept whole in memory looked for its last row at each row appended, 14 s of CPU for 2,000 players."""
    book = Workbook(write_only=True)
    sheet = book.create_sheet("Classement")
    # openpyxl refuses the control characters XML cannot hold: they go rather than fail the export.
    lines = [
        [ILLEGAL_CHARACTERS_RE.sub("", v) if isinstance(v, str) else v for v in row] for row in [*top, header, *rows]
    ]
    header_row = len(top) + 1
    for number, column in enumerate(zip_longest(*lines[header_row - 1 :]), start=1):
        widest = max((len(str(value)) for value in column if value is not None), default=0)
        sheet.column_dimensions[get_column_letter(number)].width = min(max(widest + 2, 6), 40)
    # The title, the header and the tops (if any) stay in view, and so do the first columns.
    sheet.freeze_panes = f"{get_column_letter(fixed + 1)}{header_row + 1 + tops}"
    bold = Font(bold=True)
    bolded = {1: 2, header_row: len(header)}  # the first line's label and value, the whole header
    for number, line in enumerate(lines, start=1):
        sheet.append(
            [_typed_cell(sheet, v, bold if column < bolded.get(number, 0) else None) for column, v in enumerate(line)]
        )
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def _typed_cell(sheet, value, font):
    """A value as its cell: a text as a text cell, as typed, which Excel never runs (openpyxl would make "=…" a
    formula); a date shown as 24/11/2026; a number as it is, unless `font` says how to draw it."""
    if not isinstance(value, (str, datetime.date)) and font is None:
        return value
    cell = WriteOnlyCell(sheet, value)
    if isinstance(value, str):
        cell.data_type = "s"
    elif isinstance(value, datetime.date):
        cell.number_format = "DD/MM/YYYY"
    if font is not None:
        cell.font = font
    return cell


def _cells(rows):
    return [[spreadsheet_cell(value) for value in row] for row in rows]


def session_slug(session: Session) -> str:
    """What a session's files are named after: its date and name (its id when they leave nothing)."""
    return file_slug(f"{session.date:%Y-%m-%d} {session.name}") or f"seance-{session.pk}"


def filename(session: Session, kind: str) -> str:
    return _file_name(session_slug(session), kind)


def _file_name(base: str, kind: str) -> str:
    """`base` with the extension of `kind`; the federation's file says so in its name."""
    suffix = "-federation" if kind == "federation" else ""
    return f"{base}{suffix}.{KINDS[kind][1]}"


def response(session: Session, kind: str) -> HttpResponse:
    return download(build(session, kind), kind, filename(session, kind))


def download(content: bytes, kind: str, name: str) -> HttpResponse:
    """A file of `kind` (`KINDS`), sent to be saved as `name`."""
    return _attached(HttpResponse(content, content_type=KINDS[kind][0]), name)


def game_download(document: dict, base: str) -> JsonResponse:
    """A game file (`games.document`), sent to be saved as `<base>-partie.json`."""
    reply = JsonResponse(document, json_dumps_params={"ensure_ascii": False, "indent": 1})
    return _attached(reply, f"{base}-partie.json")


def _attached(reply: HttpResponse, name: str) -> HttpResponse:
    reply["Content-Disposition"] = f'attachment; filename="{name}"'
    return reply


# A tournament's columns before each session's total.
TOURNAMENT_HEADER = ["Place", "Nom", "Licence", "Club", "Série", "Total", "Écart", "% du top"]


def tournament_build(ranking: TournamentRanking, kind: str, name: str) -> bytes:
    """A tournament's combined ranking (`tournaments.tournament_ranking`): above, its name and each session's name
    and date; a row a player, with his licence, club and series, total, gap, percent, then his total in each
    session, the first row giving the tops (their sum, and each session's). Its federation file gives the place in
    its first column, players tied sharing it."""
    if kind == "federation":
        return _federation_file([[row.place, player.name, row.total] for player, row in ranking.rows])
    sessions = ranking.sessions
    title = [["Nom", name], ["Date", sessions[0].date]]
    title += [[f"Séance {number}", s.name, s.date] for number, s in enumerate(sessions, start=1)]
    header = TOURNAMENT_HEADER + [f"{s.date:%d/%m} {s.name}" for s in sessions]
    tops = ["Tops", None, None, None, None, ranking.tops_total, None, None, *ranking.tops]
    rows = [
        [row.place, player.name, player.licence or None, player.club or None, player.series or None]
        + [row.total, row.gap, row.percent, *row.session_totals]
        for player, row in ranking.rows
    ]
    # Place and name stay in view.
    return _spreadsheet(title, header, [tops, *rows], kind, fixed=2)


SEASON_KINDS = ("csv", "xlsx")  # the federation's file (facts §4) is a session's: a season has none
SEASON_HEADER = ["Place", "Nom", "Séances jouées", "Séances retenues", "Total", "% moyen du top"]


def season_build(season: Season, standing, kind: str) -> bytes:
    """A season's ranking (`services.seasons.season_ranking`): place, name, sessions played and counted, total, mean
    percentage; above it its club, name, dates and how it ranks."""
    counting = season.get_counting_display()
    if season.best:
        counting = f"{counting} : {season.best}"
    title = [
        ["Club", season.club.name],
        ["Saison", season.name],
        ["Du", season.start],
        ["Au", season.end],
        ["Séances retenues", counting],
        ["Classement par", season.get_ranked_by_display()],
    ]
    rows = [[row.place, name, row.played, row.counted, row.total, row.percent] for name, row in standing.rows]
    # No tops row: the place and the name stay in view.
    return _spreadsheet(title, SEASON_HEADER, rows, kind, fixed=2, tops=False)


def tournament_filename(tournament, kind: str) -> str:
    return f"tournoi-{tournament.pk}-{kind}.{KINDS[kind][1]}"


def season_filename(season: Season, kind: str) -> str:
    base = file_slug(f"saison {season.start:%Y} {season.name}") or f"saison-{season.pk}"
    return f"{base}.{KINDS[kind][1]}"


SIMULTANE_HEADER = [
    "Place", "Nom", "Licence", "Club", "Série", "Salle", "Total", "Écart", "% du top", "Solos", "Absent",
]  # fmt: skip


def simultane_build(simultane, ranking, kind: str, *, club: str = "", series: str = "") -> bytes:
    """A simultané's combined ranking (`combined_ranking.ranking(detail=True)`), overall or within one club or one
    series: above, its name, body, date and the moves counted; a row of the tops (their sum, then each move's),
    then a row a player with, for each counted move, his score and what counted on it (an arbiter's zero, a solo in
    his room, an avertissement, a penalty). Its federation file gives the place in its first column, players tied
    sharing it."""
    rows = ranking.within(club=club, series=series)
    if kind == "federation":
        return _federation_file([[row.place, row.name, row.total] for row in rows])
    title = [
        ["Simultané", simultane.name],
        ["Organisé par", simultane.body.name],
        ["Date", timezone.localtime(simultane.starts_at).date()],
        ["Coups comptés", ranking.moves],
    ]
    title += [["Club", club]] if club else []
    title += [["Série", series]] if series else []
    tops = ["Tops", None, None, None, None, None, ranking.tops_total, None, None, None, None]
    for top in simultane.game[: ranking.moves]:
        tops += [top["top_score"], None]
    header = SIMULTANE_HEADER + [
        title for number in range(1, ranking.moves + 1) for title in (f"Coup {number}", f"Coup {number} : notes")
    ]
    table_rows = []
    for row in rows:
        line = [row.place, row.name, row.licence or None, row.club or None, row.series or None, row.session]
        line += [row.total, row.gap, row.percent, row.solos, "oui" if row.absent else None]
        for score, move, zero in row.moves:
            line += [score, _marks(move, zero=zero)]
        table_rows.append(line)
    return _spreadsheet(title, header, [tops, *table_rows], kind, fixed=2)


def simultane_slug(simultane) -> str:
    """What a simultané's files are named after: its day and name (its id when they leave nothing)."""
    day = timezone.localtime(simultane.starts_at)
    return file_slug(f"{day:%Y-%m-%d} {simultane.name}") or f"simultane-{simultane.pk}"


def simultane_filename(simultane, kind: str) -> str:
    return _file_name(simultane_slug(simultane), kind)
