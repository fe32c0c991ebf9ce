"""``temporal-bench compare`` (temporal_bench/report/compare.py, paired_test.py): the paired cluster
permutation test on constructed counts (a one-cluster difference is never significant; the interval
excludes 0 exactly when p < 0.05; Holm's adjustment by hand; its calibration on simulated run pairs:
tests/fidelity/test_compare_calibration.py), and the command on recorded lmms-eval runs (tests/recorded/compare.py,
data_identity.py): the issue's one-sequence difference, a real difference, the ordering task compared test by test,
and runs on different data (the same seed on ISO-Bench data with half the labels flipped) refused; what a
non-significant row could have shown, notes in the words of the benchmark they explain."""

import json
import shutil
import sys
import zlib
from pathlib import Path

import numpy as np
import pytest

from temporal_bench.report.compare import Comparison, compare_records, plain_line
from temporal_bench.report.paired_test import ALPHA, holm, paired_tests
from temporal_bench.runs.logged import find_runs
from temporal_bench.runs.records import doc_record
from temporal_bench.runs.results import with_breakdowns
from tests.cli import temporal_bench
from tests.paths import REPO
from tests.recorded.compare import TEMPVS_TASKS

sys.path.insert(0, str(REPO / "benchmarks"))

ACCURACY = {"acc": lambda c: c[..., 0] / c[..., 1]}  # right / asked


def _clusters(right: list[int], asked: int = 5) -> np.ndarray:
    return np.array([[r, asked] for r in right], float)


def test_a_difference_in_one_cluster_is_never_significant():
    a = _clusters([5] * 40)
    b = _clusters([0] + [5] * 39)  # B wrong on the five questions of one cluster only
    found = paired_tests(ACCURACY, a, b)["acc"]
    assert found.value == pytest.approx(-5 / 200)
    assert found.p == 1.0  # every swap draw is +-the same difference
    assert found.low == pytest.approx(-2 * 5 / 200) and found.high == pytest.approx(0.0, abs=1e-12)
    assert not found.significant()


def test_a_difference_spread_over_many_clusters_is_significant():
    a = _clusters([5] * 40)
    b = _clusters([4] * 30 + [5] * 10)
    found = paired_tests(ACCURACY, a, b)["acc"]
    assert found.value == pytest.approx(-30 / 200)
    assert found.p < 0.001 and found.high < 0


def test_the_interval_excludes_zero_exactly_when_p_is_below_alpha():
    rng = np.random.default_rng(3)
    agreed = 0
    for _ in range(300):
        clusters = int(rng.integers(6, 40))
        asked = rng.integers(1, 8, clusters)
        a = np.stack([rng.binomial(asked, 0.6), asked], axis=1).astype(float)
        b = np.stack([rng.binomial(asked, rng.uniform(0.45, 0.8)), asked], axis=1).astype(float)
        found = paired_tests(ACCURACY, a, b)["acc"]
        assert (found.p < ALPHA) == (found.low > 0 or found.high < 0), found
        agreed += found.p < ALPHA
    assert 30 < agreed < 270  # both outcomes occurred


def test_holm_adjusted_p_values_by_hand():
    # sorted: 0.01 x 4 = 0.04; 0.03 x 3 = 0.09; 0.04 x 2 = 0.08 -> 0.09 (monotone); 0.5 x 1
    assert holm([0.01, 0.04, 0.03, 0.5]) == pytest.approx([0.04, 0.09, 0.09, 0.5])
    assert holm([0.9, 0.6]) == [1.0, 1.0]


# ---- calibration on simulated run pairs (small scale) -------------------------------------------

# ---- the real CLI --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def oracle_run(recorded):
    """The oracle's run and its results, with each task's breakdown keys as the report reads them."""
    out = recorded("compare_tempvs_oracle").out
    (run,) = find_runs(out, rescored=True)
    return out, {"results": {task: with_breakdowns(run, task, entry) for task, entry in run.data["results"].items()}}


