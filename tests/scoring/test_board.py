import pytest

from scoring.engine.board import SQUARES, Square, format_coordinate, parse_coordinate, square_index, square_name
from scoring.engine.errors import NotationError


def test_premium_square_counts_match_the_ffsc_booklet():
    counts = {kind: SQUARES.count(kind) for kind in Square}
    assert counts == {Square.LD: 24, Square.LT: 12, Square.MD: 17, Square.MT: 8, Square.SIMPLE: 164}


def test_centre_star_and_corners():
    assert SQUARES[square_index("H8")] is Square.MD
    assert SQUARES[square_index("A1")] is Square.MT
    assert SQUARES[square_index("H4")] is Square.LD
    assert SQUARES[square_index("F6")] is Square.LT
    assert square_name(112) == "H8"


def test_letter_first_is_horizontal_number_first_vertical():
    assert parse_coordinate("H4") == (7, 3, True)
    assert parse_coordinate("4G") == (6, 3, False)
    assert parse_coordinate("o15") == (14, 14, True)
    assert format_coordinate(7, 3, True) == "H4"
    assert format_coordinate(6, 3, False) == "4G"


@pytest.mark.parametrize("text", ["Z4", "H16", "H0", "44", "HH", "", "4"])
def test_bad_coordinates_are_refused(text):
    with pytest.raises(NotationError):
        parse_coordinate(text)
