"""The top finder's engine: the GADDAG, every legal move with Board.evaluate's score, ties, words from letters.

Most tests use a GADDAG of a few dozen words and check the generator against a slow brute force that tries
every line, start, length, ordering of the rack's tiles and letter for each blank through `Board.evaluate`.
The tests on the French list load its GADDAG from the cache directory (built there on the first run).
"""

import dataclasses
from itertools import permutations, product

import pytest

from scoring.engine.board import SIZE
from scoring.engine.editions import BUILTIN_EDITIONS
from scoring.engine.errors import MoveError, NotationError
from scoring.engine.gaddag import Gaddag, alphabet_of, build_gaddag, lexicon_index, load_gaddag, save_gaddag
from scoring.engine.lexicon import FRENCH_WORDLIST, Lexicon, default_french_lexicon, in_lexicon
from scoring.engine.movegen import OutOfTime, best_moves, generate_moves, top_moves, words_from_letters
from scoring.engine.moves import Board, Move, Tile
from scoring.engine.rules import DEFAULT_RULES

from .conftest import board_with, eliot_games

SMALL_LIST = """
AI AN AS AU EN ES ET EU IL IN LA LE NE NI ON OR OS OU SA SE SI TA TE TU UN US VA VU XI
AIR ANE ART EST ETE ILE LES LUI NET NUE OSE RAT RUE SAT SEL SUR TAS TES TUE UNE VAS VER VIE VUE ZOO EAU TOI
RATE RUSE SALE SEUL TALE TRES VERS TOUR ROUE SOIE AUTEL RALES SAULE TRAIN VALSE ZERO SORTE
SAVANT TRAINS OISEAU RATIONS
"""
SMALL_WORDS = SMALL_LIST.split()


@pytest.fixture(scope="module")
def small():
    return build_gaddag(SMALL_WORDS, alphabet_of(BUILTIN_EDITIONS["fr"]))


def brute_force(board, rack, words, edition, rules=DEFAULT_RULES) -> set[tuple[str, int]]:
    """Every legal move as (notation, score): each line, start, length, ordering of rack tiles and blank letter,
    kept when `Board.evaluate` accepts it and every word it forms is in `words`. A single tile that forms a word
    both ways is kept as the horizontal move only, as the generator lists it."""
    listed = set(words)
    longest = max(map(len, words))
    letters = sorted({letter for word in words for letter in word})
    cells = board.cells
    found = set()
    for horizontal, line, start in product((True, False), range(SIZE), range(SIZE)):
        for length in range(2, min(longest, SIZE - start) + 1):
            squares = [line * SIZE + start + i if horizontal else (start + i) * SIZE + line for i in range(length)]
            empty = [i for i, square in enumerate(squares) if cells[square] is None]
            if not empty or len(empty) > min(len(rack), rules.rack_size):
                continue
            pattern = [cells[square].letter if cells[square] else "" for square in squares]
            for chosen in set(permutations(rack, len(empty))):
                for assigned in product(*[letters if tile == "?" else [tile] for tile in chosen]):
                    spelled = pattern.copy()
                    for i, letter in zip(empty, assigned, strict=True):
                        spelled[i] = letter
                    if "".join(spelled) not in listed:
                        continue
                    tiles = [cells[square] for square in squares]
                    for i, letter, tile in zip(empty, assigned, chosen, strict=True):
                        tiles[i] = Tile(letter, tile == "?")
                    row, col = (line, start) if horizontal else (start, line)
                    move = Move(row, col, horizontal, tuple(tiles))
                    try:
                        play = board.evaluate(move, edition, rules)
                    except MoveError:
                        continue
                    if not all("".join(t.letter for t in word.tiles) in listed for word in play.words):
                        continue
                    if play.tiles_placed == 1 and not horizontal and len(play.words) > 1:
                        continue
                    found.add((move.notation, play.score))
    return found


def generated(board, rack, edition, index, rules=DEFAULT_RULES) -> set[tuple[str, int]]:
    moves = generate_moves(board, rack, edition, index, rules)
    pairs = [(move.notation, move.score) for move in moves]
    assert len(pairs) == len(set(pairs)), "a move was listed twice"
    return set(pairs)


