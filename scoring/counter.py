"""The typed counter's form: what the visitor typed, read from POST data or from a share link's token.

Nothing here is stored: the state lives in the form the visitor posts back, and in a URL only when the
visitor asks for a share link.
"""

import base64
import binascii
import json
import re
from dataclasses import dataclass, field

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from .engine.board import Square, square_index
from .engine.editions import MAX_WORD_TILES, Edition
from .engine.errors import ScoringError
from .engine.moves import Board, Play, Tile, WordScore, lay_letters
from .engine.rules import DEFAULT_RULES
from .engine.typed import MAX_SECONDARY_WORDS, TypedTile

MAX_WORDS = 1 + MAX_SECONDARY_WORDS
SQUARE_LABELS = [
    (Square.SIMPLE, _("Case simple")),
    (Square.LD, _("Lettre compte double")),
    (Square.LT, _("Lettre compte triple")),
    (Square.MD, _("Mot compte double")),
    (Square.MT, _("Mot compte triple")),
]
_SQUARES = {square.value: square for square, _label in SQUARE_LABELS}


class BadShareLink(ValueError):
    pass


@dataclass
class TileInput:
    letter: str
    square: Square = Square.SIMPLE
    on_board: bool = False
    blank: bool = False
    forced_blank: bool = False  # the edition has no tile for this letter
    value: int = 0  # the tile's face value in the edition

    def typed(self) -> TypedTile:
        return TypedTile(self.letter, self.square, self.on_board, self.blank or self.forced_blank)

    @property
    def shown(self) -> str:
        return self.letter.lower() if self.blank or self.forced_blank else self.letter


@dataclass
class WordInput:
    text: str
    tiles: list[TileInput] = field(default_factory=list)
    error: str = ""
    score: WordScore | None = None  # set once the counter has scored the move
    in_list: bool | None = None  # set when the visitor asked to check the words against the free list


@dataclass
class CounterState:
    edition_code: str
    words: list[WordInput]
    check_words: bool = False

    def typed_words(self) -> list[list[TypedTile]]:
        return [[tile.typed() for tile in word.tiles] for word in self.words]

    @property
    def has_errors(self) -> bool:
        return any(word.error for word in self.words)

    @property
    def is_empty(self) -> bool:
        return not any(word.tiles for word in self.words)

    def to_token(self) -> str:
        """The share link's token: the whole state, every tile's settings included."""
        payload = {
            "e": self.edition_code,
            "c": int(self.check_words),
            "w": [
                [word.text, [[t.square.value, int(t.on_board), int(t.blank)] for t in word.tiles]]
                for word in self.words
            ],
        }
        raw = json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode()
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def read_state(data, edition: Edition) -> CounterState:
    """The counter's state from posted form data: `w0`…`w7` the words, `w{i}_{j}_sq|on|bl` each tile's settings."""
    count = max(1, min(MAX_WORDS, _int(data.get("words"), 1)))
    words = []
    for i in range(count):
        text = str(data.get(f"w{i}", ""))[:60]
        options = [
            (
                _SQUARES.get(data.get(f"w{i}_{j}_sq", ""), Square.SIMPLE),
                data.get(f"w{i}_{j}_on") == "1",
                data.get(f"w{i}_{j}_bl") == "1",
            )
            for j in range(MAX_WORD_TILES)
        ]
        words.append(_word(text, options, edition))
    return CounterState(edition.code, words, check_words=data.get("check") == "1")


def state_from_token(token: str, edition_for) -> CounterState:
    """Rebuild a shared state; `edition_for(code)` returns the engine edition (it raises for an unknown code)."""
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        payload = json.loads(raw.decode())
        edition = edition_for(str(payload["e"]))
        words = []
        for text, settings in payload["w"][:MAX_WORDS]:
            options = [(Square(square), bool(on), bool(blank)) for square, on, blank in settings[:MAX_WORD_TILES]]
            words.append(_word(str(text)[:60], options, edition))
    except (ValueError, KeyError, TypeError, binascii.Error, UnicodeDecodeError) as error:
        raise BadShareLink(gettext("Ce lien de partage est illisible : il a peut-être été coupé.")) from error
    return CounterState(edition.code, words or [WordInput("")], check_words=bool(payload.get("c")))


def _word(text: str, options, edition: Edition) -> WordInput:
    word = WordInput(text)
    if not text.strip():
        return word
    try:
        # Phones type lowercase: in typed mode a blank is set on the tile ("Joker"), not by the letter's case.
        letters = edition.split(text.upper())
    except ScoringError as error:
        word.error = error.translated(gettext)
        return word
    for j, (letter, written_blank) in enumerate(letters):
        square, on_board, blank = options[j] if j < len(options) else (Square.SIMPLE, False, False)
        word.tiles.append(
            TileInput(
                letter=letter,
                square=square,
                on_board=on_board,
                blank=blank or written_blank,
                forced_blank=not edition.has_tile(letter),
                value=edition.value(letter),
            )
        )
    return word


def _int(value, default: int) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


@dataclass
class GridMove:
    """The move being typed on the grid: where its tiles go, and its score or why it is refused."""

    start: int | None = None
    placements: dict[int, Tile] = field(default_factory=dict)
    play: Play | None = None
    error: str = ""


class GridForm:
    """Grid mode's fields: `start` square (H4), `direction` (h or v), `letters` typed, `blanks` (their
    positions, touched on the grid), `players` for the tile tracking."""

    def __init__(self, data=None):
        self.data = data or {}

    @property
    def start_text(self) -> str:
        text = str(self.data.get("start", "")).strip().upper()
        return text if _SQUARE_NAME.match(text) else ""

    @property
    def check_words(self) -> bool:
        return self.data.get("check") == "1"

    @property
    def horizontal(self) -> bool:
        return self.data.get("direction", "h") != "v"

    @property
    def letters(self) -> str:
        return str(self.data.get("letters", ""))[:30]

    @property
    def rack(self) -> str:
        return str(self.data.get("rack", ""))[:12]

    @property
    def blank_positions(self) -> set[int]:
        return {int(part) for part in str(self.data.get("blanks", "")).split(",") if part.isdigit()}

    def players(self) -> int:
        return max(1, min(4, _int(self.data.get("players"), 2)))

    def pending(self, board: Board, edition: Edition, rules=DEFAULT_RULES) -> GridMove:
        if not self.start_text:
            return GridMove()
        start = square_index(self.start_text)
        move = GridMove(start=start)
        if not self.letters.strip():
            return move
        try:
            tiles = [
                Tile(letter, blank or k in self.blank_positions)
                for k, (letter, blank) in enumerate(edition.split(self.letters.upper()))
            ]
            move.placements = lay_letters(board, start, self.horizontal, tiles)
            move.play = board.evaluate_tiles(move.placements, edition, rules, horizontal=self.horizontal)
        except ScoringError as error:
            move.error = error.translated(gettext)
        return move


_SQUARE_NAME = re.compile(r"^[A-O](?:[1-9]|1[0-5])$")
