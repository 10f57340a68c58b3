"""Benchmarks (speed and memory targets), run by `make bench`; never timed tests."""
