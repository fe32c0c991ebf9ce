"""What the CaT-Bench paper reports, as the generic layers (report, compare, browse, export, demo) read it."""

from functools import partial
from importlib import resources

from temporal_bench.benchmarks import Benchmark
from temporal_bench.catbench import breakdowns, fixtures, tables
from temporal_bench.catbench.cards import CatBenchCards
from temporal_bench.catbench.cluster_stats import CATBENCH
from temporal_bench.catbench.examples import FIGURES5_6
from temporal_bench.catbench.figures import FIGURES
from temporal_bench.catbench.headline import SUMMARY
from temporal_bench.catbench.manifest import MANIFEST
from temporal_bench.catbench.model_names import API_MODELS, MODEL_NAMES
from temporal_bench.catbench.record_reader import CatBenchRecords
from temporal_bench.demo import DemoTasks

BENCHMARK = Benchmark(
    MANIFEST,
    layouts=tables.LAYOUTS,
    figures=FIGURES,
    published=resources.files(__package__) / "published",
    cluster_stats=CATBENCH,
    model_names=MODEL_NAMES,
    api_models=API_MODELS,
    summary=SUMMARY,
    cards=CatBenchCards(),
    examples=(FIGURES5_6,),
    # A, E+A and A+E (Tables 1, 3-5, Figures 7-8); self-consistency at Table 7's four (k, T) and
    # few-shot (Tables 6-7)
    demo=DemoTasks(
        partial(fixtures.write_fixture, n_plans=8, pairs_per_class=5),
        [
            "catbench_switched",
            "catbench_cot_switched",
            "catbench_explain_switched",
            "catbench_sc_switched",
            "catbench_sc_t08_switched",
            "catbench_sc_k5_switched",
            "catbench_sc_k5_t08_switched",
            "catbench_fewshot_switched",
            "catbench_explain_nl_switched",
        ],
    ),
    # how its runs are read
    record_reader=CatBenchRecords(),
    breakdown_metrics=breakdowns.breakdown_metrics,
)