def _wrong_in(folder: Path, wrong) -> None:
    """Rewrite the run's records: those for which ``wrong(record)`` holds answered wrong."""
    for path in folder.rglob("*_samples_*.jsonl"):
        lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        for line in lines:
            record = doc_record(line)
            if wrong(record):
                for value in line.values():  # the same record under every metric key
                    if value == record:
                        value["correct"] = False
        path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")


def _compare(a: Path, b: Path, tmp_path: Path) -> str:
    log = temporal_bench("compare", a, b, cwd=tmp_path)
    assert log.returncode == 0, log.stderr
    return log.stdout


def _row(text: str, task: str, metric: str) -> list[str]:
    return next(line for line in text.splitlines() if line.startswith(f"| {task} | {metric} |")).split(" | ")


def test_one_sequence_answered_wrong_is_not_a_significant_difference(oracle_run, tmp_path):
    run, _ = oracle_run
    changed = tmp_path / "b"
    shutil.copytree(run, changed)
    one = next(doc_record(json.loads(line)) for line in next(changed.rglob("*_samples_tempvs_mt1_two.jsonl")).open())
    _wrong_in(changed, lambda r: (r["source"], r["img_seq_id"]) == (one["source"], one["img_seq_id"]))
    out = _compare(run, changed, tmp_path)
    for metric in ("GT", "GT_strict", "MT"):
        row = _row(out, "tempvs_mt1_two", metric)
        assert float(row[6].split()[0]) < 0 and row[7] == "1" and row[8] == "1 |", row  # B - A < 0, p = 1, Holm 1
        assert f"No significant difference on MT1 two-event {metric}: B - A = " in out
    assert "B beats A on 0, A beats B on 0" in out


def test_a_difference_in_most_sequences_is_significant_after_correction(oracle_run, tmp_path):
    run, _ = oracle_run
    changed = tmp_path / "b"
    shutil.copytree(run, changed)
    # B answers the main questions of about three sequences in four wrong
    _wrong_in(changed, lambda r: r["kind"] == "main" and r["test"] == "mt1_two" and zlib.crc32(f"{r['source']}/{r['img_seq_id']}".encode()) % 4 != 0)
    out = _compare(run, changed, tmp_path)
    row = _row(out, "tempvs_mt1_two", "MT")
    assert row[4:] == ["100.0", "26.1", "-73.9 [-100.0, -41.7]", "< 0.001", "0.003 |"], row  # the interval stays within [-100, 100]
    assert "A beats B on MT1 two-event MT by 73.9 points [41.7, 100.0], p < 0.001 (Holm-adjusted over 12 rows: 0.003)." in out
    assert "No significant difference on MT1 two-event GT: B - A = 0.0 points [0.0, 0.0], p = 1." in out


def test_the_ordering_task_is_compared_test_by_test(oracle_run, tmp_path):
    run, results = oracle_run
    out = _compare(run, run, tmp_path)
    entry = results["results"]["tempvs_ordering_event"]
    for test, prefix in (("tempvs_mt2_event", "mt2"), ("tempvs_mt3_event", "mt3")):
        row = _row(out, test, "MT")
        assert row[2] == f"{entry[f'{prefix}_main_count,none']:,}", row  # n: the test's main questions
        assert float(row[4]) == pytest.approx(100 * entry[f"{prefix}_mt_acc,none"], abs=0.05)
    assert "| tempvs_ordering_event |" not in out
    assert "Over the 12 rows" in out and "B beats A on 0, A beats B on 0, no significant difference on 12." in out


def test_a_partial_run_is_named_in_the_header_and_the_notes(oracle_run, tmp_path):
    run, _ = oracle_run
    partial = tmp_path / "b"
    shutil.copytree(run, partial)
    results = next(partial.rglob("*_results.json"))
    data = json.loads(results.read_text(encoding="utf-8"))
    data["config"]["limit"] = 10
    for task in TEMPVS_TASKS:  # as lmms-eval records a --limit 10 run
        data["n-samples"][task]["effective"] = 10
        samples = next(partial.rglob(f"*_samples_{task}.jsonl"))
        samples.write_text("".join(samples.read_text(encoding="utf-8").splitlines(keepends=True)[:10]), encoding="utf-8")
    results.write_text(json.dumps(data), encoding="utf-8")
    out = _compare(run, partial, tmp_path)
    assert f"`{results.as_posix()}` (partial run: tempvs_mt1_two, tempvs_mt2_event, tempvs_mt3_event; see the notes)" in out  # the ordering task's tests
    original = data["n-samples"]["tempvs_mt1_two"]["original"]
    assert (f"- tempvs_mt1_two: run B is partial (--limit 10: 10 of {original} docs): the rows compare the questions both runs answered, not the whole task") in out


