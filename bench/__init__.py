"""Benchmarks: each bench_*.py module here has a main() that measures one thing; `make bench` runs them."""


def verdict(met: bool) -> str:
    """How a figure stands against its target, in the printed report."""
    return "met" if met else "MISSED"
