"""``temporal-bench rescore`` (temporal_bench/rescore/) on real CLI runs: one lmms-eval
run of TempVS, CaT-Bench (with self-consistency) and ISO-Bench, one lm-eval run of CaT-Bench, both
with a scripted model mixing right, wrong, unparseable and think-tagged answers. The default
re-score must give every metric of the results JSON exactly; ``--set fixes=extraction`` must change
exactly the metrics a by-hand count of the script says, to the values it says.

Re-scoring under the run's recorded task settings, ``--set`` over them, and the refusals when the
task YAML changed since the run are checked on a small task folder whose score depends on one
setting (tests/rescore_support/probe/)."""

import contextlib
import csv
import json
import random
import shutil
from pathlib import Path

import pytest

from temporal_bench.catbench.fixtures import write_fixture as write_catbench
from temporal_bench.isobench.fixtures import write_fixture as write_isobench
from temporal_bench.lmms_eval_tasks.catbench.questions import with_switched_twins
from temporal_bench.lmms_eval_tasks.plugin.tempvs.utils import process_results
from temporal_bench.lmms_eval_tasks.tempvs.spec import MAIN_TESTS, SOURCES, TEST_NAMES, doc_key
from temporal_bench.rescore.cli import main_rescore
from temporal_bench.rescore.scoring import rescore
from temporal_bench.runs.files import read_samples as read_logged
from temporal_bench.runs.logged import find_runs
from temporal_bench.runs.records import doc_record
from temporal_bench.runs.results import load_runs
from temporal_bench.tempvs.breakdowns import DISTANCES, PAIRED_TYPES, breakdown_metrics
from temporal_bench.tempvs.record_reader import TempVSRecords
from tests.harness import lm_eval, lmms_eval, read_samples
from tests.paths import TESTS
from tests.task_docs import catbench_split as load_split
from tests.task_docs import isobench_records as load_records
from tests.task_docs import task_docs
from tests.tempvs_fixture_copies import write_tempvs

LMMS_TASKS = ["tempvs_mt1_two", "catbench_switched", "catbench_sc", "isobench", "isobench_cot"]
LM_EVAL_TASKS = ["catbench_switched", "catbench_sc"]
RIGHT, WRONG, UNPARSED = "right", "wrong", "unparsed"
NUMBER_WORDS = ["zero", "one", "two", "three", "four", "five"]
# tempvs_mt1_two's metric_list (lmms_eval_tasks/tempvs/_main_template_yaml)
TEMPVS_HEADLINE = ["gt_acc", "gtstrict_rate", "mt_acc", "mt_given_gtstrict"]  # the task's metric_list


# ---- the script ---------------------------------------------------------------------------------


def tempvs_case(doc):
    """(response, outcome under the official parser, outcome under the setting fixes=extraction)."""
    gold = doc["answer"]
    wrong = next(c for c in doc["choices"] if c != gold)
    pick = random.Random(doc["doc_key"]).choice
    if doc["kind"] == "main":
        return pick(
            [
                (gold, RIGHT, RIGHT),
                (f"option {gold.lower()}", UNPARSED, RIGHT),  # the official pattern is case-sensitive
                (f"A man waves first. Option {gold}", RIGHT if gold == "A" else WRONG, RIGHT),  # the article "A"
                (wrong, WRONG, WRONG),
                ("I cannot tell.", UNPARSED, UNPARSED),
            ]
        )
    return pick(
        [
            (f"Image {gold}", RIGHT, RIGHT),
            (f"Image {gold}", RIGHT, RIGHT),
            (f"Image {gold}", RIGHT, RIGHT),
            (f"image {NUMBER_WORDS[int(gold)]}", UNPARSED, RIGHT),  # number words
            (f"The 9 friends are in image {gold}.", WRONG, RIGHT),  # officially the first number anywhere
            (f"Image {wrong}", WRONG, WRONG),
            ("I cannot tell.", UNPARSED, UNPARSED),
        ]
    )


