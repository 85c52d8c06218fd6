"""The top finder: every legal move for a rack on a board, scored and ranked (issue 6).

Moves are found with the GADDAG of `scoring.engine.gaddag` (Gordon 1994): from each anchor square (an empty square next
to a tile, or H8 on an empty board) the generator lays tiles leftwards, turns once, then lays them rightwards,
only ever following letters that lead to a word, and only laying a letter that the cross-check of its square
allows (the words across the line it would form). Going left it never lays a tile on another anchor, so each move
is found once, from the leftmost anchor it covers.

The score is counted along the way with the arithmetic of `Board.evaluate` (facts §2): letter values times the
letter premiums under new tiles, times the word premiums under new tiles, each cross word counted whole, a blank
worth 0, and the bonus when exactly `rules.rack_size` tiles are laid. The tests check every score against
`Board.evaluate`; `top_moves` hands back `Board.evaluate`'s own plays.

Ties between equal scores (FISF duplicate règlement §3.4): a move that ends the game (the bag is empty and it
lays the whole rack) first, then the one with fewer blanks; then our own fixed choice, since "le plus apte à
ouvrir le jeu" has no definition: horizontal first, then by start square (row, then column), then by word.

A single tile that forms a word both ways is one move, listed once, as the horizontal one (as in grid mode).

`generate_moves` hands back light `Candidate`s (a rack with two blanks has some 20,000 moves, which `Board.evaluate`
would take about half a second to turn into plays), in a `Moves` list that makes each one when it is read (callers
read the first few: making all 20,000 took longer than finding them); `Candidate.play` and `top_moves` give the full
`Play` with its words and calculations. A rack holds up to 9 tiles (the original formats), and no more of a letter,
blanks included, than the edition's set has; a move lays at most `rules.rack_size` of them, as `Board.evaluate`
allows.

The search runs as compiled code (`scoring.engine.movegen_kernel`, numba over the GADDAG's flat array, issue 14):
medians of about 0.5 / 3 / 15 ms a rack with 0 / 1 / 2 blanks on the Eliot positions (README, Benchmarks), where the
pure-Python generator it is tested against, `tests/scoring/movegen_reference.py`, takes 5 / 45 / 215 ms. The first
search in a process loads the machine code from the cache directory (0.3 s), or compiles it once for the machine
(7 s) and saves it: the site does both when it is installed and when a server process starts
(`scoring.warmup`, issue 22), so that no user's search waits for them.

The cost of a search grows steeply with the blanks and the tiles of the rack: two blanks among nine tiles can
find half a million moves. A caller that answers someone waiting uses `best_moves` or `words_from_letters` with a
`time_limit`: past it the search stops and raises `OutOfTime` with what it had found, ranked as usual. The top
finder reads the clock after each anchor square once a few milliseconds of work have passed since the last reading.
"""

import functools
import operator
from collections.abc import Sequence
from time import monotonic
from typing import NamedTuple

import numpy as np

from .board import SIZE, format_coordinate
from .editions import BLANK, Edition
from .errors import NotationError, ScoringError, gettext_noop
from .gaddag import Gaddag
from .moves import Board, Move, Play, Tile
from .rules import DEFAULT_RULES, RuleSet

MAX_RACK = 9  # the original formats' 7-sur-8 and 7-8-9 (facts §4)
# How often a search looks at the clock: every this many moves or words found (a power of two less one).
_CLOCK_MASK = 1023


class OutOfTime(ScoringError):
    """A search stopped at its time limit; `found` is what it would have returned, from the part searched."""

    def __init__(self, template: str, found: "list[FoundWord] | Ranking"):
        super().__init__(template)
        self.found = found


_MOVES_CUT_SHORT = gettext_noop(
    "Recherche arrêtée faute de temps : seuls les coups trouvés jusque-là sont comptés, le meilleur peut y manquer."
)


class _Stop(Exception):
    """Raised inside a search when its deadline has passed."""


def _deadline(time_limit: float | None) -> float | None:
    return None if time_limit is None else monotonic() + time_limit