# The GADDAG


def paths(gaddag: Gaddag) -> set[str]:
    """Every string the GADDAG spells, the separator written '>'."""
    out = set()
    alphabet = gaddag.alphabet

    def walk(node, prefix):
        mask = gaddag.nodes[node]
        if mask & gaddag.final_bit:
            out.add(prefix)
        edge = node
        for code in range(len(alphabet) + 1):
            if mask >> code & 1:
                edge += 1
                walk(gaddag.nodes[edge], prefix + (alphabet[code] if code < len(alphabet) else ">"))

    walk(gaddag.root, "")
    return out


def test_it_spells_every_word_cut_after_each_letter(small):
    expected = {word[:cut][::-1] + ">" + word[cut:] for word in SMALL_WORDS for cut in range(1, len(word) + 1)}
    assert paths(small) == expected


def test_it_knows_its_words_through_the_dawg_part(small):
    assert all(word in small for word in SMALL_WORDS)
    assert "RATIO" not in small
    assert "ZOOS" not in small
    assert small.word_count == len(SMALL_WORDS)


def test_it_skips_words_with_a_letter_the_edition_lacks(fr):
    gaddag = build_gaddag(["ÑU", "NU", "A1"], alphabet_of(fr))
    assert gaddag.word_count == 1
    assert "NU" in gaddag


def test_it_saves_and_loads_the_same_arrays(small, tmp_path):
    save_gaddag(small, tmp_path / "index.bin")
    loaded = load_gaddag(tmp_path / "index.bin")
    assert (loaded.nodes, loaded.root, loaded.dawg_root, loaded.alphabet) == (
        small.nodes,
        small.root,
        small.dawg_root,
        small.alphabet,
    )


def test_a_truncated_cache_file_reads_as_missing(small, tmp_path):
    save_gaddag(small, tmp_path / "index.bin")
    data = (tmp_path / "index.bin").read_bytes()
    (tmp_path / "index.bin").write_bytes(data[:-10])
    assert load_gaddag(tmp_path / "index.bin") is None


def test_it_reads_the_index_back_from_the_cache_keyed_by_the_words(fr, tmp_path, monkeypatch):
    built = lexicon_index(Lexicon.from_words(SMALL_WORDS), fr, tmp_path)
    assert len(list(tmp_path.glob("gaddag-*.bin"))) == 1
    monkeypatch.setattr("scoring.engine.gaddag.build_gaddag", pytest.fail)
    loaded = lexicon_index(Lexicon.from_words(SMALL_WORDS), fr, tmp_path)
    assert loaded.nodes == built.nodes
    monkeypatch.undo()
    lexicon_index(Lexicon.from_words([*SMALL_WORDS, "VALSES"]), fr, tmp_path)
    assert len(list(tmp_path.glob("gaddag-*.bin"))) == 2


def test_the_cache_directory_comes_from_the_environment(fr, tmp_path, monkeypatch):
    monkeypatch.setenv("CLUBSITE_CACHE_DIR", str(tmp_path))
    lexicon_index(Lexicon.from_words(["AI", "IL"]), fr)
    assert len(list(tmp_path.glob("gaddag-*.bin"))) == 1


# Every legal move, no more, no less


@pytest.mark.parametrize("rack", ["RATS", "RAT?S", "EU??"])
def test_first_moves_are_those_of_the_brute_force(small, fr, rack):
    board = Board()
    assert generated(board, rack, fr, small) == brute_force(board, rack, SMALL_WORDS, fr)


MIDGAME = {
    "H6": "S",
    "H7": "A",
    "H8": "L",
    "H9": "E",
    "G9": "V",
    "I9": "R",
    "J9": "s",  # a blank on the board counts 0 in every word through it
    "A14": "E",
    "A15": "U",
    "O1": "O",
    "O2": "S",
    "D4": "Z",
}


