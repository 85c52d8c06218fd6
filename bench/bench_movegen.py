"""The top finder (scoring.engine.movegen, compiled by numba: issue 14) on the French list, one core.

Targets: median time to generate every move of a rack, scored and ranked, on the positions of real games
(the board before each move of ../shared/oracle/eliot_fr.jsonl, or a short built-in game without it):
at most 1 ms with no blank, 8 ms with one, 36 ms with two (half of what scrabble-solver, a compiled TypeScript
solver, took on these positions); the review of a whole game (every rack of both players in a game of some 20
moves, played to its end by the top finder) in at most 1 s; GADDAG build at most 30 s; load from the cache at
most 0.5 s; at most 100 MB resident with the list loaded and the three variants' moves generated.

The times are CPU times of the searching thread (of the node process for scrabble-solver), each program alone
on the same core: on a machine whose cores other work shares they count the work done, where elapsed times would
count the waits for the core too (the bench prints their medians beside).

Each position's rack is the move's new tiles (a blank as its letter) topped up to 7 with random letters of
what remains in the bag; the one- and two-blank variants turn its last letters into blanks. The build is timed
here; the rest runs in a fresh interpreter pinned to one core (`python -m bench.bench_movegen CACHE_DIR`),
so that its load time is a cold read of the cache and its memory figure owes nothing to the build. numba's
machine code is compiled once into an empty cache directory by a first interpreter (what a new machine pays
once), which the measuring interpreter then loads (what each new process pays).

When `node` and `npm` are there, scrabble-solver (npm package `scrabble-solver`, which ships its solver's built
packages; installed once under the cache directory, never in the repository) solves the same racks on the same
boards with the same word list, pinned to the same core, in the same run (bench/scrabble_solver.js); the bench
prints its medians and our ratio to them. Without node it says so and prints ours alone.
"""

import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

from bench import verdict
from bench.bench_engine import FALLBACK_GAME, positions
from scoring.engine.draw import bag_after
from scoring.engine.editions import BLANK, BUILTIN_EDITIONS

TARGET_MS = {0: 1, 1: 8, 2: 36}
TARGET_REVIEW_SECONDS = 1
TARGET_RATIO = 0.5
TARGET_BUILD_SECONDS = 30
TARGET_LOAD_SECONDS = 0.5
TARGET_RESIDENT_MEGABYTES = 100
REVIEW_SEED = 20
SCRABBLE_SOLVER = "scrabble-solver@2.18.4"
# What its solver needs at run time, as the npm tarball holds it under packages/: the built workspace packages,
# and @kamilmielnik/gaddag (its GADDAG, by the same author) as packages/gaddag.
SCRABBLE_SOLVER_PACKAGES = {
    "solver": "@scrabble-solver/solver",
    "types": "@scrabble-solver/types",
    "constants": "@scrabble-solver/constants",
    "configs": "@scrabble-solver/configs",
    "gaddag": "@kamilmielnik/gaddag",
}
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


def review_racks(edition, index, seed=REVIEW_SEED):
    """(board, rack) for every move of a whole two-player game: each player draws up to 7 from the bag and plays
    the top of his rack, until one has played his last tile with the bag empty or neither can play."""
    from scoring.engine.movegen import generate_moves
    from scoring.engine.moves import Board

    chooser = random.Random(seed)
    board = Board()
    held = [[], []]
    out = []
    passes = 0
    while passes < 2:
        rack = held[len(out) % 2]
        bag = bag_after(edition, [tile for _, tile in board.tiles()], held[0] + held[1])
        rack += chooser.sample(bag, min(RACK - len(rack), len(bag)))
        out.append((board.copy(), "".join(rack)))
        moves = generate_moves(board, "".join(rack), edition, index)
        if not moves:
            passes += 1
            continue
        passes = 0
        play = moves[0].play(board, edition)
        board.place(play)
        for _square, tile in play.placed:
            rack.remove(BLANK if tile.blank else tile.letter)
        if not rack and len(bag) <= play.tiles_placed:
            break
    return out


