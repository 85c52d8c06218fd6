"""The counter's forms: what a visitor types in typed mode and on the grid, read from POST data.

Nothing here is stored: the typed counter's state lives in the form the visitor posts back, and in a URL only
when he asks for a share link, whose token is signed so that a link cannot be forged into another state.
"""

import difflib
import re
from dataclasses import dataclass, field

from django import forms
from django.core import signing
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from clubsite.text import shown

from .engine.board import Square, square_index, square_name
from .engine.editions import BLANK, MAX_WORD_TILES, Edition
from .engine.errors import ScoringError
from .engine.moves import Board, Play, Tile, WordScore, lay_letters
from .engine.rules import DEFAULT_RULES
from .engine.typed import MAX_SECONDARY_WORDS, TypedTile

MAX_WORDS = 1 + MAX_SECONDARY_WORDS
MAX_WORD_TEXT = 60  # room for accents and ligatures before the 15-tile limit is checked on the letters
SQUARE_LABELS = [
    (Square.SIMPLE, _("Case simple")),
    (Square.LD, _("Lettre compte double")),
    (Square.LT, _("Lettre compte triple")),
    (Square.MD, _("Mot compte double")),
    (Square.MT, _("Mot compte triple")),
]
_SQUARES = {square.value: square for square, _label in SQUARE_LABELS}
SHARE_SALT = "scoring.counter.share"


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

    def new_tiles(self) -> list[str]:
        """The tiles the move brings from the rack (`?` a blank): those of the word with the most tiles not marked
        "déjà posé", as "Jetons posés depuis le chevalet" counts them; a cross word shares one of them."""
        words = [[tile for tile in word.tiles if not tile.on_board] for word in self.words]
        return [BLANK if tile.blank or tile.forced_blank else tile.letter for tile in max(words, key=len, default=[])]

    def to_token(self) -> str:
        """The share link's token: the whole state, every tile's settings included, signed."""
        payload = {
            "e": self.edition_code,
            "c": int(self.check_words),
            "w": [
                [word.text, [[t.square.value, int(t.on_board), int(t.blank)] for t in word.tiles]]
                for word in self.words
            ],
        }
        return signing.dumps(payload, salt=SHARE_SALT, compress=True)

    @classmethod
    def from_token(cls, token: str, edition_for) -> "CounterState":
        """A shared state; `edition_for(code)` returns the engine edition (it raises for an unknown code)."""
        try:
            payload = signing.loads(token, salt=SHARE_SALT)
            edition = edition_for(str(payload["e"]))
            words = []
            for text, settings in payload["w"][:MAX_WORDS]:
                options = [(Square(square), bool(on), bool(blank)) for square, on, blank in settings[:MAX_WORD_TILES]]
                words.append(_word(str(text)[:MAX_WORD_TEXT], options, edition))
        except (signing.BadSignature, ValueError, KeyError, TypeError) as error:
            raise BadShareLink(gettext("Ce lien de partage est illisible : il a peut-être été coupé.")) from error
        return cls(edition.code, words or [WordInput("")], check_words=bool(payload.get("c")))


class CounterForm(forms.Form):
    """Typed mode: `words` the number of word boxes, `w0`…`w7` the words, and each tile's settings in
    `w{i}_{j}_sq|on|bl` (its square, "déjà posé", joker), read for the tiles the words actually have."""

    words = forms.IntegerField(required=False, min_value=1, max_value=MAX_WORDS)
    check = forms.BooleanField(required=False)

    def __init__(self, data=None):
        super().__init__(data or {})
        for i in range(MAX_WORDS):
            self.fields[f"w{i}"] = forms.CharField(required=False, strip=False)

    def state(self, edition: Edition) -> CounterState:
        """The counter's state; a value out of range falls back to its default, as the page never sends one."""
        self.is_valid()
        data = self.cleaned_data
        count = data.get("words") or 1
        words = []
        for i in range(count):
            text = (data.get(f"w{i}") or "")[:MAX_WORD_TEXT]
            options = [
                (
                    _SQUARES.get(self.data.get(f"w{i}_{j}_sq", ""), Square.SIMPLE),
                    self.data.get(f"w{i}_{j}_on") == "1",
                    self.data.get(f"w{i}_{j}_bl") == "1",
                )
                for j in range(MAX_WORD_TILES)
            ]
            was = str(self.data.get(f"w{i}_was", ""))[:MAX_WORD_TEXT]
            words.append(_word(text, _follow_letters(options, was, text, edition), edition))
        return CounterState(edition.code, words, check_words=bool(data.get("check")))


def _follow_letters(options, was: str, text: str, edition: Edition):
    """The tiles' settings were given for the word `was`: a letter typed in front of the C of ECOLES must not
    move the C's double letter onto another tile. Each setting follows its letter to its new place; a new letter
    starts plain."""
    if not was or was == text:
        return options
    try:
        before = [letter for letter, _blank in edition.split(was.upper())]
        after = [letter for letter, _blank in edition.split(text.upper())]
    except ScoringError:
        return options
    plain = (Square.SIMPLE, False, False)
    followed = [plain] * MAX_WORD_TILES
    for block in difflib.SequenceMatcher(None, before, after, autojunk=False).get_matching_blocks():
        for k in range(block.size):
            if block.b + k < MAX_WORD_TILES and block.a + k < len(options):
                followed[block.b + k] = options[block.a + k]
    return followed


