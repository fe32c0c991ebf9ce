"""The runs made with ``--limit`` that ``temporal-bench report`` and ``browse`` must not take for full ones
(tests/tooling/test_report_partial_runs.py): CaT-Bench (switched) on its synthetic data of 5 plans, the random baseline
(seed 1) on every doc and on the first 6, and the oracle through lm-eval on the first 4. And a run on the release's
data followed by a newer run on a subset of it, which must not hide it (tests/tooling/test_report_first_contact.py)."""

from pathlib import Path

from temporal_bench.catbench.fixtures import write_fixture as write_catbench
from temporal_bench.catbench.fixtures import write_release_split
from tests.recorded import recording
from tests.recorded.release_gate import release_shaped, release_shaped_pairs

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


SUBSET_PLANS = range(0, 57, 5)  # the subset run asks about every fifth of the release-shaped split's 57 plans


def release_subset(root: Path) -> Path:
    """The questions of the release-shaped test split (tests/recorded/release_gate.py) about :data:`SUBSET_PLANS` only."""
    titles = {f"Recipe {i}" for i in SUBSET_PLANS}
    write_release_split(root / "test_must_why", [pair for pair in release_shaped_pairs() if pair[0]["title"] in titles])
    return root


@recording("partial_runs_release_and_subset", CATBENCH_DATA_DIR=release_shaped, CATBENCH_SUBSET_DATA_DIR=release_subset)
def release_and_subset(recorder):
    """The random baseline on a test split with every count of the release (out/full), then, newer, on the questions of
    every fifth plan (out/subset: a subset of the data, not a --limit run; a folder of its own, since both runs may
    end within the second that names their files)."""
    for variable, into in (("CATBENCH_DATA_DIR", "full"), ("CATBENCH_SUBSET_DATA_DIR", "subset")):
        recorder.lmms_eval(["catbench"], **RANDOM, env={"CATBENCH_DATA_DIR": recorder.env[variable]}, into=into)
