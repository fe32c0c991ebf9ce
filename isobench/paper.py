"""What the ISO-Bench paper reports, as the generic layers (report, compare, browse, export, demo) read it."""

from temporal_bench.benchmarks import Benchmark
from temporal_bench.isobench import metrics

BENCHMARK = Benchmark(
    name="isobench",
    title="ISO-Bench",
    # how its runs are read
    breakdown_metrics=metrics.breakdown_metrics,
)