@pytest.mark.parametrize("rack", ["TUER", "AIS?", "NE??", "OUT"])
def test_midgame_moves_are_those_of_the_brute_force(small, fr, rack):
    board = board_with(**MIDGAME)
    moves = generated(board, rack, fr, small)
    assert moves
    assert moves == brute_force(board, rack, SMALL_WORDS, fr)


def test_a_crowded_corner_matches_the_brute_force(small, fr):
    board = board_with(A1="S", A2="E", B1="E", C1="L", B3="U", D2="A")
    assert generated(board, "TAUS?", fr, small) == brute_force(board, "TAUS?", SMALL_WORDS, fr)


@pytest.mark.parametrize("rack", ["ES?", "ZEN", "TRAS"])
def test_moves_on_a_real_position_are_those_of_the_brute_force_on_the_french_list(fr, french_index, french, rack):
    board = Board.from_moves(["H3 UVEITE", "4C MOSHAV", "9B LOTIRAS", "G7 EBAUDIES", "13F MERLONNE"], fr)
    assert generated(board, rack, fr, french_index) == brute_force(board, rack, french.words(), fr)


def test_every_move_on_a_real_position_is_legal_and_scores_as_evaluate(fr, french_index, french):
    board = Board.from_moves(["H3 UVEITE", "4C MOSHAV", "9B LOTIRAS", "G7 EBAUDIES", "13F MERLONNE"], fr)
    moves = generate_moves(board, "TRESOR?", fr, french_index)
    assert len(moves) > 1000
    for move in moves:
        play = move.play(board, fr)
        assert play.score == move.score, move.notation
        assert all(in_lexicon(word, french) for word in play.words), move.notation
        assert (play.tiles_placed, sum(tile.blank for _, tile in play.placed)) == (move.tiles_placed, move.blanks)
    scores = [move.score for move in moves]
    assert scores == sorted(scores, reverse=True)


def test_every_published_move_in_the_free_list_is_found_with_its_score(fr, french_index, french):
    checked = 0
    for game in eliot_games():
        board = Board()
        for text, recorded in game["moves"]:
            play = board.evaluate(Move.parse(text, fr), fr)
            if all(in_lexicon(word, french) for word in play.words):
                rack = "".join("?" if tile.blank else tile.letter for _, tile in play.placed)
                moves = generate_moves(board, rack, fr, french_index)
                found = {(placement(board, move, fr), move.score) for move in moves}
                assert (frozenset(play.placed), recorded) in found, (game["source"], text)
                assert moves[0].score >= recorded
                checked += 1
            board.place(play)
    assert checked > 100


def placement(board, move, edition) -> frozenset:
    """The (square, tile) pairs a move lays, read from its notation without validating it."""
    step = 1 if move.horizontal else SIZE
    start = move.row * SIZE + move.col
    tiles = edition.split(move.word)
    return frozenset(
        (start + i * step, Tile(letter, blank))
        for i, (letter, blank) in enumerate(tiles)
        if board.cells[start + i * step] is None
    )


def test_a_single_tile_forming_words_both_ways_is_listed_once_as_horizontal(small, fr):
    board = board_with(H7="A", G8="V")
    moves = {move.notation: move for move in generate_moves(board, "U", fr, small)}
    assert moves["H7 AU"].score == 2 * 2 + (4 + 1) * 2
    assert "8G VU" not in moves


# Blanks, racks, bonus


def test_a_blank_stands_for_a_letter_the_rack_lacks_and_counts_0(small, fr):
    board = board_with(H8="Z", H9="O")
    moves = {move.notation: move for move in generate_moves(board, "?", fr, small)}
    assert moves["H8 ZOo"].score == 11
    assert moves["H8 ZOo"].blanks == 1


def test_a_blank_also_stands_for_a_letter_the_rack_holds(small, fr):
    notations = {move.notation for move in generate_moves(Board(), "AI?", fr, small)}
    assert {"H7 AI", "H7 aI", "H7 Ai", "H8 Ai"} <= notations
    assert "H7 ai" not in notations  # one blank only


