"""Engine throughput: validate + score (main and cross words) on the positions of real games, one core.

Target (issue 2): at least 40,000 moves/s. Positions come from ../shared/oracle/eliot_fr.jsonl (181 moves of
real French games); without it, from a short built-in game.
"""

import json
import os
import time
from pathlib import Path

from scoring.engine.editions import BUILTIN_EDITIONS
from scoring.engine.moves import Board, Move

TARGET_MOVES_PER_SECOND = 40_000
ORACLE = Path(os.environ.get("SHARED_DIR", Path(__file__).resolve().parents[1].parent / "shared")) / "oracle"
FALLBACK_GAME = ["H4 VAGUE", "4G AVIONS", "L4 SEXE", "M3 KIWI", "8H ETE"]


def positions(edition):
    path = ORACLE / "eliot_fr.jsonl"
    games = (
        [[text for text, _ in json.loads(line)["moves"]] for line in path.read_text().splitlines() if line]
        if path.exists()
        else [FALLBACK_GAME]
    )
    out = []
    for game in games:
        board = Board()
        for text in game:
            move = Move.parse(text, edition)
            out.append((board.copy(), move, text))
            board.play(move, edition)
    return out


def rate(function, items, seconds=1.5):
    """Calls per second of function over the items, repeated for about `seconds`."""
    count = 0
    started = time.perf_counter()
    while (elapsed := time.perf_counter() - started) < seconds:
        for item in items:
            function(item)
        count += len(items)
    return count / elapsed


def main():
    edition = BUILTIN_EDITIONS["fr"]
    cases = positions(edition)
    evaluate = rate(lambda case: case[0].evaluate(case[1], edition), cases)
    parse_and_evaluate = rate(lambda case: case[0].evaluate(Move.parse(case[2], edition), edition), cases)
    calculation = rate(lambda case: [w.calculation for w in case[0].evaluate(case[1], edition).words], cases)
    return {
        "positions": f"{len(cases)} ({'eliot_fr.jsonl' if len(cases) > len(FALLBACK_GAME) else 'built-in game'})",
        "validate + score": f"{evaluate:,.0f} moves/s (target ≥ {TARGET_MOVES_PER_SECOND:,}: "
        f"{'met' if evaluate >= TARGET_MOVES_PER_SECOND else 'MISSED'})",
        "parse + validate + score": f"{parse_and_evaluate:,.0f} moves/s",
        "… + calculation text of every word": f"{calculation:,.0f} moves/s",
    }