class Candidate(NamedTuple):
    """A legal move and its score. `word` is written whole, as notation writes it (lowercase: a blank)."""

    score: int
    row: int
    col: int
    horizontal: bool
    word: str
    tiles_placed: int
    blanks: int
    ends_game: bool

    @property
    def coordinate(self) -> str:
        return format_coordinate(self.row, self.col, self.horizontal)

    @property
    def notation(self) -> str:
        return f"{self.coordinate} {self.word}"

    def move(self, edition: Edition) -> Move:
        tiles = tuple(Tile(letter, blank) for letter, blank in edition.split(self.word))
        return Move(self.row, self.col, self.horizontal, tiles)

    def play(self, board: Board, edition: Edition, rules: RuleSet = DEFAULT_RULES) -> Play:
        """The move validated and scored by `Board.evaluate`, with its words and their calculations."""
        return board.evaluate(self.move(edition), edition, rules)


class Ranking(NamedTuple):
    """The first moves of a search, best first, and how many legal moves it found in all."""

    moves: list[Candidate]
    count: int


class FoundWord(NamedTuple):
    """A word the letters make: `word` with lowercase letters for blanks, each tile's value, their sum."""

    word: str
    values: tuple[int, ...]
    total: int


def generate_moves(
    board: Board,
    rack: str,
    edition: Edition,
    index: Gaddag,
    rules: RuleSet = DEFAULT_RULES,
    *,
    bag_empty: bool = False,
) -> "Moves":
    """Every legal move of `rack` (letters, `?` for a blank) on `board`, best first (see the module's ties), as
    a list of `Candidate`s made when they are read (`Moves`)."""
    return _search(board, rack, edition, index, rules, bag_empty, None).moves


def best_moves(
    board: Board,
    rack: str,
    edition: Edition,
    index: Gaddag,
    rules: RuleSet = DEFAULT_RULES,
    *,
    limit: int | None,
    time_limit: float | None = None,
    bag_empty: bool = False,
) -> Ranking:
    """The `limit` best moves of `rack` on `board` (all of them for None) and the count of all, without ranking
    every move found.

    With `time_limit` (seconds), a search still running then stops and raises `OutOfTime` with the `Ranking` of
    the moves found.
    """
    found = _search(board, rack, edition, index, rules, bag_empty, _deadline(time_limit))
    ranking = Ranking(found.candidates(limit), found.count)
    if not found.complete:
        raise OutOfTime(_MOVES_CUT_SHORT, ranking)
    return ranking


def top_moves(
    board: Board,
    rack: str,
    edition: Edition,
    index: Gaddag,
    rules: RuleSet = DEFAULT_RULES,
    *,
    limit: int = 1,
    bag_empty: bool = False,
) -> list[Play]:
    """The `limit` best moves as `Board.evaluate` plays them; the first is the duplicate's top (FISF §3.4)."""
    found = _search(board, rack, edition, index, rules, bag_empty, None)
    return [candidate.play(board, edition, rules) for candidate in found.candidates(limit)]


