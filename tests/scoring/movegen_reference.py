"""The top finder in pure Python: the reference the compiled generator (`scoring.engine.movegen_kernel`) is tested
against, move for move, score for score, in the same order of ties. Production code calls `scoring.engine.movegen`.

It walks the GADDAG exactly as the kernel does (see `scoring.engine.movegen` for the method, the scores and the
ties), at CPython's cost per step: some 5 / 45 / 215 ms a rack with 0 / 1 / 2 blanks on the Eliot positions.
"""

from scoring.engine.board import CENTER, LETTER_MULTIPLIERS, SIZE, WORD_MULTIPLIERS
from scoring.engine.editions import Edition
from scoring.engine.gaddag import Gaddag
from scoring.engine.movegen import Candidate, read_rack
from scoring.engine.moves import Board
from scoring.engine.rules import DEFAULT_RULES, RuleSet


def reference_moves(
    board: Board,
    rack: str,
    edition: Edition,
    index: Gaddag,
    rules: RuleSet = DEFAULT_RULES,
    *,
    bag_empty: bool = False,
) -> list[Candidate]:
    """Every legal move of `rack` on `board`, best first: what `movegen.generate_moves` must return."""
    records: list[tuple] = []
    _search(records, board, rack, edition, index, rules, bag_empty)
    records.sort()
    return [_candidate(record) for record in records]


def _candidate(record: tuple) -> Candidate:
    negative_score, ends_flag, blanks, vertical, row, col, word, placed = record
    return Candidate(-negative_score, row, col, not vertical, word, placed, blanks, not ends_flag)


def _search(
    records: list,
    board: Board,
    rack: str,
    edition: Edition,
    index: Gaddag,
    rules: RuleSet,
    bag_empty: bool,
) -> None:
    """Append every legal move as a tuple that sorts in rank order to `records`:
    (-score, 0 if it ends the game else 1, blanks, 1 if vertical else 0, row, col, word, tiles placed)."""
    alphabet = index.alphabet
    codes, blank_count = read_rack(rack, edition, alphabet)
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
        # board leftwards first.
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
