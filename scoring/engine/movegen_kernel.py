"""The top finder's hot loops compiled by numba: cross-checks, the GADDAG walk, the scores and the ranking.

`scoring.engine.movegen` calls these on flat numpy arrays (the GADDAG's cells as they are, the board as codes);
they follow `tests/scoring/movegen_reference.py`, the pure-Python generator the tests compare them with, step for
step: same anchors, same pruning, same arithmetic, the same order of ties.

numba compiles each function on its first call (a few seconds) and keeps the machine code on disk, under
`$CLUBSITE_CACHE_DIR/numba` (else `~/.cache/clubsite/numba`, the GADDAG's own cache directory), so that a new
process, a gunicorn or Celery worker, only loads it. NUMBA_CACHE_DIR, when set, wins. The cache is keyed by this
file's path and modification time: a deployment compiles once after an update, in `manage.py prepare_search`
(`make setup`, the README's deployment steps), before any user searches.

A search runs in chunks, one anchor square at a time (rows first, then columns, each left to right), so that the
caller can read the clock between calls and stop a long search with what it found; with no deadline, one call
does every anchor. The moves found are rows of an int64 table (the `REC_` columns below) and their words the
code points of their squares, each word a slice of one int32 buffer: when either is full the chunk is abandoned,
and the caller grows the arrays and gives the same chunk again.
"""

import numba
import numpy as np
from numba import njit, types
from numba.extending import intrinsic

from .board import LETTER_MULTIPLIERS, SIZE, WORD_MULTIPLIERS
from .gaddag import cache_dir

if not numba.config.CACHE_DIR:
    # Read when a function below is decorated; the default, beside this file, is often read-only once installed.
    numba.config.CACHE_DIR = str(cache_dir() / "numba")

# The fields of one line's table (`prepare_lines`): for each square of the line, in reading order.
TILE = 0  # the code of the tile on it, -1 when empty (a letter outside the set: a code no mask has)
VALUE = 1  # that tile's value (0 for a blank)
ALLOWED = 2  # for an empty square, the letters its cross-check allows
CROSS_BASE = 3  # the perpendicular word's other tiles times the square's word premium
CROSS_FACTOR = 4  # the square's word premium when a perpendicular word is formed, else 0
LETTER_PREMIUM = 5
WORD_PREMIUM = 6
ANCHOR = 7  # 1 for an anchor square
SYMBOL = 8  # what notation writes there: letter code × 2, plus 1 for a blank
LINE_FIELDS = 9
LINES = 2 * SIZE
CHUNKS = LINES * SIZE  # one per square of each line: rows first, then columns

# The columns of a move's row in the table of moves found.
REC_SCORE = 0
REC_ENDS = 1  # 0 when the move ends the game, else 1 (it sorts first)
REC_BLANKS = 2
REC_VERTICAL = 3
REC_ROW = 4
REC_COL = 5
REC_PLACED = 6
REC_WORD_START = 7  # the word's first code point in the words buffer
REC_WORD_LENGTH = 8
REC_FIELDS = 9

# The search's parameters, one int64 array.
P_ROOT = 0
P_DAWG_ROOT = 1
P_LETTERS = 2  # the alphabet's size A: bits 0…A-1 are letters, A the separator, A+1 the end of a word
P_MAX_PLACED = 3
P_BINGO_SIZE = 4
P_BINGO_BONUS = 5
P_ENDS_SIZE = 6  # the rack's length when the bag is empty, else -1
P_BLANKS = 7
P_RACK_MASK = 8
P_EMPTY_BOARD = 9
# Set by `search_chunks` for the anchor being searched.
P_VERTICAL = 10
P_LINE = 11
P_ANCHOR = 12
P_AFTER_ANCHOR = 13
P_SINGLE_TILE_LISTED = 14
PARAMETERS = 15

# The search's counters, one int64 array kept between calls.
S_MOVES = 0
S_CODE_POINTS = 1
S_STEPS = 2  # calls of the leftward walk, the unit of a chunk's budget
S_FULL = 3  # 1 when the moves' table or the words buffer ran out of room
COUNTERS = 4

