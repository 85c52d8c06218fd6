from scoring.engine.moves import Board
from scoring.engine.tracking import track


def test_full_set_minus_the_board_letter_by_letter(fr):
    board = Board.from_moves(["H4 VAGUE", "4G AVIoNS"], fr)
    tracking = track(fr, [tile for _, tile in board.tiles()])
    assert (tracking.remaining["A"], tracking.remaining["V"], tracking.remaining["O"]) == (7, 1, 6)
    assert tracking.remaining["?"] == 1
    assert tracking.unseen == 92
    assert tracking.in_bag(2) == 78
    assert tracking.in_bag(4) == 64
    assert tracking.overplayed == {}


def test_overplayed_letters_and_an_empty_bag(fr):
    board = Board.from_moves(["H6 FFF"], fr)
    tracking = track(fr, [tile for _, tile in board.tiles()])
    assert tracking.overplayed == {"F": (3, 2)}
    assert tracking.remaining["F"] == 0
    assert tracking.in_bag(15) == 0
