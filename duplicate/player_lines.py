"""A pasted list of players or a CSV read into `PlayerLine`s: one player a line, with his table and what the
federation knows of him. Pure text in, lines out (or every bad line said): nothing here reads or writes the
database; `services.players.players_add` seats them."""

import csv
import io
import re
import unicodedata
from typing import NamedTuple

from django.utils.translation import gettext as _

from clubsite.models import LICENCE_VALIDATOR
from clubsite.text import BYTE_ORDER_MARK, refused_character

from .errors import DuplicateError, LinesRefused
from .limits import LICENCE, MAX_TABLE, PLAYER_CLUB, PLAYER_NAME, SERIES


class PlayerLine(NamedTuple):
    """A player as a pasted line gives him: his table (None for none), his name, and what the federation knows of
    him (licence, his own club, his series), "" when the line does not say."""

    table: int | None
    name: str
    licence: str = ""
    club: str = ""
    series: str = ""


def invited_names(rows) -> list[str]:
    """The names among `rows` (`PlayerLine`s, or (table, name) pairs) that invite a member to his seat: written
    `@username` or `@address`."""
    return [row[1] for row in rows if row[1].startswith("@")]


# A header row's columns, their names folded (lower case, no accent); a header naming other columns is skipped as
# before, its lines read by position.
HEADER_COLUMNS = {
    "table": "table",
    "n°": "table",
    "numero": "table",
    "nom": "name",
    "name": "name",
    "joueur": "name",
    "licence": "licence",
    "license": "licence",
    "club": "club",
    "serie": "series",
    "series": "series",
}


# A first field written as a number that no table has: signed, with decimals or an exponent (-3, +4, 2.5, 2,5, 1e3).
NUMBER_WRITTEN = re.compile(r"[+-]?(?:\d+(?:[.,]\d*)?|[.,]\d+)(?:e[+-]?\d+)?", re.ASCII | re.IGNORECASE)


def licence_valid(licence: str) -> bool:
    """Letters and digits only, as the member's profile keeps it (or none at all), within the column."""
    return len(licence) <= LICENCE and LICENCE_VALIDATOR.regex.search(licence) is not None


def parse_player_lines(text: str) -> list[PlayerLine]:
    """A pasted list or a CSV: one player a line, `table;name`, `table,name`, `table<TAB>name` or just a name;
    `table;name;licence` and `table;name;licence;club;series` add what the federation knows of him (a third field
    without a digit is still read as part of the name, `12;Claire;Dupont`). A first line that names its columns
    (table, nom, licence, club, série, in any order and case) maps them by name; another header (its first field
    table, nom, name) is skipped. In a numbered list, a line of several fields whose first is not a number is
    refused rather than read as a name, as is a first field written as a number that is no table (`-3;Bob`), and
    a line holding a character that shows nothing or turns the text around (clubsite.text). Every refused line is
    said (`LinesRefused`), not the first alone."""
    text = text.removeprefix(BYTE_ORDER_MARK)  # a file's, pasted with it
    rows = []
    refusals = []
    first_line = {}  # table → the line that gave it
    sample = text[:2000]
    delimiter = ";" if ";" in sample else ("\t" if "\t" in sample else ",")
    columns = None
    lines = [[field.strip() for field in fields] for fields in csv.reader(io.StringIO(text), delimiter=delimiter)]
    numbered = any(_numbered([field for field in fields if field]) for fields in lines[1:])
    for number, fields in enumerate(lines, start=1):
        filled = [field for field in fields if field]
        if not filled:
            continue
        if refused := refused_character("".join(fields)):
            refusals.append(refused.on_line(number))
            continue
        if number == 1:
            folded = [_column_name(field) for field in fields]
            names = {"nom", "name", "joueur"} & set(folded)
            if names and all(not field or field in HEADER_COLUMNS for field in folded):
                columns = {HEADER_COLUMNS[field]: i for i, field in enumerate(folded) if field}
                continue
            if filled[0].lower() in ("table", "n°", "numéro", "numero", "nom", "name"):
                continue
            numbered = numbered or _numbered(filled)
        try:
            # A lone name under a header is a player without a table, as in a list without one.
            if columns and len(filled) > 1:
                line = _line_by_name(fields, columns, number)
            else:
                line = _line_by_position(fields, filled, number, numbered)
            if line.table is not None:
                if line.table in first_line:
                    raise DuplicateError(
                        _("Ligne %(line)d : la table %(table)d est déjà celle de la ligne %(first)d.")
                        % {"line": number, "table": line.table, "first": first_line[line.table]}
                    )
                first_line[line.table] = number
            rows.append(_checked_line(line, number))
        except DuplicateError as error:
            refusals.append(str(error))
    if refusals:
        raise LinesRefused(refusals)
    return rows


