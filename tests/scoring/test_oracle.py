"""Published game records replayed through the engine: every recorded score must come out again."""

import pytest

from scoring.engine.editions import BUILTIN_EDITIONS
from scoring.engine.gcg import decode_gcg, parse_gcg, replay_gcg
from scoring.engine.moves import Board, Move

from .conftest import ORACLE_DIR, eliot_games, oracle_path


def test_every_eliot_move_scores_as_recorded(fr):
    checked = 0
    for game in eliot_games():
        board = Board()
        for text, recorded in game["moves"]:
            play = board.play(Move.parse(text, fr), fr)
            assert (game["source"], text, play.score) == (game["source"], text, recorded)
            checked += 1
    assert checked == 181


def test_woogles_french_game_scores_as_recorded(fr):
    game = parse_gcg(decode_gcg(oracle_path("woogles_fra24_TfnqTZkYPL.gcg").read_bytes()))
    replayed = replay_gcg(game, fr)
    assert [(m.event.line, m.computed) for m in replayed] == [(m.event.line, m.event.score) for m in replayed]
    assert len(replayed) == 22
    assert game.players == [("Hannibal9", "Thomas POTIER"), ("HastyBot", "HastyBot")]


def english_records():
    directory = ORACLE_DIR / "gcg_english"
    return sorted(directory.glob("*.gcg")) if directory.exists() else []


@pytest.mark.skipif(not english_records(), reason="../shared/oracle/gcg_english is absent (set SHARED_DIR)")
def test_english_tournament_games_score_as_recorded(en):
    checked = 0
    for path in english_records():
        replayed = replay_gcg(parse_gcg(decode_gcg(path.read_bytes())), en)
        mismatches = [
            (path.name, m.event.line, m.event.score, m.computed, m.error)
            for m in replayed
            if m.computed != m.event.score
        ]
        assert mismatches == []
        checked += len(replayed)
    assert checked == 277


def test_iso_8859_1_record_without_pragma_decodes():
    text = decode_gcg(oracle_path("gcg_english/name_iso8859-1.gcg").read_bytes())
    assert parse_gcg(text).players[0] == ("césar", "césar")


def test_unused_edition_fixture_keeps_english_values():
    assert BUILTIN_EDITIONS["en"].values["Q"] == 10
