"""Reproduction verdicts: does a measured value reproduce the number a paper printed for the same
model? (docs/uncertainty.md, "Reproduction verdicts")

The published number was computed on the same questions as a faithful re-run, so the question is
not the sampling interval's (how far the score would move on other questions) but whether the two
agree up to the published rounding and the run-to-run nondeterminism of decoding:

- reproduced: the measured value lies within the rounding of the printed one (a printed 58.8 stands
  for any value in [58.75, 58.85));
- close: it differs by at most the benchmark's tolerance beyond that rounding;
- differs: otherwise.

Baseline rows are the exception: the papers' Random row is the expected score of random answers,
not a run, so a random baseline is checked against it with the sampling interval (within/outside).
"""

from __future__ import annotations

from collections.abc import Sequence

from temporal_bench.benchmarks import Collected
from temporal_bench.report.intervals import FLOAT_SLACK, rounding_half_width

REPRODUCED, CLOSE, DIFFERS = "reproduced", "close", "differs"
WITHIN, OUTSIDE = "within", "outside"  # a baseline against an expectation: the sampling interval's check

# Points (hundredths of a metric's fraction: 1 point of accuracy or F1) a faithful greedy re-run may
# differ by, per benchmark (its registry entry's ``tolerance``); the reasons are in docs/uncertainty.md.
DEFAULT_TOLERANCES = Collected(lambda benchmark: [(benchmark.name, benchmark.tolerance)])


def classify(published: float, decimals: int, measured: float, tolerance: float) -> str:
    """The verdict on a published value printed with ``decimals`` against the measured one, with
    ``tolerance`` in the same units as both."""
    gap = abs(measured - published)
    half = rounding_half_width(decimals) + FLOAT_SLACK
    if gap <= half:
        return REPRODUCED
    return CLOSE if gap <= tolerance + half else DIFFERS


def parse_tolerances(values: Sequence[str]) -> dict[str, float]:
    """The tolerances (points) per benchmark from ``--tolerance`` values: ``2`` for every benchmark,
    ``catbench=2`` for one; later values override earlier ones, unnamed benchmarks keep their default."""
    tolerances = dict(DEFAULT_TOLERANCES)
    for value in values:
        name, sep, points = value.rpartition("=")
        if sep and name not in DEFAULT_TOLERANCES:
            raise ValueError(f"--tolerance {value}: unknown benchmark {name!r} (one of {', '.join(DEFAULT_TOLERANCES)})")
        try:
            number = float(points)
        except ValueError:
            raise ValueError(f"--tolerance {value}: {points!r} is not a number of points") from None
        if not number >= 0:
            raise ValueError(f"--tolerance {value}: a tolerance is a number of points, 0 or more")
        for benchmark in [name] if sep else DEFAULT_TOLERANCES:
            tolerances[benchmark] = number
    return tolerances
