"""Board scoring with the seeds' own numbers, and every refusal with its message."""

import pytest

from scoring.engine.board import square_index
from scoring.engine.errors import MoveError
from scoring.engine.moves import Board, Move, ReplayError, Tile, replay

from .conftest import board_with


def evaluate(board, text, edition):
    return board.evaluate(Move.parse(text, edition), edition)


def scores(result):
    return [(word.word, word.score) for word in result.words]


def test_ecoles_first_move_c_on_double_letter_s_on_star(fr):
    result = evaluate(Board(), "H3 ÉCOLES", fr)
    assert result.score == 22
    assert result.words[0].calculation == "(1 + 3 × 2 + 1 + 1 + 1 + 1) × 2 = 22"
    assert result.move.notation == "H3 ECOLES"


def test_cafe_on_double_word_also_makes_fonde(fr):
    board = board_with(E6="O", F6="N", G6="D", H6="E")
    result = evaluate(board, "D4 CAFÉ", fr)
    assert scores(result) == [("CAFE", 18), ("FONDE", 9)]
    assert result.score == 27
    assert result.words[1].calculation == "4 + 1 + 1 + 2 + 1 = 9"


def test_ex_on_triple_word_with_the_x_making_a_second_ex(fr):
    result = evaluate(board_with(N9="E"), "O8 EX", fr)
    assert scores(result) == [("EX", 33), ("EX", 11)]
    assert result.score == 44


def test_moutons_through_a_placed_t_on_two_double_words(fr):
    result = evaluate(board_with(E8="T"), "E5 MOUTONS", fr)
    assert result.words[0].calculation == "(2 + 1 + 1 + 1 + 1 + 1 + 1) × 4 = 32"
    assert (result.score, result.tiles_placed, result.bonus) == (32, 6, 0)


def test_jouez_on_a_placed_j_keeps_its_points_without_premium(fr):
    result = evaluate(board_with(A4="J"), "A4 JOUEZ", fr)
    assert result.words[0].calculation == "(8 + 1 + 1 + 1 + 10) × 3 = 63"
    assert result.score == 63


def test_x_on_triple_letter_makes_axe_and_ex(fr):
    result = evaluate(board_with(F5="A", F7="E", E6="E"), "F5 AXE", fr)
    assert scores(result) == [("AXE", 32), ("EX", 31)]
    assert result.score == 63


def test_moutons_first_move_bonus_after_multiplication(fr):
    result = evaluate(Board(), "H4 MOUTONS", fr)
    assert result.words[0].calculation == "(2 × 2 + 1 + 1 + 1 + 1 + 1 + 1) × 2 = 20"
    assert (result.tiles_placed, result.bonus, result.score) == (7, 50, 70)


@pytest.mark.parametrize(
    ("word", "score", "calculation"),
    [
        ("kIWI", 12, "0 × 3 + 1 + 10 + 1 = 12"),
        ("KIWI", 42, "10 × 3 + 1 + 10 + 1 = 42"),
    ],
)
def test_kiwi_blank_k_on_triple_letter(fr, word, score, calculation):
    result = evaluate(board_with(F9="I"), f"F6 {word}", fr)
    assert (result.score, result.words[0].calculation) == (score, calculation)


@pytest.mark.parametrize(("word", "score"), [("ZEbRE", 26), ("ZÈBRE", 32)])
def test_zebre_blank_b_on_double_word_still_doubles(fr, word, score):
    result = evaluate(board_with(D6="E"), f"D2 {word}", fr)
    assert result.score == score


def test_vague_then_avions_through_the_v(fr):
    board = Board()
    vague = board.play(Move.parse("H4 VAGUE", fr), fr)
    assert (vague.score, vague.words[0].calculation) == (26, "(4 × 2 + 1 + 2 + 1 + 1) × 2 = 26")
    avions = board.play(Move.parse("4G AVIONS", fr), fr)
    assert [(w.word, w.score, w.calculation) for w in avions.words] == [
        ("AVIONS", 18, "(1 + 4 + 1 + 1 + 1 + 1) × 2 = 18")
    ]
    assert sorted(i for i, _ in avions.placed) == sorted(square_index(n) for n in ("G4", "I4", "J4", "K4", "L4"))


