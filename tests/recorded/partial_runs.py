"""The runs made with ``--limit`` that ``temporal-bench report`` and ``browse`` must not take for full ones
(tests/tooling/test_report_partial_runs.py): CaT-Bench (switched) on its synthetic data of 5 plans, the random baseline
(seed 1) on every doc and on the first 6, and the oracle through lm-eval on the first 4."""

from pathlib import Path

from temporal_bench.catbench.fixtures import write_fixture as write_catbench
from tests.recorded import recording

TASK = "catbench_switched"
DOCS = 120  # the fixture's 5 plans: 60 questions and their 60 switched twins
RANDOM = {"model": "random_choice", "model_args": "seed=1"}


def five_plans(root: Path) -> Path:
    return write_catbench(root, n_plans=5)


@recording("partial_runs_full", CATBENCH_DATA_DIR=five_plans)
def full(recorder):
    """The random baseline on every doc."""
    recorder.lmms_eval([TASK], **RANDOM)


@recording("partial_runs_limit6", CATBENCH_DATA_DIR=five_plans)
def limit6(recorder):
    """The random baseline on the first 6 docs (--limit 6)."""
    recorder.lmms_eval([TASK], **RANDOM, extra=["--limit", "6"])


@recording("partial_runs_lm_eval_limit4", CATBENCH_DATA_DIR=five_plans)
def lm_eval_limit4(recorder):
    """The oracle through lm-eval on the first 4 docs (--limit 4)."""
    recorder.lm_eval([TASK], "policy=oracle", extra=["--limit", "4"])