def yes_no_case(index, gold, think="<think>No, wait.</think> ", yes="Yes", no="No"):
    """CaT-Bench / ISO-Bench answer-only mix; a reasoning block the harness strips before scoring."""
    return [yes, no, "I cannot tell.", f"{think}{yes}", yes if gold == "yes" else no][index % 5]


SC_SAMPLES = [["Yes", "No", "Yes"], ["No", "I cannot tell.", "No"], ["Yes", "No", "Unsure."], ["Unsure.", "Unclear.", "Hmm."], ["No", "Yes", "Yes"]]
COT_ANSWERS = ["<think>NO</think><answer>YES</answer>", "<answer>NO</answer>", "<answer>YES", "<think>It is YES.</think>", "<answer>{gold}</answer>"]


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    root = tmp_path_factory.mktemp("rescore_data")
    return {"TEMPVS_DATA_DIR": str(write_tempvs(root / "tempvs")), "CATBENCH_DATA_DIR": str(write_catbench(root / "catbench")), "ISOBENCH_DATA_DIR": str(write_isobench(root / "isobench", "hf"))}


@pytest.fixture(scope="module")
def tempvs_docs(data):
    return task_docs("tempvs_mt1_two", data["TEMPVS_DATA_DIR"])


@pytest.fixture(scope="module")
def script(data, tempvs_docs, tmp_path_factory):
    real = load_split("test", data_dir=data["CATBENCH_DATA_DIR"])
    iso = load_records(data["ISOBENCH_DATA_DIR"])
    entries = {f"tempvs_mt1_two/{i}": tempvs_case(d)[0] for i, d in enumerate(tempvs_docs)}
    entries.update({f"catbench_switched/{i}": yes_no_case(i, d["answer"]) for i, d in enumerate(with_switched_twins(real))})
    entries.update({f"catbench_sc/{i}": SC_SAMPLES[i % 5] for i in range(len(real))})
    entries.update({f"isobench/{i}": yes_no_case(i, d["answer"], "<think>NO</think>", "YES", "no") for i, d in enumerate(iso)})
    entries.update({f"isobench_cot/{i}": COT_ANSWERS[i % 5].format(gold=d["answer"].upper()) for i, d in enumerate(iso)})
    path = tmp_path_factory.mktemp("rescore_script") / "script.json"
    path.write_text(json.dumps(entries), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def lmms_run(data, script, tmp_path_factory):
    """One lmms-eval run with --log_samples; returns its output folder."""
    tmp = tmp_path_factory.mktemp("rescore_lmms")
    lmms_eval(tmp, LMMS_TASKS, model_args=f"policy=script,script={script}", env=data)
    return tmp / "lmms_eval_out"


@pytest.fixture(scope="module")
def lm_eval_run(data, script, tmp_path_factory):
    out = tmp_path_factory.mktemp("rescore_lm_eval")
    lm_eval(out, LM_EVAL_TASKS, f"policy=script,script={script}", data)
    return out


@contextlib.contextmanager
def data_environment(data):
    """The data folders in the environment, where re-scoring (in this process) looks for them."""
    with pytest.MonkeyPatch.context() as patch:
        for name, value in data.items():
            patch.setenv(name, value)
        yield


def _assert_reproduced(out, data, tasks):
    with data_environment(data):
        done = rescore(find_runs(out))
    assert len(done) == 1
    results = done[0].run.data["results"]
    assert sorted(t.task for t in done[0].tasks) == sorted(tasks)
    for task in done[0].tasks:
        numeric = {k for k, v in results[task.task].items() if "," in k and "_stderr" not in k and isinstance(v, (int, float))}
        assert numeric and numeric <= {row.key for row in task.rows if row.rescored is not None}, task.task
        assert [row.key for row in task.rows if row.changed] == [], task.task
        assert task.changed_docs == 0 and task.samples > 0, task.task
    return done


# ---- tests --------------------------------------------------------------------------------------


def test_default_rescore_reproduces_every_metric_of_an_lmms_eval_run(lmms_run, data):
    done = _assert_reproduced(lmms_run, data, LMMS_TASKS)
    by_task = {t.task: t for t in done[0].tasks}
    assert {r.filter for r in by_task["catbench_sc"].rows} == {"majority_vote"}
    assert by_task["catbench_sc"].samples == 48 and by_task["tempvs_mt1_two"].samples == 152
    # lmms-eval stripped the think blocks (its samples then keep the unstripped text): re-scoring must too
    assert any("resps" in s for s in read_samples(lmms_run, "catbench_switched"))
    assert any("resps" in s for s in read_samples(lmms_run, "isobench_cot"))


def test_default_rescore_reproduces_an_lm_eval_run_with_self_consistency(lm_eval_run, data):
    _assert_reproduced(lm_eval_run, data, LM_EVAL_TASKS)
    samples = read_logged(next(lm_eval_run.rglob("samples_catbench_sc_*.jsonl")))
    assert {len(s["resps"][0]) for s in samples} == {3}  # the raw samples are voted again


def expected_tempvs(docs, outcomes):
    """Every tempvs_mt1_two metric counted directly from per-doc outcomes (all partners present)."""
    right = {d["doc_key"]: o == RIGHT for d, o in zip(docs, outcomes)}
    mains = [d for d in docs if d["kind"] == "main"]
    grounding = [d for d in docs if d["kind"] == "grounding"]
    # a main doc's partners are the question ids of its grounding rows (lmms_eval_tasks/tempvs/tempvs_to_hf.py)
    grounding_right = {d["doc_key"]: [right[doc_key(d["source"], MAIN_TESTS[TEST_NAMES[d["task_id"]]].grounding_test, p)] for p in d["partners"]] for d in mains}
    strict = {key: all(passes) for key, passes in grounding_right.items()}

    def share(items, ok=lambda d: right[d["doc_key"]]):
        return sum(ok(d) for d in items) / len(items) if items else None

    def passed(items, value=True):
        return [d for d in items if strict[d["doc_key"]] == value]

    values = {
        "gt_acc": share(grounding),
        "mt_acc": share(mains),
        "gtstrict_rate": share(mains, lambda d: strict[d["doc_key"]]),
        "mt_given_gtstrict": share(passed(mains)),
        "mt_given_gtfail": share(passed(mains, False)),
        "invalid_rate": outcomes.count(UNPARSED) / len(docs),
        "failed_count": 0,
        "main_count": len(mains),
        "grounding_count": len(grounding),
        "gt_missing_count": 0,
        "gt_unmatched_count": 0,
    }
    for source in SOURCES:
        main_of = [d for d in mains if d["source"] == source]
        values[f"gt_{source}"] = share([d for d in grounding if d["source"] == source])
        values[f"mt_{source}"] = share(main_of)
        values[f"gtstrict_{source}"] = share(main_of, lambda d: strict[d["doc_key"]])
        values[f"mtgts_{source}"] = share(passed(main_of))
    for kind in PAIRED_TYPES:
        for polarity, suffix in (("pos", "_gt"), ("neg", "_nc")):
            values[f"two_{kind}_{polarity}"] = share([d for d in mains if d["statement_type"] == kind + suffix])
    for distance in DISTANCES:
        values[f"dist{distance}"] = share([d for d in mains if d["event_distance"] == distance])
    grounded = [d for d in mains if any(grounding_right[d["doc_key"]])]  # at least one of the two events grounded
    values.update(mt_given_gt_atleast1=share(grounded), gt_atleast1_count=len(grounded))
    return values


def _number(cell):
    return None if cell == "N/A" else float(cell)


def test_tempvs_fixes_change_exactly_the_metrics_counted_by_hand(lmms_run, data, tempvs_docs, tmp_path, capsys):
    table, written = tmp_path / "rescore.csv", tmp_path / "rescored_results.json"
    argv = [str(lmms_run), "--tasks", "tempvs_mt1_two", "--set", "fixes=extraction", "--format", "csv", "-o", str(table), "--write-results", str(written)]
    with data_environment(data):
        assert main_rescore(argv) == 0
    rows = {r["metric"]: r for r in csv.DictReader(table.open(encoding="utf-8"))}
    faithful = expected_tempvs(tempvs_docs, [tempvs_case(d)[1] for d in tempvs_docs])
    fixed = expected_tempvs(tempvs_docs, [tempvs_case(d)[2] for d in tempvs_docs])
    # the headline metrics (the task's metric_list, the results JSON's) and the breakdowns the report computes
    # from the per-doc records (metrics.breakdown_metrics), original and re-scored
    assert set(TEMPVS_HEADLINE) < set(rows) and set(rows) == set(faithful)
    assert 0 < faithful["mt_acc"] < fixed["mt_acc"] < 1 and 0 < faithful["gtstrict_rate"] < fixed["gtstrict_rate"] < 1
    for name, row in rows.items():
        assert row["filter"] == "none"
        assert _number(row["original"]) == faithful[name], name
        assert _number(row["rescored"]) == fixed[name], name
    assert {n for n, r in rows.items() if r["changed"] == "1"} == {n for n in rows if faithful[n] != fixed[n]}
    # every metric, breakdowns included: the run's logged records give the by-hand count of the official
    # parser, the records of its responses under fixes=extraction (as re-scoring makes them) the fixed one
    logged = find_runs(lmms_run)[0].records("tempvs_mt1_two")
    assert breakdown_metrics("tempvs_mt1_two", logged) == faithful
    by_key = {r["key"]: r for r in logged}
    refixed = [{**TempVSRecords().normalise(doc_record(process_results({**d, "fixes": ["extraction"]}, [tempvs_case(d)[0]])), {}, {"model": "scripted"}), "failed": False} for d in tempvs_docs]
    assert [r["pred"] != by_key[r["key"]]["pred"] for r in refixed].count(True) > 0
    assert breakdown_metrics("tempvs_mt1_two", refixed) == fixed
    assert {"main_count", "grounding_count", "gt_missing_count"} & {n for n in faithful if faithful[n] != fixed[n]} == set()
    # the written results are a results file like the run's, with the re-scored values
    run = load_runs([written])[0]
    assert run.tasks == sorted(LMMS_TASKS)
    assert {name: run.metric("tempvs_mt1_two", name) for name in TEMPVS_HEADLINE if fixed[name] is not None} == {name: fixed[name] for name in TEMPVS_HEADLINE if fixed[name] is not None}
    assert json.loads(written.read_text())["rescore"]["settings"] == {"tempvs_mt1_two": {"fixes": "extraction"}}
    assert json.loads(written.read_text())["configs"]["tempvs_mt1_two"]["metadata"]["fixes"] == "extraction"
    # the markdown table says what changed
    with data_environment(data):
        assert main_rescore(argv[:-6]) == 0
    text = capsys.readouterr().out
    assert 'tempvs_mt1_two: `fixes` = "extraction" (--set; the run had' in text and "| mt_acc | none |" in text
    assert f"per-doc values changed: {sum(c[1] != c[2] for c in map(tempvs_case, tempvs_docs))}." in text
    changed = sorted(n for n in faithful if faithful[n] != fixed[n] and n not in TEMPVS_HEADLINE)
    assert changed and f"Breakdowns that changed ({len(changed)} of {len(faithful) - len(TEMPVS_HEADLINE)}; " in text
    assert all(f"| {name} | none |" in text for name in changed)


def test_missing_samples_unknown_tasks_and_bad_options_exit_with_a_message(lmms_run, data, tmp_path, capsys):
    results_file = next(lmms_run.rglob("*_results.json"))
    no_samples = tmp_path / "no_samples"
    no_samples.mkdir()
    shutil.copy(results_file, no_samples)
    renamed = tmp_path / "renamed"
    renamed.mkdir()
    run = json.loads(results_file.read_text())
    run["results"] = {"isobench_renamed": run["results"]["isobench"]}
    run["group_subtasks"] = {"isobench_renamed": []}
    (renamed / results_file.name).write_text(json.dumps(run))
    date = results_file.name[: -len("_results.json")]
    shutil.copy(next(lmms_run.rglob("*_samples_isobench.jsonl")), renamed / f"{date}_samples_isobench_renamed.jsonl")
    cases = [
        ([str(no_samples)], "--log_samples"),
        ([str(lmms_run), "--tasks", "isobench_nonexistent"], "no run has task(s) isobench_nonexistent"),
        ([str(renamed)], "task 'isobench_renamed' cannot be rebuilt"),
        ([str(lmms_run), "--tasks", "isobench", "--set", "no_such_setting=1"], "--set no_such_setting: no re-scored task has such a setting (theirs: column_map, data_split, version)"),
        ([str(lmms_run), "--set", "fixes"], "expected a task setting as key=value"),
        ([str(tmp_path / "absent")], "absent"),
    ]
    for argv, message in cases:
        with pytest.raises(SystemExit) as exit_info, data_environment(data):
            main_rescore(argv)
        assert exit_info.value.code != 0
        assert message in capsys.readouterr().err, argv


@pytest.mark.parametrize(
    "setting, blamed",
    [
        # refused before any task is rebuilt: not the kind of value the setting takes
        ("close_max_distance=abc", "--set close_max_distance=abc: `close_max_distance` takes a whole number (catbench_switched recorded 3), not 'abc'"),
        ("switched=maybe", "--set switched=maybe: `switched` takes true or false (catbench_switched recorded true), not 'maybe'"),
        # refused by the task's own settings check: the value is blamed, not the data
        ("fixes=nonsense", "--set fixes=nonsense: task 'tempvs_mt1_two' cannot be rebuilt with it ("),
        (
            "close_max_distance=-3",
            "--set close_max_distance=-3: task 'catbench_switched' cannot be rebuilt with it (CatBenchDataError: CaT-Bench task settings: close_max_distance -3: the largest step distance a pair counts as close, a whole number >= 0)",
        ),
    ],
)
def test_a_bad_set_value_is_named_not_the_data(lmms_run, data, setting, blamed, capsys):
    with pytest.raises(SystemExit) as exit_info, data_environment(data):
        main_rescore([str(lmms_run), "--tasks", "tempvs_mt1_two,catbench_switched", "--set", setting])
    error = capsys.readouterr().err
    assert exit_info.value.code == 2 and blamed in error, error
    assert "needs the run's data" not in error
    if setting.startswith("fixes="):
        assert "nonsense" in error.partition("cannot be rebuilt with it (")[2] and error.rstrip().endswith("with the run's own settings it can (see temporal-bench rescore --help)")


# ---- task settings: the probe task folder ----------------------------------------------------------

PROBE = TESTS / "rescore_support" / "probe"
PROBE_TASKS = ["rescore_probe", "rescore_probe_lenient"]
# gold: yes yes no no no no; exact matching counts doc 0 only, lenient (lower-cased) docs 0, 1, 2 and 4
PROBE_RESPONSES = ["yes", "Yes", "No", "maybe", "NO", "yes"]
EXACT, LENIENT = 1 / 6, 4 / 6


@pytest.fixture(scope="module")
def probe_run(tmp_path_factory):
    """(the task folder, the run's output folder): one lmms-eval run of both probe tasks, the folder a
    copy that a test may edit afterwards (re-scoring finds it through the run's --include_path)."""
    root = tmp_path_factory.mktemp("probe")
    folder = shutil.copytree(PROBE, root / "probe")
    script = root / "script.json"
    script.write_text(json.dumps({f"{task}/{i}": r for task in PROBE_TASKS for i, r in enumerate(PROBE_RESPONSES)}))
    results = lmms_eval(root, PROBE_TASKS, model_args=f"policy=script,script={script}", extra=["--include_path", str(folder)])
    assert [results["results"][t]["accuracy,none"] for t in PROBE_TASKS] == [EXACT, LENIENT]
    assert results["configs"]["rescore_probe"]["metadata"] == {"version": 1.0, "matching": "exact"}
    return folder, root / "lmms_eval_out"


@contextlib.contextmanager
def edited(path: Path, old: str, new: str):
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")
    try:
        yield
    finally:
        path.write_text(text, encoding="utf-8")


def _accuracy(done):
    return {task.task: task.values["accuracy,none"] for task in done[0].tasks}


def test_rescore_uses_the_recorded_settings_and_set_overrides_them(probe_run, tmp_path, capsys):
    folder, out = probe_run
    assert _accuracy(rescore(find_runs(out))) == {"rescore_probe": EXACT, "rescore_probe_lenient": LENIENT}
    done = rescore(find_runs(out), values={"matching": "lenient"})
    assert _accuracy(done) == {"rescore_probe": LENIENT, "rescore_probe_lenient": LENIENT}
    assert {t.task: t.settings.changed for t in done[0].tasks} == {"rescore_probe": {"matching": ("exact", "lenient")}, "rescore_probe_lenient": {}}
    written = tmp_path / "rescored.json"
    assert main_rescore([str(out), "--tasks", "rescore_probe", "--set", "matching=lenient", "--write-results", str(written)]) == 0
    text = capsys.readouterr().out
    assert 'rescore_probe: `matching` = "lenient" (--set; the run had "exact")' in text
    assert f"| accuracy | none | {EXACT!r} | {LENIENT!r} |" in text
    data = json.loads(written.read_text())
    assert data["rescore"]["settings"] == {"rescore_probe": {"matching": "lenient"}}
    assert data["configs"]["rescore_probe"]["metadata"] == {"version": 1.0, "matching": "lenient"}
    assert data["results"]["rescore_probe"]["accuracy,none"] == LENIENT


def test_a_setting_the_yaml_now_gives_otherwise_is_rescored_as_recorded_with_a_warning(probe_run, capsys):
    folder, out = probe_run
    with edited(folder / "rescore_probe.yaml", "matching: exact", "matching: lenient"):
        assert main_rescore([str(out), "--tasks", "rescore_probe"]) == 0
    captured = capsys.readouterr()
    warning = 'rescore_probe: warning: its YAML now sets `matching` = "lenient"; re-scored with the run\'s "exact"'
    assert warning in captured.err and warning in captured.out
    assert f"| accuracy | none | {EXACT!r} | {EXACT!r} | 0 |" in captured.out


@pytest.mark.parametrize(
    "old, new, message",
    [
        ("  matching: exact\n", "  matching: exact\n  casefold: true\n", "its YAML now has setting(s) ['casefold'], which the run did not record; give the run's value with --set casefold=VALUE"),
        ("  matching: exact\n", "  matches: exact\n", "the run's setting(s) ['matching'] are not in its YAML now"),
        ('prefix: "Answer yes or no. "', 'prefix: "Yes or no? "', "its per-model settings (lmms_eval_specific_kwargs) for model 'scripted' are now"),
    ],
)
def test_settings_that_cannot_be_matched_with_the_run_s_are_refused(probe_run, capsys, old, new, message):
    folder, out = probe_run
    with edited(folder / "rescore_probe.yaml", old, new), pytest.raises(SystemExit):
        main_rescore([str(out), "--tasks", "rescore_probe"])
    assert message in capsys.readouterr().err


def test_set_gives_a_setting_the_run_did_not_record(probe_run):
    folder, out = probe_run
    new_keyword = 'matching: str = "exact", casefold: bool = False'
    with edited(folder / "rescore_probe.yaml", "  matching: exact\n", "  matching: exact\n  casefold: true\n"), edited(folder / "utils.py", 'matching: str = "exact"', new_keyword):
        done = rescore(find_runs(out), ["rescore_probe"], {"casefold": True})
    assert _accuracy(done) == {"rescore_probe": EXACT}
    assert done[0].tasks[0].settings.effective == {"version": 1.0, "matching": "exact", "casefold": True}