@pytest.mark.parametrize(
    ("move", "o_square", "words", "total"),
    [
        ("5F GAGNE", "F6", [("GAGNE", 7), ("GO", 3)], 10),
        ("5E GAGNE", "E6", [("GAGNE", 14), ("GO", 6)], 20),  # the shared G on a double word doubles both
    ],
)
def test_gagne_with_its_g_making_go(fr, move, o_square, words, total):
    result = evaluate(board_with(**{o_square: "O"}), move, fr)
    assert scores(result) == words
    assert result.score == total


def test_ex_pivot_of_seed_001_scores_64(fr):
    result = evaluate(board_with(E5="T", E6="E"), "F5 EX", fr)
    assert scores(result) == [("EX", 31), ("TE", 2), ("EX", 31)]
    assert result.score == 64


def test_placed_blank_stays_worth_zero_even_written_uppercase(fr):
    result = evaluate(board_with(H8="e"), "8H EX", fr)
    assert result.words[0].terms == ((0, 1), (10, 1))


def test_three_triple_words_multiply_to_27(fr):
    board = board_with(A2="B", A3="C", A5="E", A6="F", A7="G", A9="I", A10="J", A11="K", A13="M", A14="N")
    result = evaluate(board, "A1 ABCDEFGHIJKLMNO", fr)
    assert result.words[0].word_multiplier == 27


@pytest.mark.parametrize(
    ("board", "move", "message"),
    [
        ({}, "H12 MOUTONS", "« H12 MOUTONS » sort de la grille : 7 lettres à partir de H12."),
        ({}, "12J MOUTONS", "« 12J MOUTONS » sort de la grille : 7 lettres à partir de 12J."),
        ({}, "H1 VAGUE", "Le premier coup doit couvrir la case centrale H8 avec au moins deux lettres."),
        ({}, "H8 A", "Un mot compte au moins deux lettres : « H8 A »."),
        ({"H8": "V"}, "H8 BAGUE", "En H8, la grille porte déjà un V, pas un B."),
        ({"H8": "V", "H9": "A"}, "H8 VA", "Ce coup ne pose aucun jeton nouveau : toutes ses cases sont occupées."),
        ({"H8": "V"}, "A1 VAGUE", "Le mot doit toucher une lettre déjà posée sur la grille."),
        (
            {"H8": "V"},
            "H9 AGUE",
            "Le mot continue sur la grille : la case H8 porte déjà une lettre. Écrivez le mot entier.",
        ),
        (
            {"H8": "E"},
            "8A ABCDEFGEI",
            "Ce coup poserait 8 jetons nouveaux : un chevalet n'en porte que 7.",
        ),
    ],
)
def test_illegal_moves_are_refused_with_the_reason(fr, board, move, message):
    with pytest.raises(MoveError) as caught:
        evaluate(board_with(**board), move, fr)
    assert caught.value.message == message


def test_a_refused_move_leaves_the_board_unchanged(fr):
    board = board_with(H8="V")
    with pytest.raises(MoveError):
        board.play(Move.parse("A1 VAGUE", fr), fr)
    assert board.tiles() == [(square_index("H8"), Tile("V"))]


def test_from_moves_replays_a_board(fr):
    board = Board.from_moves(["H4 VAGUE", "4G AVIONS"], fr)
    assert board.tile_count == 10


def test_replay_keeps_each_play_and_what_it_was_given_as(fr):
    replayed = replay(["H4 VAGUE", "4G AVIoNS"], fr)
    assert [play.score for play in replayed.plays] == [26, 16]
    assert replayed.laid == ["H4 VAGUE", "4G AVIoNS"]
    assert (replayed.refused, replayed.board.tile_count) == ([], 10)