_LETTER_MULTIPLIERS = np.array(LETTER_MULTIPLIERS, dtype=np.int64)
_WORD_MULTIPLIERS = np.array(WORD_MULTIPLIERS, dtype=np.int64)


@intrinsic
def _popcount(typingctx, value):
    """The number of bits set: one machine instruction, where Python's int.bit_count() has no numba version."""
    signature = types.int64(types.int64)

    def codegen(context, builder, signature, arguments):
        return builder.ctpop(arguments[0])

    return signature, codegen


@njit(cache=True, inline="always")
def _child(nodes, node, mask, code):
    return np.int64(nodes[node + 1 + _popcount(mask & ((np.int64(1) << code) - 1))])


def pack_square(code: int, symbol: int, value: int) -> int:
    """What `prepare_lines` reads of a square's tile: its code, its symbol and its value in one number (an empty
    square: -1)."""
    return code | symbol << 8 | value << 24


@njit(cache=True)
def _cross_check(nodes, parameters, codes, across, pos, before, line, after):
    """The letters c for which the codes of line `across`'s squares `before`…`line`-1, c, then `line`+1…`after`
    spell a listed word."""
    letters = parameters[P_LETTERS]
    final_bit = np.int64(1) << (letters + 1)
    node = parameters[P_DAWG_ROOT]
    for i in range(before, line):
        code = codes[_square(across, pos, i)]
        mask = np.int64(nodes[node])
        if not (mask >> code) & 1:
            return np.int64(0)
        node = _child(nodes, node, mask, code)
    mask = np.int64(nodes[node])
    allowed = np.int64(0)
    edge = node
    for code in range(letters):
        if not (mask >> code) & 1:
            continue
        edge += 1
        follower = np.int64(nodes[edge])
        for i in range(line + 1, after + 1):
            next_code = codes[_square(across, pos, i)]
            follower_mask = np.int64(nodes[follower])
            if not (follower_mask >> next_code) & 1:
                follower = -1
                break
            follower = _child(nodes, follower, follower_mask, next_code)
        if follower >= 0 and np.int64(nodes[follower]) & final_bit:
            allowed |= np.int64(1) << code
    return allowed


@njit(cache=True, inline="always")
def _square(vertical, line, pos):
    return line * SIZE + pos if vertical == 0 else pos * SIZE + line


@njit(cache=True)
def prepare_lines(nodes, parameters, board):
    """The table of every line (rows, then columns): `lines[vertical * SIZE + line, field, pos]`, from the
    board's squares as `pack_square` gives them."""
    letter_mask = (np.int64(1) << parameters[P_LETTERS]) - 1
    codes = np.empty(SIZE * SIZE, dtype=np.int64)
    values = np.zeros(SIZE * SIZE, dtype=np.int64)
    symbols = np.zeros(SIZE * SIZE, dtype=np.int64)
    for square in range(SIZE * SIZE):
        packed = board[square]
        if packed < 0:
            codes[square] = -1
        else:
            codes[square] = packed & 0xFF
            symbols[square] = (packed >> 8) & 0xFFFF
            values[square] = packed >> 24
    occupied = codes >= 0
    anchors = np.zeros(SIZE * SIZE, dtype=np.bool_)
    for square in range(SIZE * SIZE):
        if parameters[P_EMPTY_BOARD]:
            anchors[square] = square == 7 * SIZE + 7
        elif not occupied[square]:
            row, col = square // SIZE, square % SIZE
            anchors[square] = (
                (col > 0 and occupied[square - 1])
                or (col < SIZE - 1 and occupied[square + 1])
                or (row > 0 and occupied[square - SIZE])
                or (row < SIZE - 1 and occupied[square + SIZE])
            )
    lines = np.zeros((LINES, LINE_FIELDS, SIZE), dtype=np.int64)
    for vertical in range(2):
        for line in range(SIZE):
            table = lines[vertical * SIZE + line]
            for pos in range(SIZE):
                square = _square(vertical, line, pos)
                table[TILE, pos] = codes[square]
                table[VALUE, pos] = values[square]
                table[LETTER_PREMIUM, pos] = _LETTER_MULTIPLIERS[square]
                table[WORD_PREMIUM, pos] = _WORD_MULTIPLIERS[square]
                table[ANCHOR, pos] = anchors[square]
                table[SYMBOL, pos] = symbols[square]
                if occupied[square]:
                    continue
                # The perpendicular line through the square, where this one is at `line`.
                before = after = line
                while before > 0 and occupied[_square(1 - vertical, pos, before - 1)]:
                    before -= 1
                while after < SIZE - 1 and occupied[_square(1 - vertical, pos, after + 1)]:
                    after += 1
                if before == after:
                    table[ALLOWED, pos] = letter_mask
                    continue
                total = np.int64(0)
                for i in range(before, after + 1):
                    total += values[_square(1 - vertical, pos, i)]
                table[ALLOWED, pos] = _cross_check(nodes, parameters, codes, 1 - vertical, pos, before, line, after)
                table[CROSS_BASE, pos] = total * table[WORD_PREMIUM, pos]
                table[CROSS_FACTOR, pos] = table[WORD_PREMIUM, pos]
    return lines


