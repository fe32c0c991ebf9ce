"""Confidence intervals (each benchmark's cluster_stats.py, temporal_bench/report/bootstrap.py, intervals.py) on real
runs, recorded (tests/recorded/intervals.py): one lmms-eval run of TempVS, CaT-Bench and ISO-Bench and one lm-eval run
of CaT-Bench, with a scripted model mixing right, wrong and unparseable answers. The point estimate from the
summed cluster counts must equal the task's own aggregation on the same records for every metric
with an interval; the report shows the intervals and, for a model the paper lists, the reproduction
verdicts (whether a cell that differs is also outside the interval);
``compare`` joins by doc identity and gives 0 and p = 1 for a run against itself."""

import json
import random
import shutil

import pytest

from temporal_bench.catbench.breakdowns import BREAKDOWNS as CATBENCH_BREAKDOWNS
from temporal_bench.isobench.breakdowns import AGGREGATIONS as ISOBENCH_AGGREGATIONS
from temporal_bench.lmms_eval_tasks.catbench import metrics as catbench_metrics
from temporal_bench.report import LAYOUTS
from temporal_bench.report.bootstrap import DRAWS
from temporal_bench.report.cli import main_report
from temporal_bench.report.cluster_stats import CLUSTER_STATS, cluster_stats_of
from temporal_bench.report.compare import compare_runs, main_compare, single_run
from temporal_bench.report.intervals import record_intervals
from temporal_bench.report.rows import build_rows
from temporal_bench.report.verdicts import CLOSE, DIFFERS, REPRODUCED, classify, verdicts, within
from temporal_bench.runs.logged import find_runs
from temporal_bench.runs.records import doc_record
from temporal_bench.runs.results import load_runs, with_breakdowns
from temporal_bench.tempvs.breakdowns import AGGREGATIONS as TEMPVS_AGGREGATIONS
from tests.recorded import as_recorded_by
from tests.recorded.intervals import CATBENCH_PLANS, LM_EVAL_TASKS, LMMS_TASKS
from tests.task_docs import isobench_records as load_records
from tests.task_docs import task_docs

AGGREGATIONS = {"tempvs": TEMPVS_AGGREGATIONS, "isobench": ISOBENCH_AGGREGATIONS, "catbench": {**{name: getattr(catbench_metrics, name) for name in catbench_metrics.METRIC_NAMES}, **CATBENCH_BREAKDOWNS}}


@pytest.fixture(scope="module")
def recording(recorded):
    return recorded("intervals")


@pytest.fixture(scope="module")
def data(recording):
    return recording.env


@pytest.fixture(scope="module")
def script(recording):
    return recording.work / "scripts" / "answers.json"


@pytest.fixture(scope="module")
def lmms_run(recording):
    return recording.out / "lmms_eval"


@pytest.fixture(scope="module")
def lmms_run_as_gpt_4o(lmms_run, tmp_path_factory):
    """The lmms-eval run as CaT-Bench's dated GPT-4o records it (the report reads the model from the results file)."""
    return as_recorded_by(lmms_run, "gpt-4o-2024-05-13", tmp_path_factory.mktemp("as_gpt_4o") / "lmms_eval")


@pytest.fixture(scope="module")
def lm_eval_run(recording):
    return recording.out / "lm_eval"


def _results_file(folder):
    return find_runs(next(p for p in folder.rglob("*.json") if "results" in p.name))[0].results_path


