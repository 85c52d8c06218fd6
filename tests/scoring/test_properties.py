"""Properties that hold for every move, checked on generated boards and moves (hypothesis)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine.board import SIZE
from scoring.engine.editions import BUILTIN_EDITIONS
from scoring.engine.errors import MoveError
from scoring.engine.moves import Board, Move, Tile

from .conftest import eliot_games

FR = BUILTIN_EDITIONS["fr"]
LETTERS = [spec.letter for spec in FR.letters]
tiles = st.builds(Tile, st.sampled_from(LETTERS), st.booleans())


def positions_from_eliot():
    """(board before the move, the move) for every move of the oracle games; empty without ../shared."""
    try:
        games = eliot_games()
    except BaseException:  # pytest.skip raises an exception derived from BaseException
        return [(Board(), Move.parse("H4 VAGUE", FR))]
    positions = []
    for game in games:
        board = Board()
        for text, _ in game["moves"]:
            move = Move.parse(text, FR)
            positions.append((board.copy(), move))
            board.play(move, FR)
    return positions


POSITIONS = positions_from_eliot()


@st.composite
def legal_plays(draw):
    """A recorded position whose new tiles are replaced by random letters and blanks: still legal."""
    board, move = draw(st.sampled_from(POSITIONS))
    step = 1 if move.horizontal else SIZE
    start = move.row * SIZE + move.col
    new_tiles = []
    for i in range(len(move.tiles)):
        if board.cells[start + i * step] is None:
            new_tiles.append(draw(tiles))
        else:
            new_tiles.append(board.cells[start + i * step])
    return board, Move(move.row, move.col, move.horizontal, tuple(new_tiles))


@st.composite
def first_moves(draw):
    word = draw(st.lists(tiles, min_size=2, max_size=7))
    horizontal = draw(st.booleans())
    offset = draw(st.integers(0, len(word) - 1))
    along = 7 - offset
    row, col = (7, along) if horizontal else (along, 7)
    return Board(), Move(row, col, horizontal, tuple(word))


any_play = st.one_of(legal_plays(), first_moves())


def transpose(board: Board) -> Board:
    other = Board()
    for index, tile in board.tiles():
        row, col = divmod(index, SIZE)
        other.cells[col * SIZE + row] = tile
    other.tile_count = board.tile_count
    return other


@settings(max_examples=300, deadline=None)
@given(any_play)
def test_transposed_move_scores_the_same(position):
    board, move = position
    original = board.evaluate(move, FR)
    mirrored = transpose(board).evaluate(Move(move.col, move.row, not move.horizontal, move.tiles), FR)
    assert mirrored.score == original.score
    assert sorted(w.score for w in mirrored.words) == sorted(w.score for w in original.words)


@settings(max_examples=300, deadline=None)
@given(any_play, st.data())
def test_turning_a_new_tile_into_a_blank_never_raises_the_score(position, data):
    board, move = position
    play = board.evaluate(move, FR)
    index, tile = data.draw(st.sampled_from(play.placed))
    step = 1 if move.horizontal else SIZE
    offset = (index - (move.row * SIZE + move.col)) // step
    blanked = list(move.tiles)
    blanked[offset] = Tile(tile.letter, True)
    assert board.evaluate(Move(move.row, move.col, move.horizontal, tuple(blanked)), FR).score <= play.score


@settings(max_examples=300, deadline=None)
@given(any_play)
def test_no_valid_move_scores_below_zero(position):
    board, move = position
    play = board.evaluate(move, FR)
    assert play.score >= 0
    assert all(word.score >= 0 for word in play.words)


@st.composite
def written_moves(draw):
    """A move as a user could write it: no more jokers than the bag holds (a word all in lowercase with more
    letters than that is read in capitals, see test_moves)."""
    horizontal = draw(st.booleans())
    letters = draw(st.lists(st.sampled_from(LETTERS), min_size=1, max_size=15))
    jokers = draw(st.sets(st.integers(0, len(letters) - 1), max_size=FR.blanks))
    word = [Tile(letter, k in jokers) for k, letter in enumerate(letters)]
    along = draw(st.integers(0, SIZE - len(word)))
    across = draw(st.integers(0, SIZE - 1))
    row, col = (across, along) if horizontal else (along, across)
    return Move(row, col, horizontal, tuple(word))


@settings(max_examples=500)
@given(written_moves())
def test_parse_of_format_gives_the_move_back(move):
    assert Move.parse(move.notation, FR) == move


def test_generated_positions_are_really_legal():
    """Guards the strategies above: a position they build must not be refused."""
    board, move = POSITIONS[-1]
    try:
        board.evaluate(move, FR)
    except MoveError as error:  # pragma: no cover - the message tells which record broke
        raise AssertionError(error.message) from error
