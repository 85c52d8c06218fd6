"""Moves on a board: FISF notation, validation and scoring (facts §1–2, seeds 000–001).

A move is counted in two steps: each new tile brings its value times the letter premium under it, then the sum
is multiplied by the word premiums covered this move. Every word formed or extended counts whole, a blank is
worth 0, squares already covered lose their premium, and exactly seven tiles from the rack add the bonus after
all multiplications.
"""

from dataclasses import dataclass
from typing import NamedTuple

from .board import (
    CENTER,
    LETTER_MULTIPLIERS,
    SIZE,
    WORD_MULTIPLIERS,
    format_coordinate,
    parse_coordinate,
    square_name,
)
from .editions import Edition
from .errors import MoveError, NotationError, ScoringError, clause, gettext_noop
from .rules import DEFAULT_RULES, RuleSet


class Tile(NamedTuple):
    letter: str
    blank: bool = False

    @property
    def written(self) -> str:
        """The letter as notation writes it: lowercase for a blank."""
        return self.letter.lower() if self.blank else self.letter


def write_word(tiles) -> str:
    return "".join(tile.written for tile in tiles)


@dataclass(frozen=True, slots=True)
class Move:
    """A move as FISF notation writes it: start square, direction and the whole word."""

    row: int
    col: int
    horizontal: bool
    tiles: tuple[Tile, ...]

    @classmethod
    def parse(cls, text: str, edition: Edition) -> "Move":
        """'H4 VAGUE' (letter first: horizontal) or '4G AVIONS' (number first: vertical)."""
        parts = text.split()
        if len(parts) < 2:
            raise NotationError(
                gettext_noop("Écrivez la coordonnée puis le mot, par exemple « H4 VAGUE » : « %(text)s »."),
                text=text.strip(),
            )
        if len(parts) > 2:
            raise NotationError(
                gettext_noop("Le mot contient un espace : écrivez-le d'un seul tenant (« %(text)s »)."),
                text=text.strip(),
            )
        row, col, horizontal = parse_coordinate(parts[0])
        word = parts[1]
        if word == word.lower() and sum(char.isalpha() for char in word) > edition.blanks:
            # More lowercase letters than the bag has jokers cannot all be jokers: typed without capitals.
            word = word.upper()
        tiles = tuple(Tile(letter, blank) for letter, blank in edition.split(word))
        return cls(row, col, horizontal, tiles)

    @property
    def coordinate(self) -> str:
        return format_coordinate(self.row, self.col, self.horizontal)

    @property
    def word(self) -> str:
        return write_word(self.tiles)

    @property
    def notation(self) -> str:
        return f"{self.coordinate} {self.word}"

    def __str__(self) -> str:
        return self.notation


def format_calculation(terms, word_multiplier: int, score: int) -> str:
    """The calculation as the seeds write it: '(1 + 3 × 2 + 1) × 2 = 12', '0 × 3 + 1 + 10 + 1 = 12'."""
    total = " + ".join(f"{value} × {mult}" if mult > 1 else str(value) for value, mult in terms)
    if word_multiplier > 1:
        return f"({total}) × {word_multiplier} = {score}"
    return f"{total} = {score}"


@dataclass(frozen=True, slots=True)
class WordScore:
    """One word formed by a move. `terms` holds (tile value, letter premium) for each tile, in order."""

    start: int
    horizontal: bool
    tiles: tuple[Tile, ...]
    terms: tuple[tuple[int, int], ...]
    word_multiplier: int
    score: int

    @property
    def word(self) -> str:
        return write_word(self.tiles)

    @property
    def calculation(self) -> str:
        return format_calculation(self.terms, self.word_multiplier, self.score)

    @property
    def coordinate(self) -> str:
        row, col = divmod(self.start, SIZE)
        return format_coordinate(row, col, self.horizontal)


@dataclass(frozen=True, slots=True)
class Play:
    """A validated, scored move: the main word first in `words`, then each cross word."""

    move: Move
    placed: tuple[tuple[int, Tile], ...]
    words: tuple[WordScore, ...]
    bonus: int
    score: int

    @property
    def tiles_placed(self) -> int:
        return len(self.placed)


