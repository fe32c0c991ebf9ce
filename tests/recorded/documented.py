"""The runs the documents' names for a user's runs stand for (``out/``, ``RUN_DIR``, ``runs/model_a``, ``runs/model_b``,
...; tests/e2e/test_documented_commands.py): the random baseline, seeds 1234 and 1, on TempVS (``--tasks tempvs``),
CaT-Bench (with A+E, for ``browse --examples catbench-figures5-6``) and ISO-Bench, on each benchmark's fixture; the
TempVS fixture with a model's released predictions too (docs/report.md scores them)."""

import functools
from pathlib import Path

from temporal_bench.catbench.fixtures import write_fixture as write_catbench
from temporal_bench.isobench.fixtures import write_fixture as write_isobench
from tests.recorded import recording
from tests.tempvs_fixture_copies import write_tempvs

TASKS = ["tempvs", "catbench", "catbench_explain_switched", "isobench"]
RUNS = {"random_choice": 1234, "random_choice_seed1": 1}  # the run's folder under out/ -> its seed
RELEASED_MODEL = "InternVL2_5-78B-MPO"
TEMPVS_SEQUENCES = 1  # per source: each benchmark's smallest fixture that every documented command can read


def tempvs_with_released_outputs(root: Path) -> Path:
    """The fixture writes the release's blind predictions only; docs/report.md scores a model's combined and separate ones too."""
    from temporal_bench.tempvs.fixture_predictions import write_model_predictions

    write_tempvs(root, n_sequences=TEMPVS_SEQUENCES)
    for input_kind in ("combined", "separate"):
        write_model_predictions(root, RELEASED_MODEL, input_kind)
    return root


@recording("documented_random_choice", TEMPVS_DATA_DIR=tempvs_with_released_outputs, CATBENCH_DATA_DIR=functools.partial(write_catbench, n_plans=1, pairs_per_class=2), ISOBENCH_DATA_DIR=functools.partial(write_isobench, n=8))
def random_choice(recorder):
    """The random baseline with each seed, each run into its own folder (out/random_choice, out/random_choice_seed1)."""
    for folder, seed in RUNS.items():
        recorder.lmms_eval(TASKS, model="random_choice", model_args=f"seed={seed}", into=folder)