def test_point_estimates_equal_the_tasks_own_aggregation(lmms_run, lm_eval_run):
    checked = 0
    for folder, tasks in ((lmms_run, LMMS_TASKS), (lm_eval_run, LM_EVAL_TASKS)):
        run = find_runs(_results_file(folder))[0]
        # the headline keys of the results file and the breakdown keys, as the report reads them
        reported = {task: with_breakdowns(run, task, entry) for task, entry in run.data["results"].items() if task in tasks}
        for task in tasks:
            benchmark = cluster_stats_of(task)
            records = run.records(task)
            intervals = record_intervals(benchmark, records)
            for metric, found in intervals.items():
                own = AGGREGATIONS[benchmark.name][metric](records)
                logged = reported[task].get(f"{metric},none")
                assert (found.value is None) == (own is None) == (logged is None), (task, metric)
                if own is not None:
                    assert found.value == pytest.approx(own, abs=1e-12, rel=0), (task, metric)
                    assert found.value == pytest.approx(logged, abs=1e-12, rel=0), (task, metric)
                    assert found.low <= found.high, (task, metric)
                    checked += 1
    # every headline metric is defined and checked on these runs
    assert checked >= 4 + 2 * (len(CLUSTER_STATS["catbench"].metrics)) + len(CLUSTER_STATS["isobench"].metrics)


def test_clusters_are_the_sequences_plans_and_videos(lmms_run, data):
    run = find_runs(_results_file(lmms_run))[0]
    counts = {task: cluster_stats_of(task).counts(run.records(task)) for task in LMMS_TASKS}
    tempvs_docs = task_docs("tempvs_mt1_two", data["TEMPVS_DATA_DIR"])
    assert sorted(counts["tempvs_mt1_two"]) == sorted({f"{d['source']}/{d['img_seq_id']}" for d in tempvs_docs})
    assert sorted(counts["catbench_switched"]) == [f"synthetic test recipe {i}" for i in range(CATBENCH_PLANS)]
    # ISO-Bench: the goals, where the records carry them; records that do not are clustered by the fixture's
    # video_id column, two examples per video (tests/fidelity/test_isobench_clusters.py: the fallback is named)
    records = run.records("isobench")
    goals = {f"goal {r['goal']}" for r in load_records(data["ISOBENCH_DATA_DIR"])}
    assert sorted(counts["isobench"]) == sorted(goals) if all(r.get("goal") for r in records) else len(counts["isobench"]) == 20
    # a cluster holds all of its questions: the summed counts are the whole task's
    assert sum(v[3] for v in counts["tempvs_mt1_two"].values()) == TEMPVS_AGGREGATIONS["main_count"](run.records("tempvs_mt1_two"))


def test_intervals_are_seeded_and_reproducible(lmms_run):
    run = find_runs(_results_file(lmms_run))[0]
    records = run.records("tempvs_mt1_two")
    first = record_intervals(CLUSTER_STATS["tempvs"], records)
    assert first == record_intervals(CLUSTER_STATS["tempvs"], list(reversed(records)))
    assert all(i.undefined_draws < DRAWS for i in first.values() if i.value is not None)


def test_doc_record_finds_the_record_under_any_metric_key():
    record = {"id": "1", "gold": "yes", "pred": "no"}
    assert doc_record({"doc_id": 0, "target": "yes", "resps": [["no"]], "coverage": record}) is record
    assert doc_record({"doc_id": 0, "f1_macro": record, "accuracy": record}) is record
    assert doc_record({"doc_id": 0, "target": "yes"}) is None


def test_published_rounding():
    assert within(58.8, 1, 58.84, 60.0) and within(58.8, 1, 50.0, 58.75)  # 58.8 stands for [58.75, 58.85)
    assert within(58.8, 1, 58.86, 60.0) is False and within(58.8, 1, 50.0, 58.74) is False
    assert within(0.5827 * 100, 2, 58.275, 60.0) and not within(0.5827 * 100, 2, 58.2751, 60.0)


def test_a_run_on_synthetic_data_gets_no_verdict_whatever_its_model(lmms_run_as_gpt_4o, capsys):
    """The issue's demo run recorded as a paper's model (gpt-4o-2024-05-13): its generated data is marked, so no published cell is judged."""
    assert main_report([str(lmms_run_as_gpt_4o), "--table", "catbench-table1", "--table", "isobench-table1", "--table", "tempvs-table14"]) == 0
    out = capsys.readouterr().out
    assert "Verdict" not in out and "Reproduction verdicts" not in out
    assert "| **gpt-4o-2024-05-13** (synthetic data) | A | measured |" in out
    assert "] **gpt-4o-2024-05-13**: catbench_switched, isobench, tempvs_mt1_two has no verdict: it read synthetic data (generated in the benchmark's layout, not its release)\n" in out  # one note for the three tables


