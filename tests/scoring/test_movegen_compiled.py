"""Issue 14: the compiled top finder (`scoring.engine.movegen_kernel`, what `generate_moves` runs) against the
pure-Python reference (`tests/scoring/movegen_reference.py`): the same moves, the same scores, the same order of ties,
on the positions of real games with random racks of 7, 8 and 9 tiles and 0, 1 or 2 blanks."""

import dataclasses
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from scoring.engine import movegen
from scoring.engine.draw import bag_after
from scoring.engine.editions import BLANK, BUILTIN_EDITIONS
from scoring.engine.gaddag import alphabet_of, build_gaddag, lexicon_index
from scoring.engine.lexicon import FRENCH_WORDLIST, default_french_lexicon
from scoring.engine.movegen import OutOfTime, best_moves, generate_moves, top_moves
from scoring.engine.moves import Board, Move
from scoring.engine.rules import DEFAULT_RULES

from .conftest import eliot_games
from .movegen_reference import reference_moves

FR = BUILTIN_EDITIONS["fr"]
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def index():
    if not FRENCH_WORDLIST.exists():
        pytest.skip(f"{FRENCH_WORDLIST} is absent")
    return lexicon_index(default_french_lexicon(), FR)


@pytest.fixture(scope="module")
def positions():
    """The board before each move of the Eliot games."""
    boards = []
    for game in eliot_games():
        board = Board()
        for text, _score in game["moves"]:
            boards.append(board.copy())
            board.play(Move.parse(text, FR), FR)
    return boards


def random_rack(board: Board, chooser: random.Random, size: int, blanks: int) -> str:
    """`size` tiles (fewer if the bag has fewer left) from what the board leaves in the bag, `blanks` of them
    blanks."""
    bag = [letter for letter in bag_after(FR, [tile for _, tile in board.tiles()], []) if letter != BLANK]
    return "".join(chooser.sample(bag, min(size - blanks, len(bag)))) + BLANK * blanks


def sample(positions, count: int, seed: int) -> list[Board]:
    return random.Random(seed).sample(positions, count)


@pytest.mark.parametrize(("blanks", "count"), [(0, 40), (1, 15), (2, 5)])
def test_every_move_is_the_references_on_real_positions(index, positions, blanks, count):
    chooser = random.Random(blanks)
    total = 0
    for board in [Board(), *sample(positions, count, seed=14 + blanks)]:
        rack = random_rack(board, chooser, 7, blanks)
        moves = generate_moves(board, rack, FR, index)
        assert moves == reference_moves(board, rack, FR, index), rack
        total += len(moves)
    assert total > [2_000, 20_000, 30_000][blanks]


@pytest.mark.parametrize("size", [8, 9])
def test_racks_of_eight_and_nine_tiles_are_the_references(index, positions, size):
    chooser = random.Random(size)
    for board in sample(positions, 4, seed=size):
        for blanks in (0, 1):
            rack = random_rack(board, chooser, size, blanks)
            moves = generate_moves(board, rack, FR, index)
            assert moves == reference_moves(board, rack, FR, index), rack
            assert max(move.tiles_placed for move in moves) <= DEFAULT_RULES.rack_size


def test_the_end_of_the_game_and_other_rules_rank_as_the_reference(index, positions):
    chooser = random.Random(3)
    rules = dataclasses.replace(DEFAULT_RULES, rack_size=6, bingo_bonus=40)
    ending_first = 0
    for board in sample(positions, 8, seed=3):
        rack = random_rack(board, chooser, 3, 1)
        ending = generate_moves(board, rack, FR, index, bag_empty=True)
        assert ending == reference_moves(board, rack, FR, index, bag_empty=True)
        ending_first += ending[0].ends_game
        rack = random_rack(board, chooser, 7, 1)
        assert generate_moves(board, rack, FR, index, rules) == reference_moves(board, rack, FR, index, rules)
    assert ending_first >= 4


def test_best_and_top_moves_are_the_references_first(index, positions):
    board = positions[40]
    every_move = reference_moves(board, "EHLA?NI", FR, index)
    ranking = best_moves(board, "EHLA?NI", FR, index, limit=10)
    assert ranking == (every_move[:10], len(every_move))
    plays = top_moves(board, "EHLA?NI", FR, index, limit=3)
    assert [(play.move.notation, play.score) for play in plays] == [(m.notation, m.score) for m in every_move[:3]]


