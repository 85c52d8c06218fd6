"""An automatic game with the free French list runs to its end, legal at every move, and replays from its seed."""

from collections import Counter

import pytest

from scoring.engine.autoplay import automatic_game
from scoring.engine.draw import bag_after, rack_requirement
from scoring.engine.editions import BLANK, BUILTIN_EDITIONS
from scoring.engine.gaddag import lexicon_index
from scoring.engine.lexicon import default_french_lexicon
from scoring.engine.movegen import generate_moves
from scoring.engine.moves import Board

FR = BUILTIN_EDITIONS["fr"]


@pytest.fixture(scope="module")
def french_index():
    return lexicon_index(default_french_lexicon(), FR)


def test_an_automatic_game_plays_legal_tops_until_the_end(french_index):
    lexicon = default_french_lexicon()
    game = automatic_game(FR, french_index, seed=2026)
    assert len(game) >= 15
    board = Board()
    for move in game:
        letters = Counter(move.draw.letters)
        used = Counter(BLANK if tile.blank else tile.letter for _i, tile in move.top.placed)
        assert not used - letters  # the top is played with the draw
        assert board.evaluate(move.top.move, FR).score == move.top.score
        assert all("".join(t.letter for t in word.tiles) in lexicon for word in move.top.words)
        board.place(move.top)
    last = game[-1]
    reliquat = sorted(
        (
            Counter(last.draw.letters) - Counter(BLANK if tile.blank else tile.letter for _i, tile in last.top.placed)
        ).elements()
    )
    remaining = bag_after(FR, [tile for _i, tile in board.tiles()], [])
    # The game stopped because the letters left cannot make a rack any more, or no move is possible (§3.7).
    assert rack_requirement(remaining, len(game) + 1, FR) == 0 or not generate_moves(
        board, "".join(reliquat), FR, french_index
    )


def test_the_same_seed_gives_the_same_game(french_index):
    first = [(m.draw.text, m.top.move.notation) for m in automatic_game(FR, french_index, seed=7)[:5]]
    second = [(m.draw.text, m.top.move.notation) for m in automatic_game(FR, french_index, seed=7)[:5]]
    assert first == second