def words_from_letters(
    letters: str, edition: Edition, index: Gaddag, *, time_limit: float | None = None
) -> list[FoundWord]:
    """Every listed word of two letters or more that `letters` make (`?`: a blank, worth 0), longest first.

    A word is listed once: its letters are taken from the real tiles where there are enough, from the blanks
    for the rest (so its sum is the highest it can be), the blanks standing for the last such letters. Among
    words of one length the highest sum comes first, then alphabetical order. With `time_limit` (seconds), a
    search still running then stops and raises `OutOfTime` with the words found.
    """
    deadline = _deadline(time_limit)
    codes, blanks = read_rack(letters, edition, index.alphabet)
    alphabet = index.alphabet
    counts = [0] * len(alphabet)
    for code in codes:
        counts[code] += 1
    values = [edition.values.get(letter, 0) for letter in alphabet]
    nodes = index.nodes
    final_bit = index.final_bit
    found: list[list[int]] = []

    def extend(node: int, word: list[int], blanks_left: int) -> None:
        mask = nodes[node]
        if mask & final_bit and len(word) >= 2:
            found.append(word.copy())
            if deadline is not None and not len(found) & _CLOCK_MASK and monotonic() > deadline:
                raise _Stop
        elif deadline is not None and len(word) == 1 and monotonic() > deadline:
            raise _Stop
        edge = node
        for code in range(len(alphabet)):
            if not mask >> code & 1:
                continue
            edge += 1
            if counts[code]:
                counts[code] -= 1
                word.append(code)
                extend(nodes[edge], word, blanks_left)
                word.pop()
                counts[code] += 1
            elif blanks_left:
                word.append(code)
                extend(nodes[edge], word, blanks_left - 1)
                word.pop()

    try:
        extend(index.dawg_root, [], blanks)
    except _Stop:
        complete = False
    else:
        complete = True
    words = [_with_blanks(word, codes, alphabet, values) for word in found]
    words.sort(key=lambda found_word: (-len(found_word.values), -found_word.total, found_word.word))
    if not complete:
        raise OutOfTime(
            gettext_noop("Recherche arrêtée faute de temps : seuls les mots trouvés jusque-là sont listés."), words
        )
    return words


def _with_blanks(word: list[int], rack_codes: list[int], alphabet, values) -> FoundWord:
    """The word with blanks on the last letters the real tiles do not cover."""
    available = [0] * len(alphabet)
    for code in rack_codes:
        available[code] += 1
    blank_at = set()
    for position in range(len(word) - 1, -1, -1):
        needed = sum(1 for code in word[: position + 1] if code == word[position])
        if needed > available[word[position]]:
            blank_at.add(position)
    letters = [alphabet[code].lower() if i in blank_at else alphabet[code] for i, code in enumerate(word)]
    tile_values = tuple(0 if i in blank_at else values[code] for i, code in enumerate(word))
    return FoundWord("".join(letters), tile_values, sum(tile_values))


def read_rack(rack: str, edition: Edition, alphabet) -> tuple[list[int], int]:
    """Letter codes of the rack's tiles and its number of blanks (`?`), read as the edition reads a word.

    The letters and blanks are those a draw can give: at most `MAX_RACK`, and no more of one than the set has
    (a search's cost grows steeply with them)."""
    tables = _tables(edition, alphabet)
    if tables.code_of is not None:
        # The usual rack, capital letters of an edition whose tiles are all one letter: read it here.
        codes = []
        blanks = 0
        for character in rack:
            code = tables.code_of.get(character)
            if code is not None:
                codes.append(code)
            elif character == BLANK:
                blanks += 1
            else:
                break
        else:
            if len(codes) + blanks <= MAX_RACK and blanks <= tables.blanks_in_set:
                in_set = tables.in_set
                if all(codes.count(code) <= in_set[code] for code in codes):
                    return codes, blanks
    return _read_rack(rack, edition, alphabet)


def _read_rack(rack: str, edition: Edition, alphabet) -> tuple[list[int], int]:
    """`read_rack` for any rack, with the message of what is wrong with it."""
    text = "".join(rack.split()).upper()  # lowercase would mean a blank in a written word, not in a rack
    blanks = text.count(BLANK)
    code_of = {letter: code for code, letter in enumerate(alphabet)}
    letters: list[str] = []
    for run in text.split(BLANK):
        # Counted here, whatever their number: a word's limit (15 tiles) is not a rack's.
        for letter, blank in edition.split(run, max_tiles=None) if run else ():
            if blank or letter not in code_of:
                raise NotationError(gettext_noop("La lettre « %(letter)s » n'existe pas dans ce jeu."), letter=letter)
            letters.append(letter)
    if len(letters) + blanks > MAX_RACK:
        raise NotationError(
            gettext_noop("Le tirage compte %(count)d lettres : %(size)d au plus, jokers compris."),
            count=len(letters) + blanks,
            size=MAX_RACK,
        )
    edition.check_in_set(letters + [BLANK] * blanks)
    return [code_of[letter] for letter in letters], blanks


