"""The 15×15 board, its premium squares and FISF coordinates (facts §1).

Squares are numbered 0–224, row by row: index = row × 15 + column, row 0 being A and column 0 being 1.
"""

import re
from enum import StrEnum

from .errors import NotationError, gettext_noop

SIZE = 15
ROW_LETTERS = "ABCDEFGHIJKLMNO"
CENTER = 7 * SIZE + 7  # H8


class Square(StrEnum):
    SIMPLE = "simple"
    LD = "LD"  # lettre compte double, bleu clair
    LT = "LT"  # lettre compte triple, bleu foncé
    MD = "MD"  # mot compte double, rose (the centre star included)
    MT = "MT"  # mot compte triple, rouge

    @property
    def letter_multiplier(self) -> int:
        return {Square.LD: 2, Square.LT: 3}.get(self, 1)

    @property
    def word_multiplier(self) -> int:
        return {Square.MD: 2, Square.MT: 3}.get(self, 1)


_PREMIUM_SQUARES = {
    Square.MT: "A1 A8 A15 H1 H15 O1 O8 O15",
    Square.MD: "B2 B14 C3 C13 D4 D12 E5 E11 H8 K5 K11 L4 L12 M3 M13 N2 N14",
    Square.LT: "B6 B10 F2 F6 F10 F14 J2 J6 J10 J14 N6 N10",
    Square.LD: "A4 A12 C7 C9 D1 D8 D15 G3 G7 G9 G13 H4 H12 I3 I7 I9 I13 L1 L8 L15 M7 M9 O4 O12",
}


def square_index(name: str) -> int:
    """'H8' → 112."""
    return ROW_LETTERS.index(name[0]) * SIZE + int(name[1:]) - 1


def square_name(index: int) -> str:
    """112 → 'H8'."""
    row, col = divmod(index, SIZE)
    return f"{ROW_LETTERS[row]}{col + 1}"


def _layout() -> tuple[Square, ...]:
    squares = [Square.SIMPLE] * (SIZE * SIZE)
    for kind, names in _PREMIUM_SQUARES.items():
        for name in names.split():
            squares[square_index(name)] = kind
    return tuple(squares)


SQUARES: tuple[Square, ...] = _layout()
LETTER_MULTIPLIERS: tuple[int, ...] = tuple(square.letter_multiplier for square in SQUARES)
WORD_MULTIPLIERS: tuple[int, ...] = tuple(square.word_multiplier for square in SQUARES)

_FISF_COORDINATE = re.compile(r"^(?:([A-O])(\d{1,2})|(\d{1,2})([A-O]))$")


def parse_coordinate(text: str) -> tuple[int, int, bool]:
    """FISF coordinate → (row, column, horizontal). 'H4' is horizontal (letter first), '4H' vertical."""
    match = _FISF_COORDINATE.match(text.strip().upper())
    if not match:
        raise NotationError(
            gettext_noop(
                "Coordonnée illisible : « %(text)s ». Écrivez la ligne (A à O) puis la colonne (1 à 15) "
                "pour un mot horizontal, comme H4, ou la colonne puis la ligne pour un mot vertical, comme 4H."
            ),
            text=text,
        )
    row_letter, col_text = (match[1], match[2]) if match[1] else (match[4], match[3])
    col = int(col_text)
    if not 1 <= col <= SIZE:
        raise NotationError(gettext_noop("Colonne hors de la grille dans « %(text)s » : de 1 à 15."), text=text)
    return ROW_LETTERS.index(row_letter), col - 1, bool(match[1])


def format_coordinate(row: int, col: int, horizontal: bool) -> str:
    return f"{ROW_LETTERS[row]}{col + 1}" if horizontal else f"{col + 1}{ROW_LETTERS[row]}"
