"""What the ISO-Bench paper reports, as the generic layers (report, compare, browse, export, demo) read it."""

from temporal_bench.benchmarks import Benchmark

BENCHMARK = Benchmark(name="isobench", title="ISO-Bench", upstream="temporal_bench.isobench.upstream")