@pytest.mark.parametrize("clusters", [1, 2, 6, 11])
def test_few_clusters_get_the_exact_permutation_p_value(clusters):
    """Every cluster answered right by A and wrong by B: of the 2^n swaps only the identity and the full
    swap reach the observed difference, so p = 2 / 2^n exactly (with one cluster: 1)."""
    accuracy = {"acc": lambda c: c[..., 0] / c[..., 1]}
    a = np.array([[1.0, 1.0]] * clusters)
    b = np.array([[0.0, 1.0]] * clusters)
    test = paired_tests(accuracy, a, b)["acc"]
    assert test.value == -1.0 and test.draws == 2**clusters - 1
    assert test.p == 2 / 2**clusters


# ---- the data the runs read (issue 34 item 1) ---------------------------------------------------


@pytest.fixture(scope="module")
def flipped_runs(recorded):
    """The same seed of the random baseline on ISO-Bench data and on a copy with half the labels flipped."""
    copies = recorded("isobench_copies")
    return copies.out / "a", copies.out / "flipped", copies.env["ISOBENCH_DATA_DIR"], copies.env["ISOBENCH_FLIPPED_DATA_DIR"]


def test_runs_on_different_data_are_refused_naming_both_sources(flipped_runs, tmp_path):
    a, b, data, flipped = flipped_runs
    log = temporal_bench("compare", a, b, cwd=tmp_path)
    assert (log.returncode, log.stdout) == (1, "")
    reads = [find_runs(run)[0].data_read("isobench") for run in (a, b)]
    assert reads[0].fingerprint != reads[1].fingerprint
    assert f"isobench: run A read 32 question(s), fingerprint {reads[0].fingerprint} (images under {data}" in log.stderr
    assert f"run B read 32 question(s), fingerprint {reads[1].fingerprint} (images under {flipped}" in log.stderr
    assert "--allow-different-data" in log.stderr
    # asked to, it compares the questions of the same id, and says so first
    log = temporal_bench("compare", a, b, "--allow-different-data", cwd=tmp_path)
    assert log.returncode == 0, log.stderr
    first = log.stdout.splitlines()[0]
    assert first.startswith("**The runs read different data** (compared anyway, --allow-different-data") and reads[1].fingerprint in first
    assert "| isobench | weighted F1 (Table 1's rule) | 32 |" in log.stdout


def test_questions_join_only_within_the_same_data():
    """Records carry a digest of what their doc asks and shows: the same id on other data is another question."""
    records = [{"id": f"q{i}", "goal": f"g{i % 4}", "gold": "yes", "pred": "yes", "content": f"c{i}"} for i in range(8)]
    other = [{**record, "content": "flipped"} for record in records[:4]] + records[4:]
    rows, notes = compare_records("isobench", records, other)
    assert rows[0].support == (4, 4)
    assert notes[0] == "isobench: 4 of run A's 8 and 4 of run B's 8 questions have no counterpart answered on the same data in the other run: left out"
    rows, notes = compare_records("isobench", records, other, same_data=False)  # --allow-different-data: by id alone
    assert rows[0].support == (8, 8) and not any("counterpart" in note for note in notes)


# ---- what a row says ---------------------------------------------------------------------------


