"""What the CaT-Bench paper reports, as the generic layers (report, compare, browse, export, demo) read it."""

from temporal_bench.benchmarks import Benchmark

BENCHMARK = Benchmark(name="catbench", title="CaT-Bench", upstream="temporal_bench.catbench.upstream")