class _Tables:
    """What a search needs of an edition and an alphabet, worked out once for both (`_tables`)."""

    __slots__ = ("code_of", "in_set", "blanks_in_set", "letter_values", "_edition", "_alphabet", "_squares")

    def __init__(self, edition: Edition, alphabet):
        counts = edition.counts()
        single = all(len(spec.letter) == 1 for spec in edition.letters) and all(
            len(letter) == 1 and letter.isupper() and letter in edition.values for letter in alphabet
        )
        # Each letter's code, when every letter is one character and a capital (`read_rack` then reads it).
        self.code_of: dict[str, int] | None = _codes(alphabet) if single else None
        self.in_set = [counts.get(letter, 0) for letter in alphabet]  # how many of each letter the set has
        self.blanks_in_set = counts[BLANK]
        self.letter_values = np.array([edition.values.get(letter, 0) for letter in alphabet], dtype=np.int64)
        self._edition, self._alphabet = edition, alphabet
        self._squares: _Squares | None = None

    @property
    def squares(self) -> "_Squares":
        """A board's cell (a Tile or None) → what the kernel reads of it; made on the first search, since it
        imports the kernel (which `words_from_letters` never needs)."""
        if self._squares is None:
            self._squares = _Squares(self._edition, self._alphabet)
        return self._squares


class _Squares(dict):
    """A square's tile → the kernel's number for it (`movegen_kernel.pack_square`), -1 for an empty square;
    worked out on first sight for a tile outside the alphabet."""

    def __init__(self, edition: Edition, alphabet):
        super().__init__()
        self.edition = edition
        self.code_of = _codes(alphabet)
        self.unknown = len(alphabet) + 2  # a code no mask has: no word runs through it
        self[None] = -1
        for letter in alphabet:
            for blank in (False, True):
                self[Tile(letter, blank)] = self.__missing__(Tile(letter, blank))

    def __missing__(self, tile: Tile) -> int:
        code = self.code_of.get(tile.letter, self.unknown)
        symbol = 2 * code + tile.blank if code != self.unknown else 0
        packed = _kernel().pack_square(code, symbol, self.edition.value(tile.letter, tile.blank))
        self[tile] = packed
        return packed


# (id(edition), id(alphabet)) → (edition, alphabet, their tables): editions and alphabets live as long as the
# process (built-in editions, the index's alphabet) or are few; the first two are kept so that the ids stay theirs.
_TABLES: dict[tuple[int, int], tuple[Edition, tuple, _Tables]] = {}
_MAX_TABLES = 64


def _tables(edition: Edition, alphabet) -> _Tables:
    entry = _TABLES.get((id(edition), id(alphabet)))
    if entry is not None and entry[0] is edition and entry[1] is alphabet:
        return entry[2]
    if len(_TABLES) >= _MAX_TABLES:
        _TABLES.clear()
    tables = _Tables(edition, alphabet)
    _TABLES[id(edition), id(alphabet)] = (edition, alphabet, tables)
    return tables


