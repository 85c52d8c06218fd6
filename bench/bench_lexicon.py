"""The free French word list (scoring.engine.lexicon): load time, membership time and resident memory.

Targets: load under 2 s, a lookup under 5 µs, under 60 MB of resident memory added. The measure runs in a
fresh interpreter (`python -m bench.bench_lexicon`) so that earlier benches don't skew its memory figure.
"""

import gzip
import json
import os
import random
import resource
import subprocess
import sys
import time
from pathlib import Path

from bench import verdict

TARGET_LOAD_SECONDS = 2.0
TARGET_LOOKUP_MICROSECONDS = 5.0
TARGET_ADDED_MEGABYTES = 60.0
LOOKUPS = 200_000


def resident_megabytes() -> float:
    """Current resident set size; the peak one where /proc is missing (macOS), which can only overstate."""
    statm = Path("/proc/self/statm")
    if statm.exists():
        return int(statm.read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20


def measure() -> dict:
    from scoring.engine.lexicon import FRENCH_WORDLIST, default_french_lexicon

    before = resident_megabytes()
    started = time.perf_counter()
    lexicon = default_french_lexicon()
    load_seconds = time.perf_counter() - started
    added = resident_megabytes() - before

    words = gzip.decompress(FRENCH_WORDLIST.read_bytes()).decode().split()
    chooser = random.Random(0)
    present = chooser.sample(words, LOOKUPS // 2)
    altered = [word[:-1] + chooser.choice("JKQWXZ") for word in chooser.sample(words, LOOKUPS // 2)]
    queries = present + altered
    chooser.shuffle(queries)
    started = time.perf_counter()
    found = sum(word in lexicon for word in queries)
    lookup_microseconds = (time.perf_counter() - started) / len(queries) * 1e6
    return {
        "words": len(lexicon),
        "load_seconds": load_seconds,
        "added_megabytes": added,
        "lookup_microseconds": lookup_microseconds,
        "found": found,
    }


def main():
    root = Path(__file__).resolve().parents[1]
    run = subprocess.run(
        [sys.executable, "-m", "bench.bench_lexicon"], cwd=root, capture_output=True, text=True, check=True
    )
    figures = json.loads(run.stdout)
    load, lookup, added = figures["load_seconds"], figures["lookup_microseconds"], figures["added_megabytes"]
    return {
        "words": f"{figures['words']:,}",
        "load": f"{load:.2f} s (target < {TARGET_LOAD_SECONDS:g} s: {verdict(load < TARGET_LOAD_SECONDS)})",
        "membership": f"{lookup:.2f} µs a word over {LOOKUPS:,} lookups, {figures['found']:,} found "
        f"(target < {TARGET_LOOKUP_MICROSECONDS:g} µs: {verdict(lookup < TARGET_LOOKUP_MICROSECONDS)})",
        "resident memory added": f"{added:.1f} MB "
        f"(target < {TARGET_ADDED_MEGABYTES:g} MB: {verdict(added < TARGET_ADDED_MEGABYTES)})",
    }


if __name__ == "__main__":
    print(json.dumps(measure()))
