"""What the ISO-Bench paper reports, as the generic layers (report, compare, browse, export, demo) read it."""

from functools import partial
from importlib import resources

from temporal_bench.benchmarks import Benchmark
from temporal_bench.demo import DemoTasks
from temporal_bench.isobench import breakdowns, fixtures, tables
from temporal_bench.isobench.cards import IsoBenchCards
from temporal_bench.isobench.cluster_stats import ISOBENCH
from temporal_bench.isobench.figures import FIGURES
from temporal_bench.isobench.headline import SUMMARY
from temporal_bench.isobench.manifest import MANIFEST
from temporal_bench.isobench.model_names import API_MODELS, MODEL_NAMES
from temporal_bench.isobench.record_reader import IsoBenchRecords

BENCHMARK = Benchmark(
    MANIFEST,
    layouts=tables.LAYOUTS,
    figures=FIGURES,
    published=resources.files(__package__) / "published",
    cluster_stats=ISOBENCH,
    model_names=MODEL_NAMES,
    api_models=API_MODELS,
    not_models=("Human (200 items)",),  # Table 1's human baseline
    # ISO-Bench has 764 questions, a quarter of the others', so the same share of flipped answers
    # moves its scores about twice as much (docs/uncertainty.md)
    tolerance=2.0,
    summary=SUMMARY,
    cards=IsoBenchCards(),
    demo=DemoTasks(partial(fixtures.write_fixture, n=96), ["isobench", "isobench_cot"]),
    # how its runs are read
    record_reader=IsoBenchRecords(),
    breakdown_metrics=breakdowns.breakdown_metrics,
)
