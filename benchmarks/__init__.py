"""Benchmarks of the referee against its floors: `python benchmarks/run.py [--quick]`."""
