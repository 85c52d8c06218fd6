import json
import os
from itertools import count
from pathlib import Path

import pytest

from scoring.engine import movegen
from scoring.engine.board import square_index
from scoring.engine.editions import BUILTIN_EDITIONS
from scoring.engine.moves import Board, Tile

SHARED_DIR = Path(os.environ.get("SHARED_DIR", Path(__file__).resolve().parents[2].parent / "shared"))
ORACLE_DIR = SHARED_DIR / "oracle"


def oracle_path(name: str) -> Path:
    """A published game record from ../shared/oracle, or a skip saying why it is missing."""
    path = ORACLE_DIR / name
    if not path.exists():
        pytest.skip(f"{path} is absent: the oracle records live in ../shared (set SHARED_DIR to point elsewhere)")
    return path


def eliot_games() -> list[dict]:
    return [json.loads(line) for line in oracle_path("eliot_fr.jsonl").read_text().splitlines() if line]


@pytest.fixture
def fr():
    return BUILTIN_EDITIONS["fr"]


@pytest.fixture
def en():
    return BUILTIN_EDITIONS["en"]


def board_with(**squares: str) -> Board:
    """A board holding the given tiles (`H8="T"`; lowercase = blank), laid without validation."""
    board = Board()
    for name, letter in squares.items():
        board.cells[square_index(name)] = Tile(letter.upper(), letter.islower())
        board.tile_count += 1
    return board


@pytest.fixture
def ticking_clock(monkeypatch):
    """The searches' clock moves on one second each time it is read, so a time limit of n seconds lets a search
    read it n times: where a search stops no longer depends on the machine's speed. The top finder reads it after
    each anchor square."""
    ticks = count()
    monkeypatch.setattr(movegen, "monotonic", lambda: next(ticks))
    monkeypatch.setattr(movegen, "_searched", True)  # a process's first search is not timed: these are
    monkeypatch.setattr(movegen, "_STEPS_BETWEEN_CLOCK_READS", 1)
