"""What the TempVS paper reports, as the generic layers (report, compare, browse, export, demo) read it."""

from temporal_bench.benchmarks import Benchmark

BENCHMARK = Benchmark(name="tempvs", title="TempVS", upstream="temporal_bench.tempvs.upstream")