@njit(cache=True)
def _record(text, parameters, start, end, score, placed, blanks_left, moves, words, spellings, counters):
    """Add a move to the table and its word to the buffer; mark them full instead when there is no room."""
    count = counters[S_MOVES]
    written = counters[S_CODE_POINTS]
    if count >= moves.shape[0] or written + (end - start) * (spellings.shape[1] - 1) > words.shape[0]:
        counters[S_FULL] = 1
        return
    first = written
    for pos in range(start, end):
        symbol = text[pos]
        for k in range(spellings[symbol, 0]):
            words[written] = spellings[symbol, 1 + k]
            written += 1
    vertical = parameters[P_VERTICAL]
    row = moves[count]
    row[REC_SCORE] = score
    row[REC_ENDS] = 0 if placed == parameters[P_ENDS_SIZE] else 1
    row[REC_BLANKS] = parameters[P_BLANKS] - blanks_left
    row[REC_VERTICAL] = vertical
    row[REC_ROW] = start if vertical else parameters[P_LINE]
    row[REC_COL] = parameters[P_LINE] if vertical else start
    row[REC_PLACED] = placed
    row[REC_WORD_START] = first
    row[REC_WORD_LENGTH] = written - first
    counters[S_MOVES] = count + 1
    counters[S_CODE_POINTS] = written


# The fields of a frame of the search's stack: a square where a tile is to be laid and the letters left to try
# there. A frame going left is the GADDAG's reversed part (its square is left of the anchor, or the anchor itself),
# one going right the part after the separator.
F_RIGHTWARDS = 0
F_POS = 1
F_NODE = 2
F_MASK = 3
F_START = 4  # going right: the word's first square
F_MAIN = 5  # the main word's letters so far, premiums included
F_MULTIPLIER = 6  # its word premiums, this square's included
F_CROSS = 7  # the perpendicular words' scores, this square's base included
F_PLACED = 8  # tiles laid, this square's included
F_BLANKS = 9  # blanks left to lay
F_RACK_MASK = 10  # the letters of which real tiles are left
F_CANDIDATES = 11  # the letters still to try on this square
F_USEFUL = 12  # what a child must allow to be worth a visit
F_CODE = 13  # the letter being tried
F_CHILD = 14  # its node
F_STAGE = 15  # what the letter being tried has done: the next three values
FRAME_FIELDS = 16
NEXT_LETTER = 0
REAL_TILE_TRIED = 1  # its real tile's moves are done: give the tile back, try a blank
BLANK_TRIED = 2
# A frame per tile going left and per tile going right, and the anchor's: far fewer than this.
MAX_FRAMES = 4 * SIZE


