"""Helpers shared by the three benchmarks."""
