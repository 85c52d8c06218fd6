"""Run every bench/bench_*.py module's main() in name order and print its figures.

main() takes no argument and returns a mapping of figure name to value (it may also print on its own and
return None). The runner adds each module's wall-clock time.
"""

import importlib
import pkgutil
import sys
import time

import bench


def main() -> int:
    names = sorted(info.name for info in pkgutil.iter_modules(bench.__path__) if info.name.startswith("bench_"))
    if not names:
        print("No benchmark found: add a bench/bench_<name>.py module with a main() function.")
        return 0
    for name in names:
        module = importlib.import_module(f"bench.{name}")
        print(f"== {name}")
        started = time.perf_counter()
        figures = module.main() or {}
        elapsed = time.perf_counter() - started
        for figure, value in figures.items():
            print(f"  {figure}: {value}")
        print(f"  (ran in {elapsed:.2f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