class Moves(Sequence[Candidate]):
    """The moves of a search, best first: a read-only list of `Candidate`s, each made when it is first read.

    A rack with two blanks has some 20,000 moves, found, scored and ranked by the compiled kernel in one table;
    most callers read the first few, so a `Candidate` (and its word, as a `str`) is made only for what is read:
    by index or slice one at a time, all of them at once by iteration or comparison. It compares equal to a list
    of the same candidates."""

    __slots__ = ("_table", "_joined", "_all")

    def __init__(self, table: "np.ndarray", joined: "np.ndarray"):
        self._table = table  # the kernel's REC_ columns, in rank order; words as slices of `joined`
        self._joined = joined  # the words' code points, in rank order, one separator between two
        self._all: list[Candidate] | None = None

    def __len__(self) -> int:
        return len(self._table)

    def __getitem__(self, item):
        if self._all is not None:
            return self._all[item]
        if isinstance(item, slice):
            start, stop, step = item.indices(len(self._table))
            if step != 1:
                return self.all()[item]
            return self._candidates(start, max(start, stop))
        count = len(self._table)
        position = operator.index(item)
        if position < 0:
            position += count
        if not 0 <= position < count:
            raise IndexError("Moves index out of range")
        return self._candidates(position, position + 1)[0]

    def __iter__(self):
        return iter(self.all())

    def __eq__(self, other):
        if isinstance(other, Moves):
            other = other.all()
        return self.all() == other if isinstance(other, list) else NotImplemented

    __hash__ = None

    def __repr__(self) -> str:
        return repr(self.all())

    def all(self) -> list[Candidate]:
        """Every move as a `Candidate`, made once."""
        if self._all is None:
            self._all = self._candidates(0, len(self._table))
        return self._all

    def _candidates(self, start: int, stop: int) -> list[Candidate]:
        if start >= stop:
            return []
        kernel = _kernel()
        moves = self._table[start:stop]
        first = int(moves[0, kernel.REC_WORD_START])
        end = int(moves[-1, kernel.REC_WORD_START] + moves[-1, kernel.REC_WORD_LENGTH])
        words = self._joined[first:end].astype("<u4", copy=False).tobytes().decode("utf-32-le")
        columns = moves.T.tolist()
        return list(
            map(
                _new_candidate,
                zip(
                    columns[kernel.REC_SCORE],
                    columns[kernel.REC_ROW],
                    columns[kernel.REC_COL],
                    (moves[:, kernel.REC_VERTICAL] == 0).tolist(),
                    words.split(_WORD_SEPARATOR),
                    columns[kernel.REC_PLACED],
                    columns[kernel.REC_BLANKS],
                    (moves[:, kernel.REC_ENDS] == 0).tolist(),
                    strict=True,
                ),
            )
        )


class _Found(NamedTuple):
    """What a search found: its moves, best first, and whether it searched every anchor."""

    moves: Moves
    complete: bool

    @property
    def count(self) -> int:
        return len(self.moves)

    def candidates(self, limit: int | None = None) -> list[Candidate]:
        return self.moves[:limit]


# Candidate(*fields) goes through a Python-level __new__; tuple.__new__ builds the same tuple in C, which counts
# when a rack with two blanks has 20,000 moves.
_new_candidate = functools.partial(tuple.__new__, Candidate)
_WORD_SEPARATOR = "\n"


_searched = False  # whether this process has searched: its first search is not timed


@functools.cache
def _kernel():
    """The compiled kernel, imported on the first search: numba and LLVM cost a process that never searches
    some 0.3 s and 40 MB."""
    from . import movegen_kernel

    return movegen_kernel


