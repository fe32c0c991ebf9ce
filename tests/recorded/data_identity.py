"""The runs whose data the commands identify after the fact (tests/tooling/test_data_identity.py): the oracle on one
task per benchmark, a run without --log_samples, and the random baseline on ISO-Bench data, on the same data in
another folder, on a copy whose every image is one picture and on a copy with half the labels flipped (read too by
tests/tooling/test_release_gate.py and tests/tooling/test_compare.py)."""

import functools
import json
from pathlib import Path

from temporal_bench.catbench.fixtures import write_fixture as write_catbench
from temporal_bench.isobench.fixtures import write_fixture as write_isobench
from tests.recorded import recording
from tests.tempvs_fixture_copies import write_tempvs

LOGGED_TASKS = ["tempvs_mt1_two", "catbench", "isobench"]
ISOBENCH_QUESTIONS = 32
ISOBENCH_COPIES = {"a": "ISOBENCH_DATA_DIR", "moved": "ISOBENCH_MOVED_DATA_DIR", "repainted": "ISOBENCH_REPAINTED_DATA_DIR", "flipped": "ISOBENCH_FLIPPED_DATA_DIR"}  # run -> its data


@recording("data_identity_logged", TEMPVS_DATA_DIR=functools.partial(write_tempvs, n_sequences=4), CATBENCH_DATA_DIR=write_catbench, ISOBENCH_DATA_DIR=functools.partial(write_isobench, layout="json"))
def logged(recorder):
    """The oracle on one task per benchmark, with --log_samples."""
    recorder.lmms_eval(LOGGED_TASKS)


@recording("data_identity_no_samples", CATBENCH_DATA_DIR=write_catbench)
def no_samples(recorder):
    """The oracle on CaT-Bench without --log_samples."""
    recorder.lmms_eval(["catbench"], log_samples=False)


def isobench_data(root: Path) -> Path:
    return write_isobench(root, "json", n=ISOBENCH_QUESTIONS)


def moved(root: Path) -> Path:
    """The same data in another folder."""
    return isobench_data(root / "elsewhere" / "data")


def repainted(root: Path) -> Path:
    """The same annotations, every image one white picture."""
    from PIL import Image

    isobench_data(root)
    for image in [p for p in root.rglob("*") if p.suffix.lower() in (".png", ".jpg", ".jpeg")]:
        Image.new("RGB", (64, 64), "white").save(image)
    return root


def flipped(root: Path) -> Path:
    """Every other question's label flipped (DEP <-> NONDEP), the images as they were."""
    isobench_data(root)
    rows = json.loads((root / "isobench.json").read_text(encoding="utf-8"))
    for row in rows[::2]:
        row["label"] = {"DEP": "NONDEP", "NONDEP": "DEP"}[row["label"]]
    (root / "isobench.json").write_text(json.dumps(rows), encoding="utf-8")
    return root


@recording("isobench_copies", ISOBENCH_DATA_DIR=isobench_data, ISOBENCH_MOVED_DATA_DIR=moved, ISOBENCH_REPAINTED_DATA_DIR=repainted, ISOBENCH_FLIPPED_DATA_DIR=flipped)
def isobench_copies(recorder):
    """The same seed of the random baseline on each copy of the ISO-Bench data, each run into its own folder
    (out/a, out/moved, out/repainted, out/flipped)."""
    for run, variable in ISOBENCH_COPIES.items():
        recorder.lmms_eval(["isobench"], model="random_choice", model_args="seed=1234", env={"ISOBENCH_DATA_DIR": recorder.env[variable]}, into=run)