def test_a_non_significant_row_says_which_difference_it_could_have_shown():
    a = _clusters([3] * 40)
    b = _clusters([3] * 39 + [4])
    test = paired_tests(ACCURACY, a, b)["acc"]
    assert not test.significant() and 0 < test.detectable < 1
    comparison = Comparison("tempvs_mt1_two", "mt_acc", 40, (200, 200), 0.6, 0.605, test, adjusted_p=test.p)
    line = plain_line(comparison, 1)
    assert line.startswith("No significant difference on MT1 two-event MT: B - A = 0.5 points")
    assert line.endswith(
        f"Not the same as equal: on these questions only a difference beyond {100 * test.detectable:.1f} points could reach significance (for this row alone), and a real difference of that size is found about half the time."
    )
    # the interval of a null difference reaches exactly that far
    assert test.high == pytest.approx(test.value + test.detectable)
    one = paired_tests(ACCURACY, _clusters([5]), _clusters([4]))["acc"]
    assert "With 1 clusters no difference can reach significance here" in plain_line(Comparison("tempvs_mt1_two", "mt_acc", 1, (5, 5), 1.0, 0.8, one, adjusted_p=1.0), 1)


def test_runs_alike_in_every_cluster_do_not_claim_a_zero_point_detectable_difference():
    """Every swap leaves B - A at 0 (the runs answered alike): no "difference beyond 0.0 points" is claimed."""
    same = _clusters([3, 4, 2] * 10)
    test = paired_tests(ACCURACY, same, same)["acc"]
    assert (test.value, test.p, test.detectable) == (0.0, 1.0, 0.0)
    line = plain_line(Comparison("tempvs_mt1_two", "mt_acc", 30, (150, 150), 0.6, 0.6, test, adjusted_p=1.0), 1)
    assert "beyond 0.0 points" not in line
    assert line.endswith(
        "swapping the runs' answers cluster by cluster leaves B - A within 0.05 points in 95% of the draws (the runs score alike in nearly every cluster), so these questions cannot say which difference could reach significance."
    )


@pytest.fixture(scope="module")
def limited_catbench_run(recorded):
    """The issue's case: ``catbench_switched`` under ``--limit``, whose first docs are Dep questions of 20 plans (no
    NonDep question, no twin): NonDep F1 is 0 in both runs whatever is swapped."""
    out = recorded("compare_catbench_limited").out
    results = json.loads(next(out.rglob("*_results.json")).read_text(encoding="utf-8"))
    return out, results["n-samples"]["catbench_switched"]["original"]


def test_compare_under_limit_says_the_run_is_partial_and_blames_no_missing_switched_task(limited_catbench_run, tmp_path):
    run, original = limited_catbench_run
    out = _compare(run, run, tmp_path)
    partial = f"run A is partial (--limit 20: 20 of {original} docs) and run B is partial (--limit 20: 20 of {original} docs)"
    assert _row(out, "catbench_switched", "NonDep F1")[4:7] == ["0.0", "0.0", "0.0 [0.0, 0.0]"]
    assert "beyond 0.0 points" not in out and "only a `_switched` task asks" not in out
    rows = [line for line in out.splitlines() if line.startswith("No significant difference on catbench_switched ")]
    assert rows and all(line.endswith(f"Not the same as equal: {partial}, so these questions are a part of the task and cannot say which difference the whole task could show.") for line in rows)
    assert f"- catbench_switched: OCC undefined in a run on the shared docs (no NonDep question with its switched twin): {partial}, and the limit may have cut what it is computed on\n" in out


def test_notes_explain_an_undefined_metric_in_the_benchmarks_words():
    """A CaT-Bench task that is no ``_switched`` one has no twins: OCC undefined, said in CaT-Bench's words."""
    records = [{"question_id": f"p|{i}|{i + 1}|{relation}|real", "pair_id": f"p|{i}|{i + 1}", "variant": "real", "dependency": "dep", "relation": relation, "gold": "yes", "pred": "yes"} for i in range(4) for relation in ("before", "after")]
    _, notes = compare_records("catbench", records, records)
    assert ("catbench: OCC undefined in a run on the shared docs (no NonDep question with its switched twin: OCC is defined on the twins, which only a `_switched` task asks)") in notes
    assert not any("GT_strict" in note for note in notes)
    assert "catbench: only 1 plans: the test stays exact" in " ".join(notes)
