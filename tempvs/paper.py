"""What the TempVS paper reports, as the generic layers (report, compare, browse, export, demo) read it."""

from functools import partial
from importlib import resources
from pathlib import Path

from temporal_bench.benchmarks import Benchmark
from temporal_bench.demo import DemoTasks
from temporal_bench.tempvs import breakdowns, fixtures, tables, task_tests
from temporal_bench.tempvs.cards import TempVSCards
from temporal_bench.tempvs.cluster_stats import TEMPVS
from temporal_bench.tempvs.examples import FIGURE4
from temporal_bench.tempvs.figures import FIGURES, SIZE_FIGURES
from temporal_bench.tempvs.headline import SUMMARY
from temporal_bench.tempvs.manifest import MANIFEST
from temporal_bench.tempvs.model_names import API_MODELS, MODEL_NAMES
from temporal_bench.tempvs.protocol_gaps import PROTOCOL_GAPS
from temporal_bench.tempvs.record_reader import TempVSRecords
from temporal_bench.tempvs.released_predictions import is_released_predictions


def _released_blind(data: Path, output: Path) -> Path:
    """The demo data's text-only-LLM predictions scored (no model run), for Table 17."""
    from temporal_bench.tempvs.released_predictions import released_models, scored_tests, write_results

    folder = output / "tempvs_released_blind"  # beside the demo's results/
    for model in released_models(data, "blind"):
        write_results(folder, model, "blind", scored_tests(data, model, "blind"), data)
    return folder


def _held_tests(task: str) -> list[str]:
    return [f"tempvs_{test}" for test in task_tests.held_tests(task)]


BENCHMARK = Benchmark(
    MANIFEST,
    layouts=tables.LAYOUTS,
    figures=FIGURES,
    size_figures=SIZE_FIGURES,
    published=resources.files(__package__) / "published",
    cluster_stats=TEMPVS,
    model_names=MODEL_NAMES,
    api_models=API_MODELS,
    not_models=("Top-5 average",),  # Table 5's average over its five models
    protocol_gaps=PROTOCOL_GAPS,
    summary=SUMMARY,
    cards=TempVSCards(),
    examples=(FIGURE4,),
    # the generator fills the released instruction templates (shipped in tempvs/templates/); the CoT
    # variants give Table 6, the images-only task Table 19's third column, the release's blind
    # predictions Table 17; Table 18's "before" (the _unfiltered tasks, a third more questions) is left
    # out. Figure 2 (by model size) has the baseline only, which has no size.
    demo=DemoTasks(partial(fixtures.write_fixture, n_sequences=30), ["tempvs", "tempvs_mt1_two_cot", "tempvs_mt1_three_cot", "tempvs_mt2_caption_cot", "tempvs_mt3_caption_cot", "tempvs_mt3_images_only"], _released_blind),
    holding_tasks=task_tests.holding_tasks,
    held_tests=_held_tests,
    task_labels={task: label for label, task in tables.TEMPVS_TESTS.values()},
    # how its runs are read
    record_reader=TempVSRecords(),
    breakdown_metrics=breakdowns.breakdown_metrics,
    per_test_results=task_tests.per_test_results,
    per_test_records=task_tests.per_test_records,
    is_released_outputs=is_released_predictions,
)
