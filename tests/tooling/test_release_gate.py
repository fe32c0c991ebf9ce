"""When ``temporal-bench report`` holds a run against a paper (issue 40): only a complete run whose every request
succeeded, on the release's own data as its paper's tables evaluated it. The data is the release's when its content
fingerprint (questions, gold answers, images: temporal_bench/runs/data_read.py) is the one recorded for the release,
or, where none is known here, when every count known of the release matches (the row says so: the weaker basis).

End to end through lmms-eval: a CaT-Bench test split of the release's counts (its plans made up, but not marked as
generated) gets verdicts on the weaker basis; the same split with 400 gold labels swapped between the classes (every
file keeps its size) gets none; 30% failed requests get none and say why; the real validation split is not the
paper's split; a known fingerprint gives verdicts and any other fingerprint none; ISO-Bench runs on the same
annotations with other images are told apart (the same data in another folder is not).
"""

import json
import random
import shutil
from pathlib import Path

import pytest
from PIL import Image

from temporal_bench.catbench import record_reader
from temporal_bench.catbench.fixtures import write_fixture, write_release_split
from temporal_bench.isobench.fixtures import write_fixture as write_isobench
from temporal_bench.report.cli import main_report
from temporal_bench.runs.logged import find_runs
from temporal_bench.synthetic_data import MARKER
from tests.harness import BIN, lm_eval, lmms_eval, run_cli
from tests.paths import CATBENCH_VAL
from tests.tempvs_fixture_copies import write_tempvs

GPT_4O = "gpt-4o-2024-05-13"  # the CaT-Bench paper's GPT-4o (App. A)


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


def catbench_run(root: Path, pairs: list, **options) -> Path:
    write_release_split(root / "data" / "test_must_why", pairs)
    lmms_eval(root, ["catbench"], model="random_choice", model_args="seed=1", env={"CATBENCH_DATA_DIR": str(root / "data")}, **options)
    return root / "lmms_eval_out"


def report(capsys, folder: Path, *options) -> str:
    assert main_report([str(folder), "--label", GPT_4O, "--table", "catbench-table1", *options]) == 0
    return capsys.readouterr().out


@pytest.fixture(scope="module")
def release_copy(tmp_path_factory):
    return catbench_run(tmp_path_factory.mktemp("release_shaped"), release_shaped_pairs())


def test_a_copy_with_every_count_of_the_release_gets_verdicts_on_the_weaker_basis(release_copy, capsys):
    read = find_runs(release_copy)[0].data_read("catbench")
    assert read.counts == record_reader.RELEASE_COUNTS["test"] and not read.synthetic
    out = report(capsys, release_copy)
    assert "Verdict: " in out and "| gpt-4o | A | published | 0.53 " in out
    assert "catbench: every count known of the release matches (no fingerprint of the release is known here: a weaker check)" in out


def test_the_same_split_with_400_labels_swapped_gets_no_verdict(tmp_path, capsys):
    pairs = release_shaped_pairs()
    folder = catbench_run(tmp_path, swapped(pairs))
    counts = find_runs(folder)[0].data_read("catbench").counts
    assert (counts["questions"], counts["dep"], counts["before"], counts["plans"]) == (2840, 1420, 1420, 57)  # the counts a size check reads
    out = report(capsys, folder)
    assert "Verdict" not in out and f"| **{GPT_4O}** (not the release's data) | A | measured |" in out
    assert "catbench has no verdict: not the release's data: counts (read / the release's): " in out and "dep_close " in out


def test_failed_requests_get_no_verdict_and_say_how_many(tmp_path, capsys, read_as_release):
    """30% of the requests fail (lmms-eval's failure text): the numbers are shown, with the count, and no verdict."""
    data = write_fixture(tmp_path / "data", n_plans=5)
    n_docs = 5 * 4 * 2 * 2  # plans x pairs per class x classes x (before, after)
    script = {f"catbench/{i}": ("[LMMS_EVAL_REQUEST_FAILED]" if i % 10 < 3 else "Yes") for i in range(n_docs)}
    path = tmp_path / "script.json"
    path.write_text(json.dumps(script))
    lmms_eval(tmp_path, ["catbench"], model_args=f"policy=script,script={path}", env={"CATBENCH_DATA_DIR": str(data)})
    out = report(capsys, tmp_path / "lmms_eval_out")
    assert "Verdict" not in out and f"| **{GPT_4O}** (failed requests) | A | measured |" in out
    assert f"catbench had {sum(1 for i in range(n_docs) if i % 10 < 3)} of {n_docs} request(s) fail or bring no response" in out


def test_the_validation_split_is_not_the_split_of_the_papers_tables(tmp_path, capsys):
    """The real validation split (its recorded fingerprint), evaluated as such through lm-eval's --metadata."""
    output = tmp_path / "lm_eval_out"
    lm_eval(output, ["catbench"], "policy=constant,response=Yes", {"CATBENCH_DATA_DIR": str(CATBENCH_VAL)}, extra=["--metadata", json.dumps({"data_split": "validation"})])
    read = find_runs(output)[0].data_read("catbench")
    assert read.fingerprint == record_reader.RELEASE_FINGERPRINTS["validation"]
    out = report(capsys, output)
    assert "Verdict" not in out and "catbench has no verdict: it evaluated the validation split; the paper's tables are on the test split" in out


