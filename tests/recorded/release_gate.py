"""The runs the report's reproduction gate is checked on (tests/tooling/test_release_gate.py): CaT-Bench test splits
of the release's counts (its plans made up, not marked as generated) and the same with 400 gold labels swapped, 30%
failed requests, the real validation split through lm-eval and a copy of it with 200 labels swapped within plan and
distance class, TempVS generated data with its marker deleted, ISO-Bench data of Table 2's counts that is not the
generator's (and the same with every image another example's), and one model's runs on two copies of the data into one
folder. The ISO-Bench runs on copies of one data set: tests/recorded/data_identity.py."""

import functools
import json
import random
import shutil
from pathlib import Path

from temporal_bench.catbench.fixtures import swap_labels, write_fixture, write_release_split
from temporal_bench.isobench.fixtures import write_fixture as write_isobench
from temporal_bench.synthetic_data import MARKER
from tests.paths import CATBENCH_VAL
from tests.recorded import recording
from tests.tempvs_fixture_copies import write_tempvs

FAILED = "[LMMS_EVAL_REQUEST_FAILED]"
FAILED_SHARE_PLANS = 5
FAILED_SHARE_DOCS = FAILED_SHARE_PLANS * 4 * 2 * 2  # plans x pairs per class x classes x (before, after)
UNMARKED_TEMPVS_TASKS = ["tempvs_mt1_two", "tempvs_mt3_caption"]