def test_spanish_digraphs_and_polish_letters_rank_as_the_reference():
    """Words compare by code points, a tile of two letters (CH, LL) being two of them."""
    spanish = BUILTIN_EDITIONS["es"]
    index = build_gaddag(["CHICO", "OCHO", "CACHO", "COCO", "LLAMA", "LAMA", "CALLO", "CALO"], alphabet_of(spanish))
    for rack in ["CHICO", "CACHO?", "LLAMAO", "CAL?O"]:
        assert generate_moves(Board(), rack, spanish, index) == reference_moves(Board(), rack, spanish, index)
    polish = BUILTIN_EDITIONS["pl"]
    index = build_gaddag(["ŻÓŁW", "ŁÓW", "ŹLE", "ZLE", "ŻAL", "ZAL"], alphabet_of(polish))
    for rack in ["ŻÓŁWŹLE", "ZAL?Ż"]:
        assert generate_moves(Board(), rack, polish, index) == reference_moves(Board(), rack, polish, index)


def test_tables_that_fill_up_grow_and_lose_no_move(index, positions, monkeypatch):
    monkeypatch.setattr(movegen, "_FIRST_CAPACITY", 4)
    board = positions[100]
    moves = generate_moves(board, "AEIRST?", FR, index)
    assert len(moves) > 1_000
    assert moves == reference_moves(board, "AEIRST?", FR, index)


@pytest.mark.parametrize("time_limit", [1, 3, 8, 20])
def test_a_search_cut_short_gives_a_part_of_the_references_moves_in_its_order(
    index, positions, ticking_clock, time_limit
):
    board = positions[60]
    every_move = reference_moves(board, "ENTRAI?", FR, index)
    with pytest.raises(OutOfTime) as stopped:
        best_moves(board, "ENTRAI?", FR, index, limit=len(every_move), time_limit=time_limit)
    found = stopped.value.found
    assert 0 < found.count == len(found.moves) < len(every_move)
    assert found.moves == [move for move in every_move if move in set(found.moves)]


def test_the_compiled_code_is_kept_under_the_cache_directory(tmp_path):
    environment = {key: value for key, value in os.environ.items() if key != "NUMBA_CACHE_DIR"}
    script = "import json, numba, scoring.engine.movegen_kernel; print(json.dumps(numba.config.CACHE_DIR))"
    run = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env={**environment, "CLUBSITE_CACHE_DIR": str(tmp_path)},
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(run.stdout) == str(tmp_path / "numba")


def test_the_moves_read_one_by_one_or_by_slices_are_the_references(index, positions):
    """`generate_moves` makes a Candidate when it is read: by index, by slice and whole, the same moves."""
    board = positions[80]
    every_move = reference_moves(board, "AEINST?", FR, index)
    count = len(every_move)
    assert count > 100
    moves = generate_moves(board, "AEINST?", FR, index)
    assert len(moves) == count and moves
    assert moves[0] == every_move[0] and moves[-1] == every_move[-1] and moves[count // 2] == every_move[count // 2]
    for part in (slice(10), slice(5, 12), slice(count - 3, count + 5), slice(None, None, 7), slice(-4, None)):
        assert moves[part] == every_move[part]
    assert moves[count:] == [] and moves[3:1] == []
    with pytest.raises(IndexError):
        moves[count]
    with pytest.raises(IndexError):
        moves[-count - 1]
    with pytest.raises(TypeError):
        moves["0"]
    assert list(moves) == every_move and moves == every_move and every_move == moves
    assert moves[7] == every_move[7] and moves != every_move[:-1]
    assert not generate_moves(board, "", FR, index) and generate_moves(board, "", FR, index) == []


@pytest.mark.parametrize("rack", ["EAIRSTN", "KWYZ??", "", "A", "EEEEEEEEE", "ZZ", "AB CD", "été", "r?t", "ÉCU"])
def test_the_usual_racks_read_as_the_edition_reads_them(index, rack):
    try:
        expected = movegen._read_rack(rack, FR, index.alphabet)
    except Exception as refused:  # noqa: BLE001 - the same refusal, with the same message
        with pytest.raises(type(refused)) as again:
            movegen.read_rack(rack, FR, index.alphabet)
        assert again.value.message == refused.message
    else:
        assert movegen.read_rack(rack, FR, index.alphabet) == expected


def test_a_process_that_only_reads_racks_and_words_never_imports_numba():
    script = (
        "import sys\n"
        "from scoring.engine.editions import BUILTIN_EDITIONS\n"
        "from scoring.engine.gaddag import alphabet_of, build_gaddag\n"
        "from scoring.engine.movegen import read_rack, words_from_letters\n"
        "fr = BUILTIN_EDITIONS['fr']\n"
        "index = build_gaddag(['AI', 'IL', 'LA'], alphabet_of(fr))\n"
        "assert read_rack('AIL?', fr, index.alphabet) == ([0, 8, 11], 1)\n"
        "assert words_from_letters('AIL', fr, index)\n"
        "print('numba' in sys.modules)\n"
    )
    run = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "False"