@njit(cache=True, inline="always")
def _push(frames, top, rightwards, pos, node, mask, start, main, multiplier, cross, placed, blanks, rack_mask, useful):
    frame = top * FRAME_FIELDS
    frames[frame + F_RIGHTWARDS] = rightwards
    frames[frame + F_POS] = pos
    frames[frame + F_NODE] = node
    frames[frame + F_MASK] = mask
    frames[frame + F_START] = start
    frames[frame + F_MAIN] = main
    frames[frame + F_MULTIPLIER] = multiplier
    frames[frame + F_CROSS] = cross
    frames[frame + F_PLACED] = placed
    frames[frame + F_BLANKS] = blanks
    frames[frame + F_RACK_MASK] = rack_mask
    frames[frame + F_USEFUL] = useful
    frames[frame + F_STAGE] = NEXT_LETTER
    return top + 1


@njit(cache=True, inline="always")
def _enter_rightwards(
    frames, top, pos, node, mask, start, main, multiplier, cross, placed, blanks, rack_mask, nodes, line, text,
    parameters, moves, words, spellings, counters,
):  # fmt: skip
    """Squares start … pos-1 are laid or read and lead to `node`: read the board's tiles rightwards, record the word
    if one ends there, push a frame for the next square if a tile may go there. Return the new top."""
    final_bit = np.int64(1) << (parameters[P_LETTERS] + 1)
    while pos < SIZE:
        on_board = line[TILE, pos]
        if on_board < 0:
            break
        if not (mask >> on_board) & 1:
            return top
        node = _child(nodes, node, mask, on_board)
        mask = np.int64(nodes[node])
        main += line[VALUE, pos]
        pos += 1
    max_placed = parameters[P_MAX_PLACED]
    if mask & final_bit and pos - start >= 2 and (placed > 1 or parameters[P_SINGLE_TILE_LISTED]):
        score = main * multiplier + cross + (parameters[P_BINGO_BONUS] if placed == parameters[P_BINGO_SIZE] else 0)
        _record(text, parameters, start, pos, score, placed, blanks, moves, words, spellings, counters)
    if pos == SIZE or placed == max_placed:
        return top
    candidates = mask & line[ALLOWED, pos]
    if not blanks:
        candidates &= rack_mask
    if not candidates:
        return top
    following = pos + 1
    # A child is visited only if it can read the next square's tile, or end a word or take a tile the rack may
    # still hold where that square is empty.
    if following == SIZE:
        useful = final_bit
    elif line[TILE, following] >= 0:
        useful = np.int64(1) << line[TILE, following]
    elif placed + 1 == max_placed:
        useful = final_bit
    else:
        useful = final_bit | (line[ALLOWED, following] & (rack_mask if not blanks else np.int64(-1)))
    frames[top * FRAME_FIELDS + F_CANDIDATES] = candidates
    return _push(
        frames, top, 1, pos, node, mask, start, main, multiplier * line[WORD_PREMIUM, pos],
        cross + line[CROSS_BASE, pos], placed + 1, blanks, rack_mask, useful,
    )  # fmt: skip


