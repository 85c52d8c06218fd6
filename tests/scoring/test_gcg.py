import pytest

from scoring.engine.errors import NotationError
from scoring.engine.gcg import (
    decode_gcg,
    format_gcg_coordinate,
    format_gcg_word,
    parse_gcg,
    parse_gcg_coordinate,
    replay_gcg,
)
from scoring.engine.moves import Board, Move

RECORD = """#character-encoding UTF-8
#player1 ann Ann Dupont
#player2 bob Bob
>ann: AEGUV?X 8D VAGUE +26 26
>bob: AINOSXY D7 A.IONS +18 18
>ann: EXZ?TTS 8D .....S +10 36
>ann: EXZ?TTS --  -10 26
>bob: EHKRS -HK +0 18
>ann: ETT - +0 26
>bob: EIR (challenge) +5 23
>ann: (EIR) +6 32
"""


def test_gcg_coordinates_are_the_mirror_of_fisf():
    assert parse_gcg_coordinate("8D") == (7, 3, True)  # FISF H4
    assert parse_gcg_coordinate("D8") == (7, 3, False)  # FISF 4H
    assert format_gcg_coordinate(Move(7, 3, True, ())) == "8D"
    assert format_gcg_coordinate(Move(6, 3, False, ())) == "D7"
    with pytest.raises(NotationError):
        parse_gcg_coordinate("16A")


def test_parse_reads_players_and_every_kind_of_line():
    game = parse_gcg(RECORD)
    assert game.players == [("ann", "Ann Dupont"), ("bob", "Bob")]
    assert [(e.kind, e.score, e.cumulative) for e in game.events] == [
        ("play", 26, 26),
        ("play", 18, 18),
        ("play", 10, 36),
        ("phony", -10, 26),
        ("exchange", 0, 18),
        ("pass", 0, 26),
        ("challenge", 5, 23),
        ("end_rack", 6, 32),
    ]
    assert game.events[4].word == "HK"


def test_replay_scores_dots_as_placed_tiles_and_takes_back_phonies(fr):
    game = parse_gcg(RECORD + ">bob: ERS 8D .....S +10 28\n")
    replayed = replay_gcg(game, fr)
    assert [(m.play.move.notation, m.computed) for m in replayed] == [
        ("H4 VAGUE", 26),
        ("4G AVIONS", 18),
        ("H4 VAGUES", 10),
        ("H4 VAGUES", 10),
    ]


def test_format_gcg_word_writes_dots_for_placed_tiles(fr):
    board = Board.from_moves(["H4 VAGUE"], fr)
    play = board.evaluate(Move.parse("4G AVIoNS", fr), fr)
    assert format_gcg_word(play) == "A.IoNS"


def test_latin1_without_pragma_and_utf8_with_it():
    assert decode_gcg("#player1 é é\n".encode("iso-8859-1")) == "#player1 é é\n"
    assert decode_gcg("#character-encoding UTF-8\n#player1 é é\n".encode()).endswith("é é\n")


def test_unreadable_line_names_its_number():
    with pytest.raises(NotationError) as caught:
        parse_gcg("#player1 a a\n>a: ABC 8D +x 3\n")
    assert caught.value.message == "Ligne 2 : score illisible dans le fichier GCG."