def test_a_known_fingerprint_gives_verdicts_and_any_other_none(release_copy, capsys, monkeypatch):
    read = find_runs(release_copy)[0].data_read("catbench")
    monkeypatch.setitem(record_reader.RELEASE_FINGERPRINTS, "test", read.fingerprint)
    out = report(capsys, release_copy)
    assert "Verdict: " in out and "weaker check" not in out
    monkeypatch.setitem(record_reader.RELEASE_FINGERPRINTS, "test", "0" * 16)
    out = report(capsys, release_copy)
    assert "Verdict" not in out and f"catbench has no verdict: not the release's data: fingerprint {read.fingerprint}, the release's is {'0' * 16}" in out


# ---- ISO-Bench: the images are part of the data's identity -----------------------------------------


@pytest.fixture(scope="module")
def isobench_runs(tmp_path_factory):
    """The random baseline on ISO-Bench data, on a copy in another folder, and on a copy whose every image is one picture."""
    root = tmp_path_factory.mktemp("isobench_images")
    data = write_isobench(root / "data", "json", n=32)
    moved = root / "elsewhere" / "data"
    shutil.copytree(data, moved)
    repainted = root / "repainted"
    shutil.copytree(data, repainted)
    for image in [p for p in repainted.rglob("*") if p.suffix.lower() in (".png", ".jpg", ".jpeg")]:
        Image.new("RGB", (64, 64), "white").save(image)
    runs = {}
    for name, folder in (("a", data), ("moved", moved), ("repainted", repainted)):
        lmms_eval(root / name, ["isobench"], model="random_choice", model_args="seed=1234", env={"ISOBENCH_DATA_DIR": str(folder)})
        runs[name] = root / name / "lmms_eval_out"
    return runs


def test_other_images_are_other_data(isobench_runs, tmp_path):
    """The same annotations with every image one picture: another fingerprint (check names it), refused by compare."""
    a, repainted = isobench_runs["a"], isobench_runs["repainted"]
    reads = [find_runs(run)[0].data_read("isobench") for run in (a, repainted)]
    assert reads[0].counts == reads[1].counts and reads[0].fingerprint != reads[1].fingerprint
    for run, read in zip((a, repainted), reads):
        assert f"isobench: 32 question(s), fingerprint {read.fingerprint} (" in run_cli([str(BIN / "temporal-bench"), "check", str(run)], tmp_path).stdout
    log = run_cli([str(BIN / "temporal-bench"), "compare", str(a), str(repainted)], tmp_path)
    assert log.returncode == 1 and "the runs read different data" in log.stderr and "--allow-different-data" in log.stderr


def test_the_same_data_in_another_folder_is_the_same_data(isobench_runs, tmp_path):
    log = run_cli([str(BIN / "temporal-bench"), "compare", str(isobench_runs["a"]), str(isobench_runs["moved"])], tmp_path)
    assert log.returncode == 0, log.stderr
    assert "different data" not in log.stdout


# ---- TempVS: generated data with its marker deleted is still not the release ------------------------


@pytest.mark.parametrize("task", ["tempvs_mt1_two", "tempvs_mt3_caption"])
def test_tempvs_generated_data_without_its_marker_gets_no_verdict(tmp_path, capsys, task):
    """MT1: Table 2 counts no evaluated questions, so no basis at all; MT3: the per-source counts differ."""
    data = write_tempvs(tmp_path / "data", n_sequences=4)
    (data / MARKER).unlink()
    lmms_eval(tmp_path, [task], model="random_choice", model_args="seed=1", env={"TEMPVS_DATA_DIR": str(data)})
    assert main_report([str(tmp_path / "lmms_eval_out"), "--label", "InternVL2_5-8B"]) == 0
    out = capsys.readouterr().out
    assert "Verdict" not in out and "(not the release's data)" in out
    why = "the paper publishes no count of the questions its MT1 tasks evaluate" if task == "tempvs_mt1_two" else "not the release's data: counts (read / the release's): mt3_caption/flintstones 4/565"
    assert f"{task} has no verdict: {why}" in out


def test_one_models_runs_on_two_copies_of_the_data_are_refused_not_merged(tmp_path, capsys):
    """The same model run on the test split and then on other questions into one folder: the report does not quietly
    show the newer run, it names both files and their data (a re-run on the same data is no difference: test_check)."""
    for name, seed in (("test", 0), ("other", 1)):
        data = write_fixture(tmp_path / name, n_plans=2, pairs_per_class=2, seed=seed)
        lmms_eval(tmp_path, ["catbench"], model="random_choice", model_args="seed=1", env={"CATBENCH_DATA_DIR": str(data)})
    assert main_report([str(tmp_path / "lmms_eval_out"), "--table", "catbench-table1"]) == 1
    err = capsys.readouterr().err
    older, newer = sorted((tmp_path / "lmms_eval_out").rglob("*_results.json"))
    assert f"catbench: **random_choice (seed=1)** is shown from {newer.as_posix()}, which read " in err and f"its other results file {older.as_posix()} read other questions" in err
    assert main_report([str(tmp_path / "lmms_eval_out"), "--table", "catbench-table1", "--allow-different-data"]) == 0