def resident_megabytes() -> tuple[float, float]:
    """(current, peak) resident set size; the process's peak for both where /proc is missing (macOS)."""
    status = Path("/proc/self/status")
    if not status.exists():
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
        return peak, peak
    fields = _status_fields(status)
    return fields["VmRSS"], fields["VmHWM"]


def resident_file_megabytes() -> float | None:
    """The part of the resident set that maps files (shared libraries: LLVM's for numba), shared by every process
    that maps them; None where /proc is missing."""
    status = Path("/proc/self/status")
    return _status_fields(status)["RssFile"] if status.exists() else None


def _status_fields(status: Path) -> dict[str, float]:
    fields = dict(line.split(":", 1) for line in status.read_text().splitlines() if ":" in line)
    return {name: int(value.split()[0]) / 1024 for name, value in fields.items() if value.strip().endswith("kB")}


def reset_peak() -> None:
    """Start the peak (VmHWM) again from the current size, where Linux allows it."""
    clear_refs = Path("/proc/self/clear_refs")
    if clear_refs.exists():
        clear_refs.write_text("5")


def pin_to_one_core() -> None:
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def first_search_seconds() -> float:
    """In a fresh interpreter: the first search's time, importing and loading (or compiling) the kernel."""
    from scoring.engine.gaddag import alphabet_of, build_gaddag
    from scoring.engine.movegen import generate_moves
    from scoring.engine.moves import Board

    edition = BUILTIN_EDITIONS["fr"]
    index = build_gaddag(["AI", "IL", "LA"], alphabet_of(edition))
    started = time.perf_counter()
    generate_moves(Board(), "AIL", edition, index)
    return time.perf_counter() - started


def measure(directory: str | None) -> dict:
    """In a fresh interpreter: load the list and its cached index (from `directory`, else the default cache
    directory), generate every rack's moves, then review a whole game."""
    pin_to_one_core()
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
    index_resident, _peak = resident_megabytes()
    first_search = first_search_seconds()
    kernel_resident, _peak = resident_megabytes()
    cases = racks(edition)
    times = {blanks: [] for blanks in TARGET_MS}
    moves = {blanks: [] for blanks in TARGET_MS}
    best = {blanks: [] for blanks in TARGET_MS}
    wall_times = {blanks: [] for blanks in TARGET_MS}
    for board, variants in cases:
        for blanks, rack in variants.items():
            started, started_on_cpu = time.perf_counter(), time.thread_time()
            found = generate_moves(board, rack, edition, index)
            times[blanks].append((time.thread_time() - started_on_cpu) * 1000)
            wall_times[blanks].append((time.perf_counter() - started) * 1000)
            moves[blanks].append(len(found))
            best[blanks].append(found[0].score if found else 0)
            del found
    resident, peak = resident_megabytes()
    game = review_racks(edition, index)
    started = time.perf_counter()
    for board, rack in game:
        generate_moves(board, rack, edition, index)
    review_seconds = time.perf_counter() - started
    return {
        "positions": len(cases),
        "first_search_seconds": first_search,
        "load_seconds": load_seconds,
        "index_megabytes": index.size_bytes / 2**20,
        "times": times,
        "wall_times": wall_times,
        "moves": moves,
        "best": best,
        "list_resident": list_resident,
        "list_peak": list_peak,
        "index_resident": index_resident,
        "kernel_resident": kernel_resident,
        "resident": resident,
        "resident_file": resident_file_megabytes(),
        "peak": peak,
        "review_racks": len(game),
        "review_blanks": sum(rack.count(BLANK) for _board, rack in game),
        "review_seconds": review_seconds,
    }


def scrabble_solver_input(edition, directory: Path) -> Path:
    """The JSON bench/scrabble_solver.js reads: our word list and the boards and racks we time, in its letters."""
    from scoring.engine.lexicon import default_french_lexicon

    words = directory / "words.txt"
    words.write_text("\n".join(word.lower() for word in default_french_lexicon().words()))
    boards = []
    for board, variants in racks(edition):
        cells = [None if tile is None else [tile.letter.lower(), tile.blank] for tile in board.cells]
        boards.append(
            {
                "board": [cells[row * 15 : row * 15 + 15] for row in range(15)],
                "racks": {blanks: rack.lower().replace(BLANK, " ") for blanks, rack in variants.items()},
            }
        )
    path = directory / "positions.json"
    path.write_text(json.dumps({"words": str(words), "positions": boards}))
    return path