def _search(
    board: Board, rack: str, edition: Edition, index: Gaddag, rules: RuleSet, bag_empty: bool, deadline: float | None
) -> _Found:
    """Every legal move, ranked (see the module's ties), found by the compiled kernel one batch of anchors at a
    time; with a `deadline` (a `time.monotonic()` value) the clock is read between batches and a search past it
    stops with what it found."""
    kernel = _kernel()
    global _searched
    if deadline is not None and not _searched:
        # A process's first search loads the kernel's machine code (0.3 s), or compiles it once a machine (some
        # seconds): that is not the search's time, which its deadline bounds.
        deadline = None
    _searched = True
    alphabet = index.alphabet
    codes, blank_count = read_rack(rack, edition, alphabet)
    tables = _tables(edition, alphabet)
    letter_count = len(alphabet)
    counts = np.zeros(letter_count, dtype=np.int64)
    rack_mask = 0
    for code in codes:
        counts[code] += 1
        rack_mask |= 1 << code
    rack_length = len(codes) + blank_count
    parameters = np.zeros(kernel.PARAMETERS, dtype=np.int64)
    parameters[kernel.P_ROOT] = index.root
    parameters[kernel.P_DAWG_ROOT] = index.dawg_root
    parameters[kernel.P_LETTERS] = letter_count
    parameters[kernel.P_MAX_PLACED] = min(rack_length, rules.rack_size)
    parameters[kernel.P_BINGO_SIZE] = rules.rack_size
    parameters[kernel.P_BINGO_BONUS] = rules.bingo_bonus
    parameters[kernel.P_ENDS_SIZE] = rack_length if bag_empty else -1
    parameters[kernel.P_BLANKS] = blank_count
    parameters[kernel.P_RACK_MASK] = rack_mask
    parameters[kernel.P_EMPTY_BOARD] = board.tile_count == 0
    nodes = np.frombuffer(index.nodes, dtype=f"u{index.nodes.itemsize}")
    squares = np.fromiter(map(tables.squares.__getitem__, board.cells), dtype=np.int64, count=SIZE * SIZE)
    lines = kernel.prepare_lines(nodes, parameters, squares)
    letter_values = tables.letter_values
    spellings = _spellings(alphabet)
    capacity = _FIRST_CAPACITY << 3 * min(blank_count, 2)  # the bench's median counts: 440, 4,500, 20,000
    moves = np.empty((capacity, kernel.REC_FIELDS), dtype=np.int64)
    words = np.empty(capacity * 8, dtype=np.int32)
    counters = np.zeros(kernel.COUNTERS, dtype=np.int64)
    budget = _NO_BUDGET if deadline is None else _STEPS_BETWEEN_CLOCK_READS
    chunk = 0
    complete = True
    while True:
        chunk = kernel.search_chunks(
            chunk, budget, nodes, lines, parameters, counts, letter_values, moves, words, spellings, counters
        )
        if counters[kernel.S_FULL]:
            counters[kernel.S_FULL] = 0
            moves = _grown(moves, counters[kernel.S_MOVES])
            words = _grown(words, counters[kernel.S_CODE_POINTS])
            continue
        if chunk == kernel.CHUNKS:
            break
        if monotonic() > deadline:
            complete = False
            break
    count = int(counters[kernel.S_MOVES])
    keys = kernel.sort_keys(moves, words, count, *_point_ranks(alphabet))
    order = np.argsort(keys)
    ranked, joined = kernel.rank(moves, words, keys, order, ord(_WORD_SEPARATOR))
    return _Found(Moves(ranked, joined), complete)


# With a deadline, the kernel hands back control after this many steps of its search (at the end of an anchor)
# so that the clock can be read: a few milliseconds of work.
_STEPS_BETWEEN_CLOCK_READS = 20_000
_NO_BUDGET = 1 << 62
# Moves the table holds at first, times 8 for each blank; it grows fourfold when a search fills it.
_FIRST_CAPACITY = 1024


def _grown(array: "np.ndarray", used: int) -> "np.ndarray":
    """A copy of `array` four times as long, with its first `used` rows."""
    bigger = np.empty((4 * len(array), *array.shape[1:]), dtype=array.dtype)
    bigger[:used] = array[:used]
    return bigger


@functools.cache
def _codes(alphabet: tuple[str, ...]) -> dict[str, int]:
    return {letter: code for code, letter in enumerate(alphabet)}


@functools.cache
def _point_ranks(alphabet: tuple[str, ...]) -> tuple["np.ndarray", int]:
    """For each code point a word may hold, its rank among them from 1, in code point order; and the bits a rank
    takes. Words compare by these ranks as Python compares them by code points."""
    points = sorted({ord(character) for letter in alphabet for character in letter + letter.lower()})
    ranks = np.zeros(points[-1] + 1, dtype=np.int64)
    for rank, point in enumerate(points, start=1):
        ranks[point] = rank
    return ranks, len(points).bit_length()


@functools.cache
def _spellings(alphabet: tuple[str, ...]) -> "np.ndarray":
    """For each symbol (code × 2, + 1 for a blank): its length in code points, then those code points."""
    written = [spelling for letter in alphabet for spelling in (letter, letter.lower())]
    table = np.zeros((len(written), 1 + max(map(len, written))), dtype=np.int32)
    for symbol, spelling in enumerate(written):
        table[symbol, 0] = len(spelling)
        table[symbol, 1 : 1 + len(spelling)] = [ord(character) for character in spelling]
    return table
