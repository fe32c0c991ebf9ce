"""What the TempVS paper reports, as the generic layers (report, compare, browse, export, demo) read it."""

from temporal_bench.benchmarks import Benchmark
from temporal_bench.tempvs import metrics, suite
from temporal_bench.tempvs.released_predictions import is_released_predictions

BENCHMARK = Benchmark(
    name="tempvs",
    title="TempVS",
    # how its runs are read
    breakdown_metrics=metrics.breakdown_metrics,
    per_test_results=metrics.per_test_results,
    per_test_records=metrics.per_test_records,
    joined_records=suite.joined_records,
    joined_tasks=suite.with_joined_tasks,
    is_released_outputs=is_released_predictions,
)
