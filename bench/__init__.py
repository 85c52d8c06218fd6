"""Benchmarks: each bench_*.py module here has a main() that measures one thing; `make bench` runs them."""