def test_replay_sets_a_refused_move_aside_and_lays_the_next(fr):
    replayed = replay(["H4 VAGUE", "A1 ZOO", "4G AVIONS"], fr)
    assert replayed.laid == ["H4 VAGUE", "4G AVIONS"]
    (refusal,) = replayed.refused
    assert (refusal.params["number"], refusal.params["move"]) == (2, "A1 ZOO")
    assert refusal.message == "Grille, coup 2 (« A1 ZOO ») : le mot doit toucher une lettre déjà posée sur la grille."


def test_strict_replay_raises_on_the_first_refused_move(fr):
    with pytest.raises(ReplayError) as caught:
        replay(["H4 VAGUE", "H4 VAGUE", "A1 ZOO"], fr, strict=True)
    assert caught.value.params["number"] == 2
    # Both the list's sentence and the move's own reason go through the gettext given.
    translated = caught.value.translated(lambda text: text.replace("Grille", "Board").replace("Ce coup", "This move"))
    assert translated.startswith("Board, coup 2 (« H4 VAGUE ») : this move ne pose aucun jeton nouveau")


class TestGridPlacement:
    """Tiles laid on squares: the engine finds the main word and the words formed."""

    def place(self, board, fr, horizontal=None, **squares):
        tiles = {square_index(name): Tile(letter.upper(), letter.islower()) for name, letter in squares.items()}
        return board.evaluate_tiles(tiles, fr, horizontal=horizontal)

    def test_avions_typed_around_the_v(self, fr):
        board = Board.from_moves(["H4 VAGUE"], fr)
        result = self.place(board, fr, G4="A", I4="I", J4="O", K4="N", L4="S")
        assert result.move.notation == "4G AVIONS"
        assert result.score == 18

    def test_touching_a_new_tile_makes_it_a_blank(self, fr):
        board = Board.from_moves(["H4 VAGUE"], fr)
        result = self.place(board, fr, G4="A", I4="I", J4="O", K4="N", L4="s")
        assert result.move.notation == "4G AVIONs"
        assert result.words[0].calculation == "(1 + 4 + 1 + 1 + 1 + 0) × 2 = 16"

    def test_single_tile_reads_both_words(self, fr):
        board = board_with(H8="T", I7="E")
        result = self.place(board, fr, I8="E")
        assert scores(result) == [("EE", 2), ("TE", 2)]
        result = self.place(board, fr, horizontal=False, I8="E")
        assert scores(result) == [("TE", 2), ("EE", 2)]

    @pytest.mark.parametrize(
        ("squares", "message"),
        [
            ({"H8": "A", "I9": "B"}, "Les jetons posés doivent être sur une seule ligne ou une seule colonne."),
            ({"H7": "A", "H9": "B"}, "Une case reste vide entre les jetons posés : H8."),
            ({"H8": "A"}, "Le premier coup doit couvrir la case centrale H8 avec au moins deux lettres."),
            ({"A1": "A", "A2": "B"}, "Le premier coup doit couvrir la case centrale H8 avec au moins deux lettres."),
        ],
    )
    def test_grid_refusals(self, fr, squares, message):
        with pytest.raises(MoveError) as caught:
            self.place(Board(), fr, **squares)
        assert caught.value.message == message

    def test_occupied_square_and_no_contact(self, fr):
        board = board_with(H8="V")
        with pytest.raises(MoveError, match="La case H8 est déjà occupée."):
            self.place(board, fr, H8="A")
        with pytest.raises(MoveError, match="Le mot doit toucher une lettre déjà posée"):
            self.place(board, fr, A1="A", A2="B")
        with pytest.raises(MoveError, match="Le mot doit toucher une lettre déjà posée"):
            self.place(board, fr, A1="A")


def test_a_word_typed_all_in_lowercase_is_read_in_capitals_when_it_cannot_be_all_jokers(fr):
    """Trial of issue 10: "h8 web" typed on a keyboard is WEB, not three jokers (French has two)."""
    assert Move.parse("h8 web", fr).notation == "H8 WEB"
    assert Move.parse("h8 ab", fr).notation == "H8 ab"  # two jokers are possible: read as written
    assert Move.parse("H8 ChACUNE", fr).notation == "H8 ChACUNE"