class Board:
    """The tiles on the board. `cells[index]` is a Tile or None."""

    __slots__ = ("cells", "tile_count")

    def __init__(self):
        self.cells: list[Tile | None] = [None] * (SIZE * SIZE)
        self.tile_count = 0

    @classmethod
    def from_moves(cls, moves, edition: Edition, rules: RuleSet = DEFAULT_RULES) -> "Board":
        """Play each move in order (text or Move), validating each; raises on the first bad one."""
        return replay(moves, edition, rules, strict=True).board

    def copy(self) -> "Board":
        other = Board()
        other.cells = self.cells.copy()
        other.tile_count = self.tile_count
        return other

    @property
    def is_empty(self) -> bool:
        return self.tile_count == 0

    def tiles(self) -> list[tuple[int, Tile]]:
        return [(index, tile) for index, tile in enumerate(self.cells) if tile is not None]

    def play(self, move: Move, edition: Edition, rules: RuleSet = DEFAULT_RULES) -> Play:
        play = self.evaluate(move, edition, rules)
        self.place(play)
        return play

    def place(self, play: Play) -> None:
        for index, tile in play.placed:
            self.cells[index] = tile
        self.tile_count += len(play.placed)

    def evaluate(self, move: Move, edition: Edition, rules: RuleSet = DEFAULT_RULES) -> Play:
        """Validate a move written in notation and score it, without changing the board."""
        length = len(move.tiles)
        if length < 2:
            raise MoveError(gettext_noop("Un mot compte au moins deux lettres : « %(move)s »."), move=move)
        along = move.col if move.horizontal else move.row
        if along + length > SIZE:
            raise MoveError(
                gettext_noop("« %(move)s » sort de la grille : %(length)d lettres à partir de %(start)s."),
                move=move,
                length=length,
                start=move.coordinate,
            )
        step = 1 if move.horizontal else SIZE
        start = move.row * SIZE + move.col
        cells = self.cells
        placed: dict[int, Tile] = {}
        index = start
        for tile in move.tiles:
            current = cells[index]
            if current is None:
                placed[index] = tile
            elif current.letter != tile.letter:
                raise MoveError(
                    gettext_noop("En %(square)s, la grille porte déjà un %(on_board)s, pas un %(letter)s."),
                    square=square_name(index),
                    on_board=current.letter,
                    letter=tile.letter,
                )
            index += step
        end = start + (length - 1) * step
        for neighbour, inside in ((start - step, along > 0), (end + step, along + length < SIZE)):
            if inside and cells[neighbour] is not None:
                raise MoveError(
                    gettext_noop(
                        "Le mot continue sur la grille : la case %(square)s porte déjà une lettre. "
                        "Écrivez le mot entier."
                    ),
                    square=square_name(neighbour),
                )
        self._check_placement(placed, start, step, length, rules)
        return self._score(move, placed, start, step, length, edition, rules)

    def evaluate_tiles(
        self,
        placements: dict[int, Tile],
        edition: Edition,
        rules: RuleSet = DEFAULT_RULES,
        horizontal: bool | None = None,
    ) -> Play:
        """Validate tiles laid on squares (grid mode) and score the move they make.

        `horizontal` says which way a single tile's main word runs when it forms words both ways.
        """
        if not placements:
            raise MoveError(gettext_noop("Aucun jeton n'est posé."))
        cells = self.cells
        for index in placements:
            if cells[index] is not None:
                raise MoveError(gettext_noop("La case %(square)s est déjà occupée."), square=square_name(index))
        rows = {index // SIZE for index in placements}
        cols = {index % SIZE for index in placements}
        if len(rows) > 1 and len(cols) > 1:
            raise MoveError(gettext_noop("Les jetons posés doivent être sur une seule ligne ou une seule colonne."))
        if len(placements) == 1:
            horizontal = self._single_tile_direction(next(iter(placements)), horizontal)
        else:
            horizontal = len(rows) == 1
        step = 1 if horizontal else SIZE
        first, last = min(placements), max(placements)
        for index in range(first, last, step):
            if index not in placements and cells[index] is None:
                raise MoveError(
                    gettext_noop("Une case reste vide entre les jetons posés : %(square)s."),
                    square=square_name(index),
                )
        while _has_previous(first, step) and cells[first - step] is not None:
            first -= step
        while _has_next(last, step) and cells[last + step] is not None:
            last += step
        length = (last - first) // step + 1
        self._check_placement(placements, first, step, length, rules)
        row, col = divmod(first, SIZE)
        tiles = tuple(placements.get(index) or cells[index] for index in range(first, last + 1, step))
        return self._score(Move(row, col, horizontal, tiles), placements, first, step, length, edition, rules)

    def _single_tile_direction(self, index: int, preferred: bool | None) -> bool:
        cells = self.cells
        across = (_has_previous(index, 1) and cells[index - 1] is not None) or (
            _has_next(index, 1) and cells[index + 1] is not None
        )
        down = (_has_previous(index, SIZE) and cells[index - SIZE] is not None) or (
            _has_next(index, SIZE) and cells[index + SIZE] is not None
        )
        if across and down:
            return True if preferred is None else preferred
        return across or not down

    def _check_placement(self, placed: dict[int, Tile], start: int, step: int, length: int, rules: RuleSet):
        if not placed:
            raise MoveError(gettext_noop("Ce coup ne pose aucun jeton nouveau : toutes ses cases sont occupées."))
        if len(placed) > rules.rack_size:
            raise MoveError(
                gettext_noop("Ce coup poserait %(count)d jetons nouveaux : un chevalet n'en porte que %(rack)d."),
                count=len(placed),
                rack=rules.rack_size,
            )
        if self.tile_count == 0:
            covers_center = start <= CENTER <= start + (length - 1) * step and (CENTER - start) % step == 0
            if not covers_center or length < 2:
                raise MoveError(
                    gettext_noop("Le premier coup doit couvrir la case centrale H8 avec au moins deux lettres.")
                )
            return
        if length > len(placed):
            return
        cross = SIZE + 1 - step
        cells = self.cells
        for index in placed:
            if (_has_previous(index, cross) and cells[index - cross] is not None) or (
                _has_next(index, cross) and cells[index + cross] is not None
            ):
                return
        raise MoveError(gettext_noop("Le mot doit toucher une lettre déjà posée sur la grille."))

    def _score(self, move, placed, start, step, length, edition, rules) -> Play:
        values = edition.values
        cells = self.cells
        words = [self._word_score(start, step, length, placed, values)]
        cross = SIZE + 1 - step
        for index, tile in placed.items():
            first = index
            while _has_previous(first, cross) and cells[first - cross] is not None:
                first -= cross
            last = index
            while _has_next(last, cross) and cells[last + cross] is not None:
                last += cross
            if first != last:
                words.append(self._word_score(first, cross, (last - first) // cross + 1, {index: tile}, values))
        bonus = rules.bingo_bonus if len(placed) == rules.rack_size else 0
        score = sum(word.score for word in words) + bonus
        return Play(move, tuple(placed.items()), tuple(words), bonus, score)

    def _word_score(self, start, step, length, placed, values) -> WordScore:
        cells = self.cells
        tiles = []
        terms = []
        total = 0
        word_multiplier = 1
        index = start
        for _ in range(length):
            tile = placed.get(index)
            if tile is None:
                tile = cells[index]
                value = 0 if tile.blank else values.get(tile.letter, 0)
                terms.append((value, 1))
                total += value
            else:
                value = 0 if tile.blank else values.get(tile.letter, 0)
                letter_multiplier = LETTER_MULTIPLIERS[index]
                word_multiplier *= WORD_MULTIPLIERS[index]
                terms.append((value, letter_multiplier))
                total += value * letter_multiplier
            tiles.append(tile)
            index += step
        return WordScore(start, step == 1, tuple(tiles), tuple(terms), word_multiplier, total * word_multiplier)


class ReplayError(ScoringError):
    """A move of a list that the board refuses, named by its number in the list."""

    def __init__(self, number: int, text: str, error: ScoringError):
        self.error = error
        super().__init__(
            gettext_noop("Grille, coup %(number)d (« %(move)s ») : %(reason)s"),
            number=number,
            move=text,
            reason=clause(error.message),
        )

    def translated(self, gettext) -> str:
        return gettext(self.template) % {**self.params, "reason": clause(self.error.translated(gettext))}


@dataclass
class Replay:
    """A board rebuilt from its moves: the plays laid, in order, and the moves it refused (number, text, error)."""

    board: Board
    plays: list[Play]
    laid: list[str]  # the moves laid, as they were given
    refused: list[ReplayError]


def replay(moves, edition: Edition, rules: RuleSet = DEFAULT_RULES, *, strict: bool = False) -> Replay:
    """The one way to rebuild a board from moves in notation (or `Move`s), in order.

    `strict` raises a `ReplayError` on the first move the board refuses: an API's or a record's list must be
    right as a whole. Otherwise a refused move is set aside and the next ones are laid without it: a kept board
    whose edition changed, or a sheet line deleted under a later move, must not hide the rest of the board.
    """
    board = Board()
    result = Replay(board, [], [], [])
    for number, move in enumerate(moves, start=1):
        text = move if isinstance(move, str) else move.notation
        try:
            play = board.play(Move.parse(move, edition) if isinstance(move, str) else move, edition, rules)
        except ScoringError as error:
            refusal = ReplayError(number, text, error)
            if strict:
                raise refusal from error
            result.refused.append(refusal)
            continue
        result.plays.append(play)
        result.laid.append(text)
    return result


def _has_previous(index: int, step: int) -> bool:
    return index % SIZE != 0 if step == 1 else index >= SIZE


def _has_next(index: int, step: int) -> bool:
    return index % SIZE != SIZE - 1 if step == 1 else index < SIZE * (SIZE - 1)


def lay_letters(board: Board, start: int, horizontal: bool, tiles) -> dict[int, Tile]:
    """Grid mode's typing: each tile goes on the next free square of the line from `start`.

    A covered square is passed over (seed 000's AVIONS: A I O N S typed around the V in H4); a typed letter equal
    to the letter on the covered square it meets is read as that letter, since FISF notation writes the whole
    word (A V I O N S typed gives AVIONS as well, never AVVIONS).
    """
    step = 1 if horizontal else SIZE
    placements: dict[int, Tile] = {}
    cells = board.cells
    index = start
    for tile in tiles:
        while index >= 0 and cells[index] is not None:
            on_board = cells[index]
            index = _next_square(index, step)
            if on_board.letter == tile.letter:
                break
        else:
            if index < 0:
                raise MoveError(gettext_noop("Les lettres tapées sortent de la grille."))
            placements[index] = tile
            index = _next_square(index, step)
    return placements


def _next_square(index: int, step: int) -> int:
    """The square after `index` along the line, or -1 past the edge."""
    if index < 0 or not _has_next(index, step):
        return -1
    return index + step