@njit(cache=True, inline="always")
def _enter_leftwards(
    frames, top, pos, node, mask, main, multiplier, cross, placed, blanks, rack_mask, nodes, line, text,
    parameters, moves, words, spellings, counters,
):  # fmt: skip
    """Squares pos+1 … anchor are laid or read and lead to `node`: read the board's tiles leftwards, turn if the
    GADDAG allows it, push a frame for the next square leftwards if a tile may go there. Return the new top."""
    counters[S_STEPS] += 1
    separator_bit = np.int64(1) << parameters[P_LETTERS]
    while pos >= 0:
        on_board = line[TILE, pos]
        if on_board < 0:
            break
        if not (mask >> on_board) & 1:
            return top
        node = _child(nodes, node, mask, on_board)
        mask = np.int64(nodes[node])
        main += line[VALUE, pos]
        pos -= 1
    max_placed = parameters[P_MAX_PLACED]
    if pos >= 0 and not line[ANCHOR, pos] and placed < max_placed:
        candidates = mask & line[ALLOWED, pos]
        if not blanks:
            candidates &= rack_mask
        if candidates:
            following = pos - 1
            # A child is visited only if it can read the next square's tile, or turn or take a tile the rack may
            # still hold where that square is empty.
            if following < 0:
                useful = separator_bit
            elif line[TILE, following] >= 0:
                useful = np.int64(1) << line[TILE, following]
            elif line[ANCHOR, following] or placed + 1 == max_placed:
                useful = separator_bit
            else:
                useful = separator_bit | (line[ALLOWED, following] & (rack_mask if not blanks else np.int64(-1)))
            frames[top * FRAME_FIELDS + F_CANDIDATES] = candidates
            top = _push(
                frames, top, 0, pos, node, mask, 0, main, multiplier * line[WORD_PREMIUM, pos],
                cross + line[CROSS_BASE, pos], placed + 1, blanks, rack_mask, useful,
            )  # fmt: skip
    if mask & separator_bit:
        turned = np.int64(nodes[node + 1 + _popcount(mask & (separator_bit - 1))])
        turned_mask = np.int64(nodes[turned])
        after_anchor = parameters[P_AFTER_ANCHOR]
        anchor = parameters[P_ANCHOR]
        # Past the anchor an empty square takes only what the rack still holds, and nothing once it is all laid.
        if anchor + 1 < SIZE and line[TILE, anchor + 1] < 0 and (placed == max_placed or not blanks):
            final_bit = separator_bit << 1
            after_anchor = final_bit if placed == max_placed else final_bit | (line[ALLOWED, anchor + 1] & rack_mask)
        if turned_mask & after_anchor:
            top = _enter_rightwards(
                frames, top, anchor + 1, turned, turned_mask, pos + 1, main, multiplier, cross,
                placed, blanks, rack_mask, nodes, line, text, parameters, moves, words, spellings, counters,
            )  # fmt: skip
    return top


