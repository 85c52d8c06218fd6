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

`generate_moves` hands back light `Candidate`s (a rack with two blanks has some 20,000 moves, which
`Board.evaluate` would take about half a second to turn into plays); `Candidate.play` and `top_moves` give the
full `Play` with its words and calculations. A rack holds up to 9 tiles (the original formats), and no more of a
letter, blanks included, than the edition's set has; a move lays at most `rules.rack_size` of them, as
`Board.evaluate` allows.

The cost of a search grows steeply with the blanks and the tiles of the rack: two blanks among nine tiles can
take seconds and find half a million moves. A caller that answers someone waiting uses `best_moves` (which ranks
only the first moves) or `words_from_letters` with a `time_limit`: past it the search stops and raises `OutOfTime`
with what it had found, ranked as usual.
"""

import heapq
from time import monotonic
from typing import NamedTuple

from .board import CENTER, LETTER_MULTIPLIERS, SIZE, WORD_MULTIPLIERS, format_coordinate
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
) -> list[Candidate]:
    """Every legal move of `rack` (letters, `?` for a blank) on `board`, best first (see the module's ties)."""
    records, _complete = _records(board, rack, edition, index, rules, bag_empty, None)
    records.sort()
    return [_candidate(record) for record in records]


def best_moves(
    board: Board,
    rack: str,
    edition: Edition,
    index: Gaddag,
    rules: RuleSet = DEFAULT_RULES,
    *,
    limit: int,
    time_limit: float | None = None,
) -> Ranking:
    """The `limit` best moves of `rack` on `board` and the count of all, without ranking every move found.

    With `time_limit` (seconds), a search still running then stops and raises `OutOfTime` with the `Ranking` of
    the moves found.
    """
    records, complete = _records(board, rack, edition, index, rules, False, _deadline(time_limit))
    ranking = Ranking([_candidate(record) for record in heapq.nsmallest(limit, records)], len(records))
    if not complete:
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
    records, _complete = _records(board, rack, edition, index, rules, bag_empty, None)
    best = heapq.nsmallest(limit, records)
    return [_candidate(record).play(board, edition, rules) for record in best]


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
    codes, blanks = _read_rack(letters, edition, index.alphabet)
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


def _read_rack(rack: str, edition: Edition, alphabet) -> tuple[list[int], int]:
    """Letter codes of the rack's tiles and its number of blanks (`?`), read as the edition reads a word.

    The letters and blanks are those a draw can give: at most `MAX_RACK`, and no more of one than the set has
    (a search's cost grows steeply with them)."""
    text = "".join(rack.split()).upper()  # lowercase would mean a blank in a written word, not in a rack
    blanks = text.count(BLANK)
    code_of = {letter: code for code, letter in enumerate(alphabet)}
    letters: list[str] = []
    for run in text.split(BLANK):
        for letter, blank in edition.split(run) if run else ():
            if blank or letter not in code_of:
                raise NotationError(gettext_noop("La lettre « %(letter)s » n'existe pas dans ce jeu."), letter=letter)
            letters.append(letter)
    if len(letters) + blanks > MAX_RACK:
        raise NotationError(
            gettext_noop("Le tirage « %(text)s » compte plus de %(size)d lettres."), text=text, size=MAX_RACK
        )
    edition.check_in_set(letters + [BLANK] * blanks)
    return [code_of[letter] for letter in letters], blanks


def _candidate(record: tuple) -> Candidate:
    negative_score, ends_flag, blanks, vertical, row, col, word, placed = record
    return Candidate(-negative_score, row, col, not vertical, word, placed, blanks, not ends_flag)


def _records(
    board: Board, rack: str, edition: Edition, index: Gaddag, rules: RuleSet, bag_empty: bool, deadline: float | None
) -> tuple[list, bool]:
    """Every legal move as a tuple that sorts in rank order:
    (-score, 0 if it ends the game else 1, blanks, 1 if vertical else 0, row, col, word, tiles placed),
    and whether the search went to its end (False: stopped at `deadline`, a `time.monotonic()` value)."""
    records: list[tuple] = []
    try:
        _search(records, board, rack, edition, index, rules, bag_empty, deadline)
    except _Stop:
        return records, False
    return records, True


def _search(
    records: list,
    board: Board,
    rack: str,
    edition: Edition,
    index: Gaddag,
    rules: RuleSet,
    bag_empty: bool,
    deadline: float | None,
) -> None:
    """Append every legal move's record (see `_records`) to `records`; raise `_Stop` once `deadline` passes."""
    alphabet = index.alphabet
    codes, blank_count = _read_rack(rack, edition, alphabet)
    letter_count = len(alphabet)
    counts = [0] * letter_count
    for code in codes:
        counts[code] += 1
    rack_length = len(codes) + blank_count
    max_placed = min(rack_length, rules.rack_size)
    bingo_size = rules.rack_size
    bingo_bonus = rules.bingo_bonus
    ends_size = rack_length if bag_empty else -1
    values = [edition.values.get(letter, 0) for letter in alphabet]
    upper = list(alphabet)
    lower = [letter.lower() for letter in alphabet]
    nodes = index.nodes
    separator_bit = index.separator_bit
    final_bit = index.final_bit
    letter_mask = index.letter_mask
    initial_rack_mask = 0
    for code in codes:
        initial_rack_mask |= 1 << code

    record = records.append
    lines = _Lines(board, index, edition)

    # The line being searched, set before its anchors are tried and read by the closures below. `text` holds
    # each square's letter as notation writes it: the board's, or the one laid there on the current path.
    tile = tile_value = cross_allowed = cross_base = cross_factor = letter_premium = word_premium = is_anchor = ()
    text: list[str] = []
    vertical = line = anchor = after_anchor = 0
    single_tile_listed = True

    def leftwards(pos, node, mask, main, multiplier, cross, placed, blanks_left, rack_mask):
        # Squares pos+1 … anchor are laid or read and lead to `node`, whose mask is `mask`. Read the tiles on the
        # board leftwards first. Every path starts here, so the clock is read here (a dead end may go on long after
        # the last move found).
        if deadline is not None and monotonic() > deadline:
            raise _Stop
        while pos >= 0:
            on_board = tile[pos]
            if on_board < 0:
                break
            if not mask >> on_board & 1:
                return
            node = nodes[node + 1 + (mask & ((1 << on_board) - 1)).bit_count()]
            mask = nodes[node]
            main += tile_value[pos]
            pos -= 1
        if mask & separator_bit:
            turned = nodes[node + 1 + (mask & letter_mask).bit_count()]
            turned_mask = nodes[turned]
            if turned_mask & after_anchor:
                rightwards(
                    anchor + 1,
                    turned,
                    turned_mask,
                    pos + 1,
                    main,
                    multiplier,
                    cross,
                    placed,
                    blanks_left,
                    rack_mask,
                )
        if pos < 0 or is_anchor[pos] or placed == max_placed:
            return
        candidates = mask & cross_allowed[pos]
        if not blanks_left:
            candidates &= rack_mask
        if not candidates:
            return
        premium = letter_premium[pos]
        factor = cross_factor[pos]
        multiplier *= word_premium[pos]
        cross += cross_base[pos]
        placed += 1
        following = pos - 1
        # Where the next square is empty, a child that can neither turn nor take a tile there is not visited.
        if following < 0:
            useful = separator_bit
        elif tile[following] >= 0:
            useful = -1
        elif is_anchor[following] or placed == max_placed:
            useful = separator_bit
        else:
            useful = separator_bit | cross_allowed[following]
        while candidates:
            bit = candidates & -candidates
            candidates ^= bit
            code = bit.bit_length() - 1
            child = nodes[node + 1 + (mask & (bit - 1)).bit_count()]
            child_mask = nodes[child]
            if not child_mask & useful:
                continue
            if counts[code]:
                counts[code] -= 1
                value = values[code] * premium
                text[pos] = upper[code]
                leftwards(
                    following,
                    child,
                    child_mask,
                    main + value,
                    multiplier,
                    cross + value * factor,
                    placed,
                    blanks_left,
                    rack_mask if counts[code] else rack_mask ^ bit,
                )
                counts[code] += 1
            if blanks_left:
                text[pos] = lower[code]
                leftwards(following, child, child_mask, main, multiplier, cross, placed, blanks_left - 1, rack_mask)

    def rightwards(pos, node, mask, start, main, multiplier, cross, placed, blanks_left, rack_mask):
        # Squares start … pos-1 are laid or read and lead to `node`, whose mask is `mask`. Read the tiles on the
        # board rightwards first.
        while pos < SIZE:
            on_board = tile[pos]
            if on_board < 0:
                break
            if not mask >> on_board & 1:
                return
            node = nodes[node + 1 + (mask & ((1 << on_board) - 1)).bit_count()]
            mask = nodes[node]
            main += tile_value[pos]
            pos += 1
        if mask & final_bit and pos - start >= 2 and (placed > 1 or single_tile_listed):
            score = main * multiplier + cross + (bingo_bonus if placed == bingo_size else 0)
            record(
                (
                    -score,
                    0 if placed == ends_size else 1,
                    blank_count - blanks_left,
                    vertical,
                    start if vertical else line,
                    line if vertical else start,
                    "".join(text[start:pos]),
                    placed,
                )
            )
            if deadline is not None and not len(records) & _CLOCK_MASK and monotonic() > deadline:
                raise _Stop
        if pos == SIZE or placed == max_placed:
            return
        candidates = mask & cross_allowed[pos]
        if not blanks_left:
            candidates &= rack_mask
        if not candidates:
            return
        premium = letter_premium[pos]
        factor = cross_factor[pos]
        multiplier *= word_premium[pos]
        cross += cross_base[pos]
        placed += 1
        following = pos + 1
        # Where the next square is empty, a child that can neither end a word nor take a tile there is not visited.
        if following == SIZE:
            useful = final_bit
        elif tile[following] >= 0:
            useful = -1
        elif placed == max_placed:
            useful = final_bit
        else:
            useful = final_bit | cross_allowed[following]
        while candidates:
            bit = candidates & -candidates
            candidates ^= bit
            code = bit.bit_length() - 1
            child = nodes[node + 1 + (mask & (bit - 1)).bit_count()]
            child_mask = nodes[child]
            if not child_mask & useful:
                continue
            if counts[code]:
                counts[code] -= 1
                value = values[code] * premium
                text[pos] = upper[code]
                rightwards(
                    following,
                    child,
                    child_mask,
                    start,
                    main + value,
                    multiplier,
                    cross + value * factor,
                    placed,
                    blanks_left,
                    rack_mask if counts[code] else rack_mask ^ bit,
                )
                counts[code] += 1
            if blanks_left:
                text[pos] = lower[code]
                rightwards(
                    following, child, child_mask, start, main, multiplier, cross, placed, blanks_left - 1, rack_mask
                )

    root = index.root
    root_mask = nodes[root]
    for vertical, line in lines.searched():
        tile, tile_value, cross_allowed, cross_base, cross_factor, letter_premium, word_premium, is_anchor, text = (
            lines.line(vertical, line)
        )
        for anchor in range(SIZE):
            if not is_anchor[anchor]:
                continue
            # Every move found from this anchor covers it: lay each possible tile there first.
            single_tile_listed = not vertical or cross_factor[anchor] == 0
            # What a right part must allow to be worth a visit: ending there, or reading or laying the next tile.
            if anchor + 1 == SIZE:
                after_anchor = final_bit
            elif tile[anchor + 1] >= 0:
                after_anchor = -1
            else:
                after_anchor = final_bit | cross_allowed[anchor + 1]
            candidates = root_mask & cross_allowed[anchor]
            if not blank_count:
                candidates &= initial_rack_mask
            premium = letter_premium[anchor]
            times = word_premium[anchor]
            base = cross_base[anchor]
            factor = cross_factor[anchor]
            while candidates:
                bit = candidates & -candidates
                candidates ^= bit
                code = bit.bit_length() - 1
                child = nodes[root + 1 + (root_mask & (bit - 1)).bit_count()]
                if counts[code]:
                    counts[code] -= 1
                    value = values[code] * premium
                    text[anchor] = upper[code]
                    leftwards(
                        anchor - 1,
                        child,
                        nodes[child],
                        value,
                        times,
                        base + value * factor,
                        1,
                        blank_count,
                        initial_rack_mask if counts[code] else initial_rack_mask ^ bit,
                    )
                    counts[code] += 1
                if blank_count:
                    text[anchor] = lower[code]
                    leftwards(anchor - 1, child, nodes[child], 0, times, base, 1, blank_count - 1, initial_rack_mask)


class _Lines:
    """The 30 lines of the board as the generator reads them: rows (horizontal moves), then columns.

    For each square of a line: the code of the tile on it (-1 when empty) and its value (0 for a blank); for an
    empty one, the letters its cross-check allows (those that make the perpendicular word a listed one, every
    letter where no such word is formed) and that word's share of the score: `cross_base` (its other tiles'
    sum times the square's word premium) plus the new tile's value, letter premium included, times
    `cross_factor` (the word premium, or 0 when no perpendicular word is formed).
    """

    def __init__(self, board: Board, index: Gaddag, edition: Edition):
        self.index = index
        codes = {letter: code for code, letter in enumerate(index.alphabet)}
        unknown = len(index.alphabet) + 2  # a bit no mask has: no word runs through a letter outside the set
        cells = board.cells
        self.codes = [-1 if tile is None else codes.get(tile.letter, unknown) for tile in cells]
        self.text = ["" if tile is None else tile.written for tile in cells]
        self.values = [0 if tile is None else edition.value(tile.letter, tile.blank) for tile in cells]
        occupied = [tile is not None for tile in cells]
        if board.tile_count == 0:
            self.anchors = [square == CENTER for square in range(SIZE * SIZE)]
        else:
            self.anchors = [
                not occupied[square]
                and (
                    (square % SIZE > 0 and occupied[square - 1])
                    or (square % SIZE < SIZE - 1 and occupied[square + 1])
                    or (square >= SIZE and occupied[square - SIZE])
                    or (square < SIZE * (SIZE - 1) and occupied[square + SIZE])
                )
                for square in range(SIZE * SIZE)
            ]

    def searched(self):
        """(vertical, line) for each line with an anchor, rows first."""
        anchors = self.anchors
        for vertical in (0, 1):
            for line in range(SIZE):
                if any(anchors[square] for square in _squares(vertical, line)):
                    yield vertical, line

    def line(self, vertical: int, line: int):
        squares = _squares(vertical, line)
        codes = self.codes
        values = self.values
        tiles = [codes[square] for square in squares]
        word_premium = [WORD_MULTIPLIERS[square] for square in squares]
        allowed = [0] * SIZE
        base = [0] * SIZE
        factor = [0] * SIZE
        for pos in range(SIZE):
            if tiles[pos] >= 0:
                continue
            # The perpendicular line through the square: its squares and this one's place on it.
            across = _squares(1 - vertical, pos)
            before = after = line
            while before > 0 and codes[across[before - 1]] >= 0:
                before -= 1
            while after < SIZE - 1 and codes[across[after + 1]] >= 0:
                after += 1
            if before == after:
                allowed[pos] = self.index.letter_mask
                continue
            above = [codes[s] for s in across[before:line]]
            below = [codes[s] for s in across[line + 1 : after + 1]]
            allowed[pos] = self._cross_check(above, below)
            base[pos] = (sum(values[s] for s in across[before : after + 1])) * word_premium[pos]
            factor[pos] = word_premium[pos]
        return (
            tiles,
            [values[square] for square in squares],
            allowed,
            base,
            factor,
            [LETTER_MULTIPLIERS[square] for square in squares],
            word_premium,
            [self.anchors[square] for square in squares],
            [self.text[square] for square in squares],
        )

    def _cross_check(self, above: list[int], below: list[int]) -> int:
        """The letters c for which the codes `above`, c, then `below` spell a listed word."""
        index = self.index
        child = index.child
        node = index.dawg_root
        for code in above:
            node = child(node, code)
            if node < 0:
                return 0
        nodes = index.nodes
        final_bit = index.final_bit
        mask = nodes[node]
        allowed = 0
        edge = node
        for code in range(len(index.alphabet)):
            if not mask >> code & 1:
                continue
            edge += 1
            follower = nodes[edge]
            for next_code in below:
                follower = child(follower, next_code)
                if follower < 0:
                    break
            else:
                if nodes[follower] & final_bit:
                    allowed |= 1 << code
        return allowed


def _squares(vertical: int, line: int) -> list[int]:
    """The squares of a row (vertical 0) or a column (1), in reading order."""
    return _LINE_SQUARES[vertical][line]


_LINE_SQUARES = (
    [[line * SIZE + pos for pos in range(SIZE)] for line in range(SIZE)],
    [[pos * SIZE + line for pos in range(SIZE)] for line in range(SIZE)],
)