def release_shaped_pairs(seed: int = 0) -> list:
    """(plan, a, b, dependent) step pairs with every count known of the released test split
    (catbench/record_reader.py ``RELEASE_COUNTS["test"]``): 57 plans, 710 Dep pairs over 56 of them (322 at distance
    <= 3), 710 NonDep pairs over 41 (306 close); plans of 14 made-up steps, titled like real recipes."""
    rng = random.Random(seed)
    plans = [{"title": f"Recipe {i}", "steps": [f"Step {n} of recipe {i}." for n in range(1, 15)]} for i in range(57)]

    def spread(total: int, slots: int) -> list:
        return [(k + 1) * total // slots - k * total // slots for k in range(slots)]

    dep_plans, nondep_plans = range(0, 56), range(16, 57)
    wanted = {i: {"dep": [0, 0], "nondep": [0, 0]} for i in range(57)}  # [close, distant]
    for kind, members, close, total in (("dep", dep_plans, 322, 710), ("nondep", nondep_plans, 306, 710)):
        for i, n_close, n_all in zip(members, spread(close, len(members)), spread(total, len(members))):
            wanted[i][kind] = [n_close, n_all - n_close]
    pairs = []
    for i, plan in enumerate(plans):
        close = [(a, b) for a in range(14) for b in range(a + 1, 14) if b - a <= 3]
        distant = [(a, b) for a in range(14) for b in range(a + 1, 14) if b - a > 3]
        rng.shuffle(close)
        rng.shuffle(distant)
        for kind in ("dep", "nondep"):
            n_close, n_distant = wanted[i][kind]
            chosen = [close.pop() for _ in range(n_close)] + [distant.pop() for _ in range(n_distant)]
            pairs += [(plan, a, b, kind == "dep") for a, b in chosen]
    return pairs


def swapped(pairs: list, each: int = 200, seed: int = 1) -> list:
    """``pairs`` with ``each`` Dep and ``each`` NonDep gold labels swapped: every file keeps its number of rows."""
    rng = random.Random(seed)
    dep = rng.sample([k for k, p in enumerate(pairs) if p[3]], each)
    nondep = rng.sample([k for k, p in enumerate(pairs) if not p[3]], each)
    flipped = set(dep) | set(nondep)
    return [(plan, a, b, not dependent) if k in flipped else (plan, a, b, dependent) for k, (plan, a, b, dependent) in enumerate(pairs)]


def release_shaped(root: Path) -> Path:
    write_release_split(root / "test_must_why", release_shaped_pairs())
    return root


def release_shaped_swapped(root: Path) -> Path:
    write_release_split(root / "test_must_why", swapped(release_shaped_pairs()))
    return root


def validation_split(root: Path) -> Path:
    """A copy of the real validation split's folder."""
    return Path(shutil.copytree(CATBENCH_VAL, root))


def validation_swapped(root: Path) -> Path:
    """A copy of the real validation split with 100 Dep and 100 NonDep step pairs swapped within plan and distance class:
    every count the same, other data."""
    return swap_labels(CATBENCH_VAL, root, each=100)


def isobench_release_counts(root: Path) -> Path:
    """ISO-Bench data of Table 2's counts that is not the generator's: its plan steps written otherwise, no marker."""
    write_isobench(root, "json", n=764)
    (root / MARKER).unlink()
    rows = json.loads((root / "isobench.json").read_text(encoding="utf-8"))
    for row in rows:
        row["snippet"] = [step.capitalize() + "." for step in row["snippet"]]
    (root / "isobench.json").write_text(json.dumps(rows, indent=1), encoding="utf-8")
    return root


def isobench_images_swapped(root: Path) -> Path:
    """The same, every image another example's of the same size."""
    isobench_release_counts(root)
    images = sorted((root / "images").glob("*.jpg"))
    contents = [path.read_bytes() for path in images]
    for path, content in zip(images, contents[1:] + contents[:1]):
        path.write_bytes(content)
    return root


def unmarked_tempvs(root: Path) -> Path:
    """TempVS's generated data with its marker of generated data deleted."""
    write_tempvs(root, n_sequences=4)
    (root / MARKER).unlink()
    return root


@recording("release_gate_shaped", CATBENCH_DATA_DIR=release_shaped)
def shaped(recorder):
    """The random baseline on a test split with every count of the release."""
    recorder.lmms_eval(["catbench"], model="random_choice", model_args="seed=1")


@recording("release_gate_swapped", CATBENCH_DATA_DIR=release_shaped_swapped)
def shaped_swapped(recorder):
    """The random baseline on the same split with 200 Dep and 200 NonDep gold labels swapped."""
    recorder.lmms_eval(["catbench"], model="random_choice", model_args="seed=1")


@recording("release_gate_failed_requests", CATBENCH_DATA_DIR=functools.partial(write_fixture, n_plans=FAILED_SHARE_PLANS))
def failed_requests(recorder):
    """30% of the requests fail (lmms-eval's failure text: every doc whose id ends in 0, 1 or 2), the others answer Yes."""
    script = recorder.script({f"catbench/{i}": (FAILED if i % 10 < 3 else "Yes") for i in range(FAILED_SHARE_DOCS)}, "answers")
    recorder.lmms_eval(["catbench"], model_args=f"policy=script,script={script}")


@recording("release_gate_validation", CATBENCH_DATA_DIR=validation_split)
def validation(recorder):
    """lm-eval on the real validation split, evaluated as such through --metadata, answering Yes to everything."""
    recorder.lm_eval(["catbench"], "policy=constant,response=Yes", extra=["--metadata", '{"data_split": "validation"}'])


@recording("release_gate_validation_swapped", CATBENCH_DATA_DIR=validation_swapped)
def validation_labels_swapped(recorder):
    """lm-eval on the validation split with 200 labels swapped within plan and distance class, as the run above."""
    recorder.lm_eval(["catbench"], "policy=constant,response=Yes", extra=["--metadata", '{"data_split": "validation"}'])


@recording("release_gate_isobench", ISOBENCH_DATA_DIR=isobench_release_counts, ISOBENCH_SWAPPED_DATA_DIR=isobench_images_swapped)
def isobench_unverified(recorder):
    """The random baseline on ISO-Bench data of Table 2's counts and on the same with every image another example's,
    each run into its own folder (out/counts, out/images_swapped)."""
    for run, variable in (("counts", "ISOBENCH_DATA_DIR"), ("images_swapped", "ISOBENCH_SWAPPED_DATA_DIR")):
        recorder.lmms_eval(["isobench"], model="random_choice", model_args="seed=1", env={"ISOBENCH_DATA_DIR": recorder.env[variable]}, into=run)


@recording("release_gate_tempvs_unmarked", TEMPVS_DATA_DIR=unmarked_tempvs)
def tempvs_unmarked(recorder):
    """The random baseline on each task, each run into its own folder (out/<task>)."""
    for task in UNMARKED_TEMPVS_TASKS:
        recorder.lmms_eval([task], model="random_choice", model_args="seed=1", into=task)


@recording("release_gate_two_copies", CATBENCH_DATA_DIR=functools.partial(write_fixture, n_plans=2, pairs_per_class=2), CATBENCH_OTHER_DATA_DIR=functools.partial(write_fixture, n_plans=2, pairs_per_class=2, seed=1))
def two_copies(recorder):
    """One model run on the test split and then on other questions, into one folder."""
    for variable in ("CATBENCH_DATA_DIR", "CATBENCH_OTHER_DATA_DIR"):
        recorder.lmms_eval(["catbench"], model="random_choice", model_args="seed=1", env={"CATBENCH_DATA_DIR": recorder.env[variable]})