def test_seven_tiles_earn_the_bonus_and_an_eight_tile_rack_lays_seven_at_most(small, fr):
    moves = generate_moves(Board(), "RATIONSE", fr, small)
    assert max(move.tiles_placed for move in moves) == 7
    top = moves[0]
    assert (top.word, top.tiles_placed) == ("RATIONS", 7)
    assert top.score == top.play(Board(), fr).score
    assert top.score - 50 == top.play(Board(), fr).words[0].score


@pytest.mark.parametrize("rack", ["ABCDEFGHIJ", "A1", "AB-"])
def test_it_refuses_a_rack_it_cannot_read(small, fr, rack):
    with pytest.raises(NotationError):
        generate_moves(Board(), rack, fr, small)


@pytest.mark.parametrize(
    ("rack", "message"),
    [
        ("?????????", "Le tirage compte 9 « ? » : le jeu n'en a que 2."),
        ("AE???", "Le tirage compte 3 « ? » : le jeu n'en a que 2."),
        ("KAKI", "Le tirage compte 2 « K » : le jeu n'en a que 1."),
    ],
)
def test_a_rack_holds_no_more_of_a_tile_than_the_set(small, fr, rack, message):
    """Issue 12: four racks of nine blanks kept the server busy for seconds each."""
    for search in (generate_moves, words_from_letters):
        with pytest.raises(NotationError) as refused:
            search(Board(), rack, fr, small) if search is generate_moves else search(rack, fr, small)
        assert refused.value.message == message


def test_the_blanks_a_rack_may_hold_are_the_editions(small, fr):
    one_blank = dataclasses.replace(fr, blanks=1)
    with pytest.raises(NotationError) as refused:
        generate_moves(Board(), "RA??", one_blank, small)
    assert refused.value.message == "Le tirage compte 2 « ? » : le jeu n'en a que 1."
    assert generate_moves(Board(), "RAT?", one_blank, small)


def test_lowercase_accents_and_spaces_in_the_rack_are_read_as_letters(small, fr):
    assert generated(Board(), "r a t", fr, small) == generated(Board(), "RAT", fr, small)
    assert generated(Board(), "été", fr, small) == generated(Board(), "ETE", fr, small)


# Ties (FISF §3.4)


def test_equal_first_moves_go_horizontal_then_by_square_then_by_word(small, fr):
    moves = generate_moves(Board(), "AI", fr, small)
    assert [move.notation for move in moves[:4]] == ["H7 AI", "H8 AI", "8G AI", "8H AI"]


def test_a_move_without_blank_comes_before_an_equal_one_with_a_blank(small, fr):
    moves = generate_moves(Board(), "ES?", fr, small)
    assert moves[0].notation == "H7 ES"
    assert moves[0].score == 4
    assert any(move.blanks and move.score == 4 for move in moves)
    assert top_moves(Board(), "ES?", fr, small)[0].move.notation == "H7 ES"


def test_a_move_that_ends_the_game_is_kept_first(small, fr):
    moves = generate_moves(Board(), "ES?", fr, small, bag_empty=True)
    top = moves[0]
    assert (top.score, top.ends_game, top.tiles_placed, top.blanks) == (4, True, 3, 1)
    assert not generate_moves(Board(), "ES?", fr, small)[0].ends_game


def test_top_moves_are_evaluate_plays_in_rank_order(small, fr):
    board = board_with(**MIDGAME)
    plays = top_moves(board, "TUER", fr, small, limit=5)
    moves = generate_moves(board, "TUER", fr, small)
    assert [(play.move.notation, play.score) for play in plays] == [(m.notation, m.score) for m in moves[:5]]


def test_best_moves_are_the_first_moves_and_the_count_of_all(small, fr):
    board = board_with(**MIDGAME)
    moves = generate_moves(board, "TUER?", fr, small)
    assert best_moves(board, "TUER?", fr, small, limit=5) == (moves[:5], len(moves))


