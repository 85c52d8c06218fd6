"""Typed mode: the player gives each tile its square; the seeds' numbers again, and the seven-tile line."""

import dataclasses

import pytest

from scoring.engine.board import Square
from scoring.engine.errors import MoveError
from scoring.engine.rules import DEFAULT_RULES
from scoring.engine.typed import TypedTile, score_typed

S, LD, LT, MD, MT = Square.SIMPLE, Square.LD, Square.LT, Square.MD, Square.MT


def word(letters: str, squares=(), on_board: str = "", blanks: str = "") -> list[TypedTile]:
    """`squares` gives a square per position (default simple); `on_board` and `blanks` mark positions with 'x'."""
    squares = list(squares) + [S] * (len(letters) - len(squares))
    return [
        TypedTile(letter, squares[i], on_board[i : i + 1] == "x", blanks[i : i + 1] == "x")
        for i, letter in enumerate(letters)
    ]


def calculations(result):
    return [(w.word, w.score, w.calculation) for w in result.words]


def test_ecoles(fr):
    result = score_typed([word("ECOLES", [S, LD, S, S, S, MD])], fr)
    assert calculations(result) == [("ECOLES", 22, "(1 + 3 × 2 + 1 + 1 + 1 + 1) × 2 = 22")]


def test_cafe_and_fonde(fr):
    result = score_typed([word("CAFE", [MD]), word("FONDE", on_board=".xxxx")], fr)
    assert [w.score for w in result.words] == [18, 9]
    assert result.score == 27
    assert result.tiles_placed == 4


def test_ex_on_triple_word_and_second_ex(fr):
    result = score_typed([word("EX", [MT]), word("EX", on_board="x.")], fr)
    assert (result.words[0].score, result.words[1].score, result.score) == (33, 11, 44)


def test_moutons_through_t_on_two_double_words(fr):
    result = score_typed([word("MOUTONS", [MD, S, S, MT, S, S, MD], on_board="...x...")], fr)
    # The T's own square (a triple word here) no longer counts: it was covered before.
    assert calculations(result) == [("MOUTONS", 32, "(2 + 1 + 1 + 1 + 1 + 1 + 1) × 4 = 32")]
    assert (result.tiles_placed, result.bonus) == (6, 0)


def test_jouez(fr):
    result = score_typed([word("JOUEZ", [LD, S, S, S, MT], on_board="x....")], fr)
    assert calculations(result) == [("JOUEZ", 63, "(8 + 1 + 1 + 1 + 10) × 3 = 63")]


def test_axe_and_ex(fr):
    result = score_typed([word("AXE", [S, LT, S], on_board="x.x"), word("EX", [S, LT], on_board="x.")], fr)
    assert (result.words[0].score, result.words[1].score, result.score) == (32, 31, 63)


def test_moutons_seven_tiles_bonus_after_doubling(fr):
    result = score_typed([word("MOUTONS", [LD, S, S, S, MD])], fr)
    assert result.words[0].calculation == "(2 × 2 + 1 + 1 + 1 + 1 + 1 + 1) × 2 = 20"
    assert (result.tiles_placed, result.bonus, result.score) == (7, 50, 70)


@pytest.mark.parametrize(
    ("blanks", "score", "calculation"),
    [
        ("x", 12, "0 × 3 + 1 + 10 + 1 = 12"),
        ("", 42, "10 × 3 + 1 + 10 + 1 = 42"),
    ],
)
def test_kiwi(fr, blanks, score, calculation):
    result = score_typed([word("KIWI", [LT], blanks=blanks)], fr)
    assert calculations(result) == [("kIWI" if blanks else "KIWI", score, calculation)]


@pytest.mark.parametrize(("blanks", "score"), [("..x", 26), ("", 32)])
def test_zebre(fr, blanks, score):
    assert score_typed([word("ZEBRE", [S, S, MD], blanks=blanks)], fr).score == score


def test_vague_and_avions(fr):
    assert score_typed([word("VAGUE", [LD, S, S, S, MD])], fr).score == 26
    assert score_typed([word("AVIONS", [S, LD, S, S, S, MD], on_board=".x....")], fr).score == 18


@pytest.mark.parametrize(("squares", "score"), [([S, S, S], 4), ([LT], 8), ([LT, S, MD], 16)])
def test_mot(fr, squares, score):
    assert score_typed([word("MOT", squares)], fr).score == score


def test_joueurs_seven_new_tiles_is_64_and_six_gives_no_bonus(fr):
    assert score_typed([word("JOUEURS")], fr).score == 64
    result = score_typed([word("JOUEURS", on_board="...x...")], fr)
    assert (result.score, result.bonus, result.tiles_placed) == (14, 0, 6)


@pytest.mark.parametrize(("square", "total"), [(S, 10), (MD, 20)])
def test_go_and_gagne(fr, square, total):
    result = score_typed([word("GAGNE", [square]), word("GO", [square], on_board=".x")], fr)
    assert result.score == total


def test_ex_pivot(fr):
    result = score_typed([word("EX", [S, LT]), word("TE", on_board="x."), word("EX", [S, LT], on_board="x.")], fr)
    assert [w.score for w in result.words] == [31, 2, 31]
    assert result.score == 64


def test_tiles_placed_counts_the_word_with_the_most_new_tiles(fr):
    result = score_typed([word("AVIONS", on_board=".x...."), word("AS", on_board="x.")], fr)
    assert result.tiles_placed == 5


def test_more_than_seven_new_tiles_asks_to_mark_the_placed_ones(fr):
    result = score_typed([word("ANTICONSTITUTION"[:15])], fr)
    assert result.too_many_tiles
    assert result.bonus == 0
    assert result.warning == (
        "Plus de jetons posés que le chevalet n'en porte : marquez ceux qui étaient déjà sur le plateau."
    )
    assert score_typed([word("ABC")], fr).warning == ""


def test_the_rack_that_asks_to_mark_the_placed_tiles_is_the_rule_sets(fr):
    """A rack of eight, as an admin may set it: eight new tiles are a whole rack with its bonus, nine ask to mark."""
    rules = dataclasses.replace(DEFAULT_RULES, rack_size=8)
    whole = score_typed([word("ANTICONS")], fr, rules)
    assert (whole.too_many_tiles, whole.bonus, whole.warning) == (False, 50, "")
    assert score_typed([word("ANTICONST")], fr, rules).too_many_tiles


def test_letter_the_edition_lacks_counts_as_a_blank():
    from scoring.engine.editions import BUILTIN_EDITIONS

    result = score_typed([word("KIWI")], BUILTIN_EDITIONS["es"])
    assert result.words[0].terms == ((0, 1), (1, 1), (0, 1), (1, 1))


def test_limits_on_words_and_tiles(fr):
    with pytest.raises(MoveError, match="Au plus sept mots secondaires."):
        score_typed([word("AB")] * 9, fr)
    with pytest.raises(MoveError, match="Un mot compte 15 jetons au plus."):
        score_typed([word("A" * 16)], fr)
    assert score_typed([word("AB")] * 8, fr).score == 8 * 4