def refusal_sentence(error: ScoringError) -> str:
    """The engine's refusal as the counter's pages write it, in the active language, what was typed quoted with each
    character that shows nothing written as its code (clubsite.text.shown), as static/js/score_rules.js writes it."""
    return shown(error.translated(gettext))


def _word(text: str, options, edition: Edition) -> WordInput:
    word = WordInput(text)
    if not text.strip():
        return word
    try:
        # Phones type lowercase: in typed mode a blank is set on the tile ("Joker"), not by the letter's case.
        letters = edition.split(text.upper())
    except ScoringError as error:
        word.error = refusal_sentence(error)
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


@dataclass
class GridMove:
    """The move being typed on the grid: where its tiles go, and its score or why it is refused."""

    start: int | None = None
    placements: dict[int, Tile] = field(default_factory=dict)
    play: Play | None = None
    error: str = ""

    @property
    def blank_marks(self) -> str:
        """The joker marks the move uses, `H8M` a square and its letter: the marks the form sends back."""
        return ",".join(blank_mark(index, tile) for index, tile in self.placements.items() if tile.blank)


def blank_mark(index: int, tile: Tile) -> str:
    """A joker mark names one new tile on one square (`H8M`): it no longer applies once that square takes another
    letter, or none, after the start, the direction or the letters changed."""
    return f"{square_name(index)}{tile.letter}"


_SQUARE_NAME = re.compile(r"^[A-O](?:[1-9]|1[0-5])$")


class GridForm(forms.Form):
    """Grid mode: the `start` square (H4), the `direction`, the `letters` typed, the `blanks` (the new tiles touched
    on the grid to make them jokers, `H8M,H9O`), the `rack` for "Meilleurs coups" and `players` for the tile
    tracking: from one rack (a duplicate's draw, a player alone) to the most players a rule set admits,
    `player_bounds` (`RuleSet.objects.player_bounds()`), the fewest by default."""

    start = forms.CharField(required=False, max_length=3)
    direction = forms.ChoiceField(required=False, choices=[("h", "h"), ("v", "v")])
    letters = forms.CharField(required=False, max_length=30, strip=False)
    blanks = forms.CharField(required=False, max_length=200)
    rack = forms.CharField(required=False, max_length=12)
    players = forms.TypedChoiceField(required=False, coerce=int)
    check = forms.BooleanField(required=False)

    def __init__(self, data=None, *, player_bounds=(DEFAULT_RULES.min_players, DEFAULT_RULES.max_players)):
        super().__init__(data or {})
        self.fewest_players, most = player_bounds
        self.player_choices = list(range(1, most + 1))
        self.fields["players"].choices = [(n, n) for n in self.player_choices]
        self.is_valid()

    def clean_start(self) -> str:
        text = self.cleaned_data["start"].strip().upper()
        if text and not _SQUARE_NAME.match(text):
            if re.match(r"^\d{1,2}[A-Z]$", text):
                message = _(
                    "« %(start)s » : une case s'écrit ligne puis colonne (%(swapped)s) ; le sens se choisit "
                    "avec « Horizontal » ou « Vertical »."
                )
                raise forms.ValidationError(
                    message, params={"start": shown(text), "swapped": shown(text[-1] + text[:-1])}
                )
            raise forms.ValidationError(
                _(
                    "« %(start)s » n'est pas une case de la grille : une ligne de A à O puis une colonne de 1 à 15 "
                    "(H8)."
                ),
                params={"start": shown(text)},
            )
        return text

    @property
    def start_text(self) -> str:
        return self.cleaned_data.get("start", "")

    @property
    def check_words(self) -> bool:
        return bool(self.cleaned_data.get("check"))

    @property
    def horizontal(self) -> bool:
        return self.cleaned_data.get("direction") != "v"

    @property
    def letters_text(self) -> str:
        return self.cleaned_data.get("letters") or ""

    @property
    def rack_text(self) -> str:
        return self.cleaned_data.get("rack") or ""

    @property
    def blank_marks(self) -> set[str]:
        return {part.strip().upper() for part in (self.cleaned_data.get("blanks") or "").split(",") if part.strip()}

    def player_count(self) -> int:
        return self.cleaned_data.get("players") or self.fewest_players

    def pending(self, board: Board, edition: Edition, rules=DEFAULT_RULES) -> GridMove:
        if not self.start_text:
            return GridMove()
        start = square_index(self.start_text)
        move = GridMove(start=start)
        if not self.letters_text.strip():
            return move
        try:
            tiles = [Tile(letter, blank) for letter, blank in edition.split(self.letters_text.upper())]
            marks = self.blank_marks
            move.placements = {
                index: tile._replace(blank=tile.blank or blank_mark(index, tile) in marks)
                for index, tile in lay_letters(board, start, self.horizontal, tiles).items()
            }
            move.play = board.evaluate_tiles(move.placements, edition, rules, horizontal=self.horizontal)
        except ScoringError as error:
            move.error = refusal_sentence(error)
        return move