def test_report_shows_intervals_and_verdicts_for_a_listed_model(lmms_run_as_gpt_4o, read_as_release, tmp_path, capsys):
    lmms_run = lmms_run_as_gpt_4o
    runs = load_runs([lmms_run])
    rows = build_rows(LAYOUTS["catbench-table1"], runs)
    measured = next(r for r in rows if r.source == "measured")
    assert sorted(measured.intervals) == sorted(c.key for c in LAYOUTS["catbench-table1"].columns)
    found = verdicts(LAYOUTS["catbench-table1"], rows)
    paper = next(r for r in rows if r.source == "published" and r.model == "gpt-4o" and r.setting == "A")
    assert [v.column.key for v in found] == [c.key for c in LAYOUTS["catbench-table1"].columns]
    assert all(v.published is paper for v in found)
    # each cell: the published value against the measured one (tolerance 1 point = 0.01); a cell that
    # differs also says whether the published value is outside the measured interval
    expected = {k: classify(paper.values[k], 2, measured.values[k], 0.01) for k in measured.values}
    assert {v.column.key: v.kind for v in found} == expected
    assert {v.column.key: v.beyond_interval for v in found} == {k: (not within(paper.values[k], 2, *measured.intervals[k]) if kind == DIFFERS else None) for k, kind in expected.items()}
    assert {v.column.key: v.difference for v in found} == {k: measured.values[k] - paper.values[k] for k in expected}
    counts = ", ".join(f"{sum(kind == name for kind in expected.values())} {name}" for name in (REPRODUCED, CLOSE, DIFFERS))
    line = f"{counts} of 9 published cells (tolerance 1 point)"
    assert main_report([str(lmms_run), "--table", "catbench-table1"]) == 0
    out = capsys.readouterr().out
    low, high = measured.intervals["macro_f"]
    assert f"| {measured.values['macro_f']:.2f} [{low:.2f}, {high:.2f}] |" in out
    assert f"Verdict: {line}." in out
    assert f"## Reproduction verdicts\n\n- {LAYOUTS['catbench-table1'].title}: {line}.\n" in out
    marks = {REPRODUCED: "=", CLOSE: "≈", DIFFERS: "≠"}
    cells = " | ".join(f"{paper.values[c.key]:.2f} {marks[expected[c.key]]}" for c in LAYOUTS["catbench-table1"].columns)
    assert f"| gpt-4o | A | published | {cells} |" in out
    # ISO-Bench Table 1 reads the paper_ rule's keys (unparsed answers a third label): intervals too
    iso = next(r for r in build_rows(LAYOUTS["isobench-table1"], runs) if r.source == "measured")
    assert sorted(iso.intervals) == sorted(c.key for c in LAYOUTS["isobench-table1"].columns if iso.values[c.key] is not None)
    assert iso.intervals


def test_report_says_why_a_cell_has_no_interval(lmms_run, script, tmp_path, capsys):
    # CaT-Bench Table 1 reads headline keys, which the results file holds without samples; ISO-Bench
    # Table 1 also reads the paper_ weighted averages of P and R, breakdown keys, which exist only with the samples
    folder = tmp_path / "run"
    shutil.copytree(lmms_run, folder)
    for task in ("catbench_switched", "isobench"):
        for samples in folder.rglob(f"*_samples_{task}.jsonl"):
            samples.unlink()
    assert main_report([str(folder), "--table", "catbench-table1"]) == 0
    out = capsys.readouterr().out
    assert "Measured cells without an interval:" in out and "samples_catbench_switched.jsonl beside it (run with --log_samples)" in out
    assert "Measured cells with brackets" not in out
    assert main_report([str(folder), "--table", "isobench-table1"]) == 0
    out = capsys.readouterr().out
    assert "`paper_precision_weighted` (Avg P) not in isobench" in out, out
    assert (f"these runs have none beside their results (run with `--log_samples`):\n- scripted (policy=script,script={script}): catbench_switched, isobench\n") in out