def test_a_search_past_its_time_limit_gives_what_it_found_and_says_so(small, fr, ticking_clock):
    board = board_with(**MIDGAME)
    every_move = generate_moves(board, "TUER?", fr, small)
    with pytest.raises(OutOfTime) as stopped:
        best_moves(board, "TUER?", fr, small, limit=5, time_limit=10)
    found = stopped.value.found
    assert 0 < found.count < len(every_move)
    assert set(found.moves) <= set(every_move)
    assert found.moves == sorted(found.moves, key=every_move.index)
    assert stopped.value.message == (
        "Recherche arrêtée faute de temps : seuls les coups trouvés jusque-là sont comptés, le meilleur peut y manquer."
    )
    assert best_moves(board, "TUER?", fr, small, limit=5, time_limit=10_000).count == len(every_move)


def test_a_word_search_past_its_time_limit_gives_the_words_found_and_says_so(small, fr, ticking_clock):
    every_word = words_from_letters("SEULTA?", fr, small)
    with pytest.raises(OutOfTime) as stopped:
        words_from_letters("SEULTA?", fr, small, time_limit=5)
    found = stopped.value.found
    assert 0 < len(found) < len(every_word)
    assert set(found) <= set(every_word)
    assert stopped.value.message == "Recherche arrêtée faute de temps : seuls les mots trouvés jusque-là sont listés."
    assert words_from_letters("SEULTA?", fr, small, time_limit=10_000) == every_word


# Words from letters


def test_words_from_letters_longest_first_with_values_and_sum(small, fr):
    found = words_from_letters("RAT?", fr, small)
    assert found[0] == ("RATe", (1, 1, 1, 0), 3)
    assert ("ART", (1, 1, 1), 3) in found
    assert ("TAs", (1, 1, 0), 2) in found
    lengths = [len(word.values) for word in found]
    assert lengths == sorted(lengths, reverse=True)


def test_words_from_letters_are_every_listed_word_the_letters_make(small, fr):
    def makes(word, letters):
        rest = list(letters)
        for letter in word:
            if letter in rest:
                rest.remove(letter)
            elif "?" in rest:
                rest.remove("?")
            else:
                return False
        return True

    found = words_from_letters("SEULTA?", fr, small)
    assert sorted(word.word.upper() for word in found) == sorted(w for w in SMALL_WORDS if makes(w, "SEULTA?"))


def test_words_from_letters_use_the_real_tile_before_a_blank(small, fr):
    found = {word.word: word for word in words_from_letters("ZO?", fr, small)}
    assert found["ZOo"].total == 11
    assert "Zoo" not in found


# The French list


@pytest.fixture(scope="module")
def french():
    if not FRENCH_WORDLIST.exists():
        pytest.skip(f"{FRENCH_WORDLIST} is absent")
    return default_french_lexicon()


@pytest.fixture(scope="module")
def french_index(french):
    return lexicon_index(french, BUILTIN_EDITIONS["fr"])


def test_the_french_index_knows_the_words_of_facts_6(french_index):
    assert all(word in french_index for word in ["QI", "WU", "KIWI", "ZEBRE", "JOUEZ", "MOUTONS"])
    assert not any(word in french_index for word in ["AA", "KA", "FAQIR"])
    assert french_index.word_count == 400_344


# Other editions


def test_spanish_two_letter_tiles_are_one_tile_each():
    spanish = BUILTIN_EDITIONS["es"]
    index = build_gaddag(["CHICO", "OCHO", "PERRO", "PERO"], alphabet_of(spanish))
    moves = generate_moves(Board(), "CHICO", spanish, index)
    chico = next(move for move in moves if move.word == "CHICO")
    assert chico.tiles_placed == 4
    assert chico.score == chico.play(Board(), spanish).score
    assert "PERO" in index and "PERRO" in index


def test_polish_thirty_two_letters_fit_wider_cells():
    polish = BUILTIN_EDITIONS["pl"]
    index = build_gaddag(["ŻÓŁW", "ŁÓW", "ŹLE"], alphabet_of(polish))
    assert index.nodes.itemsize == 8
    moves = generate_moves(Board(), "ŻÓŁWŹLE", polish, index)
    assert {move.word for move in moves} == {"ŻÓŁW", "ŁÓW", "ŹLE"}
    assert all(move.score == move.play(Board(), polish).score for move in moves)