@njit(cache=True)
def _search_anchor(
    anchor, frames, nodes, line, text, parameters, counts, letter_values, moves, words, spellings, counters
):
    """Every move through `anchor`, depth first on a stack of frames (numba's cache cannot hold recursive code).

    The anchor's frame tries each tile there, then each frame in turn tries each letter its square allows: a real
    tile if one is left, then a blank. A frame's children are done when it is at the top of the stack again."""
    root = parameters[P_ROOT]
    blank_count = parameters[P_BLANKS]
    candidates = np.int64(nodes[root]) & line[ALLOWED, anchor]
    if not blank_count:
        candidates &= parameters[P_RACK_MASK]
    if not candidates:
        return
    # What the tile on the anchor must allow, as in `_enter_leftwards`.
    separator_bit = np.int64(1) << parameters[P_LETTERS]
    if anchor > 0 and line[TILE, anchor - 1] >= 0:
        useful = np.int64(1) << line[TILE, anchor - 1]
    elif anchor == 0 or line[ANCHOR, anchor - 1] or parameters[P_MAX_PLACED] == 1:
        useful = separator_bit
    else:
        useful = separator_bit | (
            line[ALLOWED, anchor - 1] & (np.int64(-1) if blank_count else parameters[P_RACK_MASK])
        )
    frames[F_CANDIDATES] = candidates
    top = _push(
        frames, 0, 0, anchor, root, np.int64(nodes[root]), 0, 0, line[WORD_PREMIUM, anchor],
        line[CROSS_BASE, anchor], 1, blank_count, parameters[P_RACK_MASK], useful,
    )  # fmt: skip
    while top and not counters[S_FULL]:
        frame = (top - 1) * FRAME_FIELDS
        stage = frames[frame + F_STAGE]
        code = frames[frame + F_CODE]
        pos = frames[frame + F_POS]
        if stage == REAL_TILE_TRIED:
            counts[code] += 1
            if not frames[frame + F_BLANKS]:
                frames[frame + F_STAGE] = NEXT_LETTER
                continue
            blank = True
        else:
            # Find the next letter worth a visit, or close the frame.
            candidates = frames[frame + F_CANDIDATES]
            mask = frames[frame + F_MASK]
            child = np.int64(-1)
            while candidates:
                bit = candidates & -candidates
                candidates ^= bit
                child = np.int64(nodes[frames[frame + F_NODE] + 1 + _popcount(mask & (bit - 1))])
                if np.int64(nodes[child]) & frames[frame + F_USEFUL]:
                    code = _popcount(bit - 1)
                    break
                child = -1
            frames[frame + F_CANDIDATES] = candidates
            if child < 0:
                top -= 1
                continue
            frames[frame + F_CODE] = code
            frames[frame + F_CHILD] = child
            blank = counts[code] == 0
        child = frames[frame + F_CHILD]
        child_mask = np.int64(nodes[child])
        main = frames[frame + F_MAIN]
        cross = frames[frame + F_CROSS]
        blanks = frames[frame + F_BLANKS]
        rack_mask = frames[frame + F_RACK_MASK]
        if blank:
            frames[frame + F_STAGE] = BLANK_TRIED
            text[pos] = 2 * code + 1
            blanks -= 1
        else:
            frames[frame + F_STAGE] = REAL_TILE_TRIED
            text[pos] = 2 * code
            counts[code] -= 1
            value = letter_values[code] * line[LETTER_PREMIUM, pos]
            main += value
            cross += value * line[CROSS_FACTOR, pos]
            if not counts[code]:
                rack_mask ^= np.int64(1) << code
        multiplier = frames[frame + F_MULTIPLIER]
        placed = frames[frame + F_PLACED]
        if frames[frame + F_RIGHTWARDS]:
            top = _enter_rightwards(
                frames, top, pos + 1, child, child_mask, frames[frame + F_START], main, multiplier, cross, placed,
                blanks, rack_mask, nodes, line, text, parameters, moves, words, spellings, counters,
            )  # fmt: skip
        else:
            top = _enter_leftwards(
                frames, top, pos - 1, child, child_mask, main, multiplier, cross, placed, blanks, rack_mask, nodes,
                line, text, parameters, moves, words, spellings, counters,
            )  # fmt: skip
    # A full table leaves the stack midway: the caller searches this anchor again with room, from a full rack.
    while top:
        top -= 1
        if frames[top * FRAME_FIELDS + F_STAGE] == REAL_TILE_TRIED:
            counts[frames[top * FRAME_FIELDS + F_CODE]] += 1


@njit(cache=True)
def search_chunks(
    first, budget, nodes, lines, parameters, counts, letter_values, moves, words, spellings, counters
) -> int:
    """Search the anchors of chunks `first`… until `budget` steps are spent; return the next chunk to search.

    When the table of moves or the words buffer fills up, the counters are put back as they were before the
    chunk and that chunk is returned, with `counters[S_FULL]` set."""
    final_bit = np.int64(1) << (parameters[P_LETTERS] + 1)
    text = np.empty(SIZE, dtype=np.int64)
    frames = np.empty(MAX_FRAMES * FRAME_FIELDS, dtype=np.int64)
    steps_at_start = counters[S_STEPS]
    for chunk in range(first, CHUNKS):
        if counters[S_STEPS] - steps_at_start >= budget:
            return chunk
        index, anchor = chunk // SIZE, chunk % SIZE
        line = lines[index]
        if not line[ANCHOR, anchor]:
            continue
        vertical = index // SIZE
        moves_before, words_before = counters[S_MOVES], counters[S_CODE_POINTS]
        text[:] = line[SYMBOL]
        parameters[P_VERTICAL] = vertical
        parameters[P_LINE] = index % SIZE
        parameters[P_ANCHOR] = anchor
        parameters[P_SINGLE_TILE_LISTED] = 1 if vertical == 0 or line[CROSS_FACTOR, anchor] == 0 else 0
        # What a right part must allow to be worth a visit: ending there, or reading or laying the next tile.
        if anchor + 1 == SIZE:
            parameters[P_AFTER_ANCHOR] = final_bit
        elif line[TILE, anchor + 1] >= 0:
            parameters[P_AFTER_ANCHOR] = np.int64(1) << line[TILE, anchor + 1]
        else:
            parameters[P_AFTER_ANCHOR] = final_bit | line[ALLOWED, anchor + 1]
        _search_anchor(
            anchor, frames, nodes, line, text, parameters, counts, letter_values, moves, words, spellings, counters
        )
        if counters[S_FULL]:
            counters[S_MOVES], counters[S_CODE_POINTS] = moves_before, words_before
            return chunk
    return CHUNKS