def test_compare_a_run_with_itself_gives_zero_and_p_one(lmms_run, lm_eval_run):
    for folder in (lmms_run, lm_eval_run):
        run = single_run(folder)
        comparisons, notes = compare_runs(run, run)
        # few clusters (the fixture's 5 plans, 8 sequences, its goals), and ISO-Bench records without a goal clustered by video
        assert comparisons and all(": the test stays exact" in note or "carry no goal: clustered by their plan video" in note for note in notes), notes
        for c in comparisons:
            assert (c.test.value, c.test.low, c.test.high, c.test.p, c.adjusted_p) == (0.0, 0.0, 0.0, 1.0, 1.0), c.name


def _rewrite_samples(folder, task, change):
    path = next(folder.rglob(f"*_samples_{task}.jsonl"))
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    path.write_text("".join(json.dumps(line) + "\n" for line in change(lines)), encoding="utf-8")


def test_compare_joins_by_doc_identity_and_counts_the_changed_answers(lmms_run, tmp_path, capsys):
    shuffled, changed = tmp_path / "shuffled", tmp_path / "changed"
    shutil.copytree(lmms_run, shuffled)
    shutil.copytree(lmms_run, changed)
    for task in LMMS_TASKS:  # other positions, same docs
        _rewrite_samples(shuffled, task, lambda lines: random.Random(0).sample(lines, len(lines)))
    comparisons, _ = compare_runs(single_run(lmms_run), single_run(shuffled))
    assert all((c.test.value, c.test.p) == (0.0, 1.0) for c in comparisons)

    flipped = {}

    def flip_mains(lines):  # run B gets every third main question of TempVS the other way round
        for line in lines:
            record = dict(doc_record(line))
            if record["kind"] == "main" and line["doc_id"] % 3 == 0:
                flipped[record["key"]] = record["correct"]
                for value in line.values():  # the same record under every metric key
                    if value == record:
                        value["correct"] = not record["correct"]
        return lines

    _rewrite_samples(changed, "tempvs_mt1_two", flip_mains)
    comparisons, _ = compare_runs(single_run(lmms_run), single_run(changed))
    mt = next(c for c in comparisons if c.task == "tempvs_mt1_two" and c.metric == "mt_acc")
    only_a, only_b = sum(flipped.values()), sum(not v for v in flipped.values())
    mains = TEMPVS_AGGREGATIONS["main_count"](find_runs(_results_file(lmms_run))[0].records("tempvs_mt1_two"))
    assert only_a + only_b == len(flipped) > 0
    assert mt.support == (mains, mains)
    assert mt.test.value == pytest.approx((only_b - only_a) / mains, abs=1e-12)
    assert mt.test.low <= mt.test.value <= mt.test.high and 0 < mt.test.p <= 1
    unchanged = [c for c in comparisons if c.task != "tempvs_mt1_two" or c.metric == "gt_acc"]
    assert all((c.test.value, c.test.p) == (0.0, 1.0) for c in unchanged)
    assert main_compare([str(lmms_run), str(changed)]) == 0
    out = capsys.readouterr().out
    assert "| tempvs_mt1_two | MT |" in out and "MT1 two-event MT" in out


def test_the_report_names_an_isobench_clustering_fallback(lmms_run, tmp_path, capsys):
    """Records without their plan's goal (runs before goals were recorded): the intervals fall back to
    the plan video, and the table says so."""
    folder = tmp_path / "run"
    shutil.copytree(lmms_run, folder)

    def without_goal(lines):
        for line in lines:
            for value in line.values():
                if isinstance(value, dict):
                    value.pop("goal", None)
        return lines

    _rewrite_samples(folder, "isobench", without_goal)
    assert main_report([str(folder), "--table", "isobench-table1"]) == 0
    out = capsys.readouterr().out
    assert (
        "\nIntervals on a fallback cluster:\n- [" in out
        and "] **scripted (policy=script,script=" in out
        and "isobench: 40 of 40 records carry no goal: clustered by their plan video (plan_id), finer than the goals their questions share" in out
    )