def install_scrabble_solver() -> Path:
    """The node_modules of scrabble-solver's solver under the cache directory, unpacked there on the first run from
    the package's npm tarball (which ships the built packages of its repository)."""
    from scoring.engine.gaddag import cache_dir

    home = cache_dir() / SCRABBLE_SOLVER.replace("@", "-")
    modules = home / "node_modules"
    if all((modules / name / "package.json").exists() for name in SCRABBLE_SOLVER_PACKAGES.values()):
        return modules
    home.mkdir(parents=True, exist_ok=True)
    packed = subprocess.run(
        ["npm", "pack", "--loglevel=error", SCRABBLE_SOLVER],
        cwd=home,
        check=True,
        capture_output=True,
        text=True,
        timeout=300,
    )
    tarball = home / packed.stdout.strip().splitlines()[-1]
    with tarfile.open(tarball) as archive:
        for folder, name in SCRABBLE_SOLVER_PACKAGES.items():
            prefix = f"package/packages/{folder}/"
            members = [
                member
                for member in archive.getmembers()
                if member.name.startswith(prefix) and member.isfile() and "/src/" not in member.name
            ]
            for member in members:
                member.name = member.name[len(prefix) :]
            archive.extractall(modules / name, members=members, filter="data")
            manifest = modules / name / "package.json"
            if not manifest.exists():
                manifest.write_text(json.dumps({"name": name, "main": "build/index.js"}))
    tarball.unlink()
    return modules


def run_scrabble_solver(edition) -> dict | str:
    """scrabble-solver's figures on our positions, or why it could not run."""
    if not (shutil.which("node") and shutil.which("npm")):
        return "node and npm are not installed"
    try:
        modules = install_scrabble_solver()
        with tempfile.TemporaryDirectory() as directory:
            run = subprocess.run(
                ["node", str(Path(__file__).with_name("scrabble_solver.js")), str(modules),
                 str(scrabble_solver_input(edition, Path(directory)))],
                capture_output=True,
                text=True,
                check=True,
                timeout=1800,
                preexec_fn=pin_to_one_core,
            )  # fmt: skip
    except subprocess.CalledProcessError as error:
        lines = (error.stderr or error.stdout or b"").strip().splitlines()
        last = lines[-1] if lines else f"exit status {error.returncode}"
        return f"{' '.join(map(str, error.cmd[:2]))} failed: {last if isinstance(last, str) else last.decode()}"
    except (OSError, subprocess.TimeoutExpired, tarfile.TarError) as error:
        return str(error)
    return json.loads(run.stdout)


