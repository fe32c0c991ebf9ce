"""Preloaded by tests/preloaded_cli.py: every benchmark's registry entry, i.e. its paper module and the
report, browse and scoring modules it imports (scikit-learn, pandas, ...), and matplotlib with the Agg
backend the report draws with. A ``temporal-bench`` command reads the registry before anything else, so
each run would otherwise import them again (about 1.5 s)."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot  # noqa: E402,F401

from temporal_bench.benchmarks import all_benchmarks  # noqa: E402

all_benchmarks()
