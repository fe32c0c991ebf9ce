"""The runs ``temporal-bench check`` must tell apart (tests/tooling/test_check.py): CaT-Bench on its synthetic data,
complete, partial, with failed requests, with answers none of which parses, on a truncated copy of the real data, and
a failed run superseded by its re-run."""

import json
from pathlib import Path

from temporal_bench.catbench.fixtures import write_fixture as write_catbench
from tests.paths import CATBENCH_VAL
from tests.recorded import recording

N_DOCS = 2 * 2 * 2 * 2  # test split: plans x pairs per class (dependent, not) x the two questions (before, after)
FAILED = "[LMMS_EVAL_REQUEST_FAILED]"


def small_catbench(root: Path) -> Path:
    return write_catbench(root, n_plans=2, pairs_per_class=2)


def truncated_real_test_split(root: Path, rows_per_file: int = 2) -> Path:
    """A copy of the release whose test split holds only the first rows of each real validation file (real plans, so
    not generated data): the copy an interrupted download leaves."""
    target = root / "test_must_why"
    target.mkdir(parents=True)
    for source in CATBENCH_VAL.glob("*.jsonl"):
        lines = source.read_text(encoding="utf-8").splitlines(keepends=True)[:rows_per_file]
        (target / source.name).write_text("".join(lines), encoding="utf-8")
    return root


@recording("catbench_complete", CATBENCH_DATA_DIR=small_catbench)
def complete(recorder):
    """The oracle on every question."""
    recorder.lmms_eval(["catbench"])


@recording("catbench_partial", CATBENCH_DATA_DIR=small_catbench)
def partial(recorder):
    """The oracle on the first 3 questions (--limit 3)."""
    recorder.lmms_eval(["catbench"], extra=["--limit", "3"])


@recording("catbench_failed", CATBENCH_DATA_DIR=small_catbench)
def failed(recorder):
    """Every request failed (lmms-eval's failure text)."""
    recorder.lmms_eval(["catbench"], model_args=f"policy=constant,response={FAILED}")


@recording("catbench_unparsed", CATBENCH_DATA_DIR=small_catbench)
def unparsed(recorder):
    """Every answer is one the parser cannot read."""
    recorder.lmms_eval(["catbench"], model_args="policy=constant,response=Perhaps.")


@recording("catbench_truncated", CATBENCH_DATA_DIR=truncated_real_test_split)
def truncated(recorder):
    """The oracle on a copy of the real data with rows missing."""
    recorder.lmms_eval(["catbench"])


@recording("catbench_superseded", CATBENCH_DATA_DIR=small_catbench)
def superseded(recorder):
    """The documented workflow: a run with failed requests, then the same command again into the same folder (the
    server answers the second time)."""
    script = recorder.script({f"catbench/{i}": FAILED for i in range(N_DOCS)}, "answers")
    recorder.lmms_eval(["catbench"], model_args=f"policy=script,script={script}")
    script.write_text(json.dumps({f"catbench/{i}": "Yes" for i in range(N_DOCS)}), encoding="utf-8")
    recorder.lmms_eval(["catbench"], model_args=f"policy=script,script={script}", again=True)


@recording("catbench_persistent", CATBENCH_DATA_DIR=small_catbench)
def persistent(recorder):
    """A server that refuses the same four prompts on every run: a run with failed requests, then the same command
    again into the same folder, the same four failing."""
    script = recorder.script({f"catbench/{i}": FAILED if i < 4 else "Yes" for i in range(N_DOCS)}, "answers")
    recorder.lmms_eval(["catbench"], model_args=f"policy=script,script={script}")
    recorder.lmms_eval(["catbench"], model_args=f"policy=script,script={script}", again=True)