def main():
    from scoring.engine.gaddag import alphabet_of, build_gaddag, lexicon_digest, save_gaddag
    from scoring.engine.lexicon import default_french_lexicon

    edition = BUILTIN_EDITIONS["fr"]
    lexicon = default_french_lexicon()
    alphabet = alphabet_of(edition)
    started = time.perf_counter()
    index = build_gaddag(lexicon.words(), alphabet, lexicon_digest(lexicon, alphabet))
    build_seconds = time.perf_counter() - started
    root = Path(__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory() as directory:
        save_gaddag(index, Path(directory) / f"gaddag-{index.digest[:32]}.bin")
        del index
        # numba compiles into an empty cache directory in a first interpreter, the second loads what it saved.
        environment = {**os.environ, "NUMBA_CACHE_DIR": str(Path(directory) / "numba")}
        compiling = subprocess.run(
            [sys.executable, "-c", "from bench.bench_movegen import first_search_seconds as f; print(f())"],
            cwd=root,
            env=environment,
            capture_output=True,
            text=True,
            check=True,
        )
        run = subprocess.run(
            [sys.executable, "-m", "bench.bench_movegen", directory],
            cwd=root,
            env=environment,
            capture_output=True,
            text=True,
            check=True,
        )
    figures = json.loads(run.stdout)
    theirs = run_scrabble_solver(edition)
    out = {
        "positions": f"{figures['positions']} "
        f"({'eliot_fr.jsonl' if figures['positions'] > len(FALLBACK_GAME) else 'built-in game'})",
        "GADDAG": f"{figures['index_megabytes']:.1f} MB",
        "build": f"{build_seconds:.1f} s (target ≤ {TARGET_BUILD_SECONDS} s: "
        f"{verdict(build_seconds <= TARGET_BUILD_SECONDS)})",
        "load from the cache": f"{figures['load_seconds']:.2f} s (target ≤ {TARGET_LOAD_SECONDS} s: "
        f"{verdict(figures['load_seconds'] <= TARGET_LOAD_SECONDS)})",
        "compiled code": f"the first search compiles it once, {float(compiling.stdout):.1f} s, and saves it in the "
        f"cache directory; a new process's first search loads it, {figures['first_search_seconds']:.2f} s",
    }
    if isinstance(theirs, str):
        out["scrabble-solver"] = f"not available: {theirs}; our figures alone"
    else:
        out["scrabble-solver"] = (
            f"{SCRABBLE_SOLVER}, its GADDAG of the same words built in {theirs['load_ms'] / 1000:.1f} s"
        )
    for blanks, target in TARGET_MS.items():
        times = figures["times"][str(blanks)]
        median = statistics.median(times)
        label = f"{blanks} blank{'s' if blanks > 1 else ''}"
        out[f"{label}: median"] = f"{median:.2f} ms (target ≤ {target} ms: {verdict(median <= target)})"
        out[f"{label}: spread"] = (
            f"p90 {statistics.quantiles(times, n=10)[-1]:.1f} ms, max {max(times):.1f} ms, "
            f"median {statistics.median(figures['moves'][str(blanks)]):,.0f} moves a rack, "
            f"median of the elapsed times {statistics.median(figures['wall_times'][str(blanks)]):.2f} ms"
        )
        if not isinstance(theirs, str):
            their_median = statistics.median(theirs["times"][str(blanks)])
            ratio = median / their_median
            agreeing = sum(
                ours == other
                for ours, other in zip(figures["best"][str(blanks)], theirs["best"][str(blanks)], strict=True)
            )
            out[f"{label}: scrabble-solver"] = (
                f"median {their_median:.2f} ms (elapsed {statistics.median(theirs['wall_times'][str(blanks)]):.2f} "
                f"ms), ours {ratio:.2f} of it (target ≤ {TARGET_RATIO}: "
                f"{verdict(ratio <= TARGET_RATIO)}); same best score on {agreeing} of {len(times)} racks, "
                f"median {statistics.median(theirs['moves'][str(blanks)]):,.0f} moves a rack"
            )
    out["review of a whole game"] = (
        f"{figures['review_seconds']:.2f} s for every rack of a two-player game played to its end, "
        f"{figures['review_racks']} racks, {figures['review_blanks']} blanks among them "
        f"(target ≤ {TARGET_REVIEW_SECONDS} s: {verdict(figures['review_seconds'] <= TARGET_REVIEW_SECONDS)})"
    )
    highest = max(figures["resident"], figures["peak"])
    shared = figures["resident_file"]
    out["resident memory"] = (
        f"{figures['resident']:.1f} MB after all racks, peak {figures['peak']:.1f} MB from the index load on "
        f"(target ≤ {TARGET_RESIDENT_MEGABYTES} MB: {verdict(highest <= TARGET_RESIDENT_MEGABYTES)})"
        + ("" if shared is None else f"; {shared:.1f} MB of it maps files, numba's LLVM library above all")
    )
    out["… of which numba"] = (
        f"{figures['kernel_resident'] - figures['index_resident']:.1f} MB: {figures['index_resident']:.1f} MB with the "
        f"list and the index loaded, {figures['kernel_resident']:.1f} MB once the first search has imported numba "
        "and loaded the compiled code"
    )
    out["… of which the word list"] = (
        f"{figures['list_resident']:.1f} MB with Python and the list loaded; "
        f"loading the list peaks at {figures['list_peak']:.1f} MB before the index exists (scoring.engine.lexicon)"
    )
    return out


if __name__ == "__main__":
    print(json.dumps(measure(sys.argv[1] if len(sys.argv) > 1 else None)))