def _numbered(filled: list[str]) -> bool:
    return bool(filled) and filled[0].isascii() and filled[0].isdigit()


def _line_by_position(fields: list[str], filled: list[str], number: int, numbered: bool) -> PlayerLine:
    if _numbered(filled) and len(filled) == 1:
        raise DuplicateError(
            _("Ligne %(line)d : la table %(table)s n'a pas de joueur.") % {"line": number, "table": filled[0]}
        )
    if not _numbered(filled):
        if NUMBER_WRITTEN.fullmatch(filled[0]):
            raise DuplicateError(
                _("Ligne %(line)d : « %(table)s » n'est pas un numéro de table (un nombre entier de 1 à %(max)d).")
                % {"line": number, "table": filled[0], "max": MAX_TABLE}
            )
        if numbered and len(filled) > 1:
            raise DuplicateError(
                _("Ligne %(line)d : « %(table)s » n'est pas un numéro de table.") % {"line": number, "table": filled[0]}
            )
        return PlayerLine(None, " ".join(filled))
    table = _table(filled[0], number)
    # Columns by position when the line gives a club or a series, or a licence (a third field with a digit); a
    # third field alone without a digit is the rest of the name (`12;Claire;Dupont`).
    last = max(i for i, field in enumerate(fields) if field)
    third = fields[2] if len(fields) >= 3 else ""
    if fields[0] == filled[0] and len(fields) >= 3 and fields[1] and (last >= 3 or not third or _has_digit(third)):
        if any(fields[5:]):
            raise DuplicateError(
                _("Ligne %(line)d : une ligne compte au plus table, nom, licence, club et série.") % {"line": number}
            )
        return PlayerLine(table, *fields[1:5])
    return PlayerLine(table, " ".join(filled[1:]))


def _line_by_name(fields: list[str], columns: dict[str, int], number: int) -> PlayerLine:
    def column(key):
        return fields[columns[key]] if key in columns and columns[key] < len(fields) else ""

    table, name = column("table"), column("name")
    if not name:
        raise DuplicateError(_("Ligne %(line)d : le joueur n'a pas de nom.") % {"line": number})
    if table and not (table.isascii() and table.isdigit()):
        raise DuplicateError(
            _("Ligne %(line)d : « %(table)s » n'est pas un numéro de table.") % {"line": number, "table": table}
        )
    return PlayerLine(
        _table(table, number) if table else None, name, column("licence"), column("club"), column("series")
    )


def _table(text: str, number: int) -> int:
    table = int(text)
    if not 1 <= table <= MAX_TABLE:
        raise DuplicateError(_("Ligne %(line)d : les tables vont de 1 à %(max)d.") % {"line": number, "max": MAX_TABLE})
    return table


def _column_name(text: str) -> str:
    """A header's field as HEADER_COLUMNS names it: lower case, without accents."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(character for character in decomposed if not unicodedata.combining(character))


def _has_digit(text: str) -> bool:
    return any(character.isdigit() for character in text)


def _checked_line(line: PlayerLine, number: int) -> PlayerLine:
    """The line's fields within their columns' limits, or the first that is not, said with its line."""
    if len(line.name) > PLAYER_NAME:
        raise DuplicateError(
            _("Ligne %(line)d : nom trop long (%(max)d caractères au plus).") % {"line": number, "max": PLAYER_NAME}
        )
    if not licence_valid(line.licence):
        raise DuplicateError(
            _(
                "Ligne %(line)d : la licence « %(licence)s » ne compte que des lettres et des chiffres "
                "(%(max)d au plus)."
            )
            % {"line": number, "licence": line.licence, "max": LICENCE}
        )
    if len(line.club) > PLAYER_CLUB:
        raise DuplicateError(
            _("Ligne %(line)d : nom de club trop long (%(max)d caractères au plus).")
            % {"line": number, "max": PLAYER_CLUB}
        )
    if len(line.series) > SERIES:
        raise DuplicateError(
            _("Ligne %(line)d : série trop longue (%(max)d caractères au plus).") % {"line": number, "max": SERIES}
        )
    return line
