"""The top finder's engine (scoring.engine.movegen, issue 6) on the French list, one core.

Targets: median time to generate every move of a rack, scored and ranked, on the positions of real games
(the board before each move of ../shared/oracle/eliot_fr.jsonl, or a short built-in game without it):
at most 10 ms with no blank, 80 ms with one, 400 ms with two; GADDAG build at most 30 s; load from the
cache at most 0.5 s; at most 100 MB resident with the list loaded and the three variants' moves generated.
For scale: a compiled GADDAG solver (TypeScript) takes about 2/16/72 ms, a plain pure-Python DAWG generator
about 9/85/400 ms.

Each position's rack is the move's new tiles (a blank as its letter) topped up to 7 with random letters of
what remains in the bag; the one- and two-blank variants turn its last letters into blanks. The build is timed
here; the rest runs in a fresh interpreter pinned to one core (`python -m bench.bench_movegen CACHE_DIR`),
so that its load time is a cold read of the cache and its memory figure owes nothing to the build.
"""

import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench import verdict
from bench.bench_engine import FALLBACK_GAME, positions
from scoring.engine.draw import bag_after
from scoring.engine.editions import BLANK, BUILTIN_EDITIONS

TARGET_MS = {0: 10, 1: 80, 2: 400}
TARGET_BUILD_SECONDS = 30
TARGET_LOAD_SECONDS = 0.5
TARGET_RESIDENT_MEGABYTES = 100
COMPILED_MS = {0: 2, 1: 16, 2: 72}
PURE_PYTHON_DAWG_MS = {0: 9, 1: 85, 2: 400}
RACK = 7


def racks(edition, seed=6):
    """(board, rack with 0, 1 and 2 blanks) for the board before each recorded move."""
    chooser = random.Random(seed)
    out = []
    for board, move, _text in positions(edition):
        placed = [tile for _, tile in board.evaluate(move, edition).placed]
        letters = [tile.letter for tile in placed]
        bag = bag_after(edition, [tile for _, tile in board.tiles()] + placed, [])
        pool = [letter for letter in bag if letter != BLANK]
        letters += chooser.sample(pool, min(max(RACK - len(letters), 0), len(pool)))
        rack = "".join(letters)
        out.append((board, {blanks: rack[: len(rack) - blanks] + BLANK * blanks for blanks in (0, 1, 2)}))
    return out


def resident_megabytes() -> tuple[float, float]:
    """(current, peak) resident set size; the process's peak for both where /proc is missing (macOS)."""
    status = Path("/proc/self/status")
    if not status.exists():
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
        return peak, peak
    fields = dict(line.split(":", 1) for line in status.read_text().splitlines() if ":" in line)
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


def reset_peak() -> None:
    """Start the peak (VmHWM) again from the current size, where Linux allows it."""
    clear_refs = Path("/proc/self/clear_refs")
    if clear_refs.exists():
        clear_refs.write_text("5")


def measure(directory: str | None) -> dict:
    """In a fresh interpreter: load the list and its cached index (from `directory`, else the default cache
    directory), generate every rack's moves."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    from scoring.engine.gaddag import lexicon_index
    from scoring.engine.lexicon import default_french_lexicon
    from scoring.engine.movegen import generate_moves

    edition = BUILTIN_EDITIONS["fr"]
    lexicon = default_french_lexicon()
    list_resident, list_peak = resident_megabytes()
    reset_peak()
    started = time.perf_counter()
    index = lexicon_index(lexicon, edition, directory)
    load_seconds = time.perf_counter() - started
    cases = racks(edition)
    times = {blanks: [] for blanks in TARGET_MS}
    moves = {blanks: [] for blanks in TARGET_MS}
    for board, variants in cases:
        for blanks, rack in variants.items():
            started = time.perf_counter()
            found = generate_moves(board, rack, edition, index)
            times[blanks].append((time.perf_counter() - started) * 1000)
            moves[blanks].append(len(found))
            del found
    resident, peak = resident_megabytes()
    return {
        "positions": len(cases),
        "load_seconds": load_seconds,
        "index_megabytes": index.size_bytes / 2**20,
        "times": times,
        "moves": moves,
        "list_resident": list_resident,
        "list_peak": list_peak,
        "resident": resident,
        "peak": peak,
    }


def main():
    from scoring.engine.gaddag import alphabet_of, build_gaddag, lexicon_digest, save_gaddag
    from scoring.engine.lexicon import default_french_lexicon

    edition = BUILTIN_EDITIONS["fr"]
    lexicon = default_french_lexicon()
    alphabet = alphabet_of(edition)
    started = time.perf_counter()
    index = build_gaddag(lexicon.words(), alphabet, lexicon_digest(lexicon, alphabet))
    build_seconds = time.perf_counter() - started
    with tempfile.TemporaryDirectory() as directory:
        save_gaddag(index, Path(directory) / f"gaddag-{index.digest[:32]}.bin")
        del index
        run = subprocess.run(
            [sys.executable, "-m", "bench.bench_movegen", directory],
            cwd=Path(__file__).resolve().parents[1],
            capture_output=True,
            text=True,
            check=True,
        )
    figures = json.loads(run.stdout)
    out = {
        "positions": f"{figures['positions']} "
        f"({'eliot_fr.jsonl' if figures['positions'] > len(FALLBACK_GAME) else 'built-in game'})",
        "GADDAG": f"{figures['index_megabytes']:.1f} MB",
        "build": f"{build_seconds:.1f} s (target ≤ {TARGET_BUILD_SECONDS} s: "
        f"{verdict(build_seconds <= TARGET_BUILD_SECONDS)})",
        "load from the cache": f"{figures['load_seconds']:.2f} s (target ≤ {TARGET_LOAD_SECONDS} s: "
        f"{verdict(figures['load_seconds'] <= TARGET_LOAD_SECONDS)})",
    }
    for blanks, target in TARGET_MS.items():
        times = figures["times"][str(blanks)]
        median = statistics.median(times)
        out[f"{blanks} blank{'s' if blanks > 1 else ''}: median"] = (
            f"{median:.1f} ms (target ≤ {target} ms: {verdict(median <= target)}; compiled "
            f"{COMPILED_MS[blanks]} ms, pure-Python DAWG {PURE_PYTHON_DAWG_MS[blanks]} ms)"
        )
        out[f"{blanks} blank{'s' if blanks > 1 else ''}: spread"] = (
            f"p90 {statistics.quantiles(times, n=10)[-1]:.1f} ms, max {max(times):.1f} ms, "
            f"median {statistics.median(figures['moves'][str(blanks)]):,.0f} moves a rack"
        )
    highest = max(figures["resident"], figures["peak"])
    out["resident memory"] = (
        f"{figures['resident']:.1f} MB after all racks, peak {figures['peak']:.1f} MB from the index load on "
        f"(target ≤ {TARGET_RESIDENT_MEGABYTES} MB: {verdict(highest <= TARGET_RESIDENT_MEGABYTES)})"
    )
    out["… of which the word list"] = (
        f"{figures['list_resident']:.1f} MB with Python and the list loaded; "
        f"loading the list peaks at {figures['list_peak']:.1f} MB before the index exists (scoring.engine.lexicon)"
    )
    return out


if __name__ == "__main__":
    print(json.dumps(measure(sys.argv[1] if len(sys.argv) > 1 else None)))