@njit(cache=True)
def _word_before(words, moves, a, b) -> bool:
    """Whether move a's word comes strictly before move b's, compared by code points as Python compares str."""
    start_a, length_a = moves[a, REC_WORD_START], moves[a, REC_WORD_LENGTH]
    start_b, length_b = moves[b, REC_WORD_START], moves[b, REC_WORD_LENGTH]
    for k in range(min(length_a, length_b)):
        if words[start_a + k] != words[start_b + k]:
            return words[start_a + k] < words[start_b + k]
    return length_a < length_b


@njit(cache=True)
def sort_keys(moves, words, count, point_ranks, rank_bits):
    """A key for each of the first `count` moves, in the order of the ranking (see scoring.engine.movegen).

    It packs, from the highest bits down, the move's score (negated), whether it does not end the game, its
    blanks, its direction and start square, then as many of its word's first code points as fit, each as its rank
    among the alphabet's (`point_ranks`, 0 where the word has ended): the rest of a word is compared only between
    moves whose keys are equal (`rank`). numpy sorts the keys: its vectorised sort is several times numba's."""
    highest = 0
    for i in range(count):
        highest = max(highest, moves[i, REC_SCORE])
    primary_bits = 14  # the game's end (1), blanks (4), direction (1), row (4), column (4)
    while highest >> (primary_bits - 14):
        primary_bits += 1
    prefix_length = max(0, 63 - primary_bits) // rank_bits
    keys = np.empty(count, dtype=np.int64)
    for i in range(count):
        row = moves[i]
        key = highest - row[REC_SCORE]
        key = key * 2 + row[REC_ENDS]
        key = key * 16 + row[REC_BLANKS]
        key = key * 2 + row[REC_VERTICAL]
        key = key * 16 + row[REC_ROW]
        key = key * 16 + row[REC_COL]
        start, length = row[REC_WORD_START], row[REC_WORD_LENGTH]
        for k in range(prefix_length):
            key = (key << rank_bits) | (point_ranks[words[start + k]] if k < length else 0)
        keys[i] = key
    return keys


@njit(cache=True)
def rank(moves, words, keys, order, separator):
    """Finish the ranking `order` of the moves sorted by `keys` (their words where keys are equal), and return
    the moves' table in that order and their words in that order joined by `separator` into one buffer of code
    points (each row's REC_WORD_START then points into that buffer)."""
    count = len(order)
    group = 0
    while group < count:
        end = group + 1
        while end < count and keys[order[end]] == keys[order[group]]:
            end += 1
        for i in range(group + 1, end):
            moving = order[i]
            j = i
            while j > group and _word_before(words, moves, moving, order[j - 1]):
                order[j] = order[j - 1]
                j -= 1
            order[j] = moving
        group = end
    total = count
    for i in range(count):
        total += moves[i, REC_WORD_LENGTH]
    joined = np.empty(total, dtype=np.uint32)
    ranked = np.empty((count, REC_FIELDS), dtype=np.int64)
    written = 0
    for i in range(count):
        move = order[i]
        if i:
            joined[written] = separator
            written += 1
        start = moves[move, REC_WORD_START]
        length = moves[move, REC_WORD_LENGTH]
        ranked[i] = moves[move]
        ranked[i, REC_WORD_START] = written
        for k in range(length):
            joined[written] = words[start + k]
            written += 1
    return ranked, joined[:written]
