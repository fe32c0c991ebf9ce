"""``temporal-bench rescore`` (temporal_bench/rescore/) evaluating recorded runs again through the real harness with the
replay model (tests/recorded/rescore.py: one lmms-eval run of TempVS, CaT-Bench with self-consistency and ISO-Bench, one
lm-eval run of CaT-Bench, a scripted model mixing right, wrong, unparseable and think-tagged answers).

The default re-score gives every metric of the run exactly. Each setting ``--set`` can change gives, value for value
(headline metrics and the report's breakdowns), what a fresh run of the same answers made with that setting gives:
TempVS's parser fix (also against a by-hand count of the script), CaT-Bench's close/distant threshold (in lmms-eval and
lm-eval), a subset of TempVS's sources (the docs numbered otherwise); the probe task folder's setting
(tests/rescore_support/probe/). A setting that changes what the model is asked is refused, a value the task refuses is
named, not the data. Re-scoring under the run's recorded settings when the YAML changed since: re-scored as recorded,
with a warning. The re-scored run is a run folder like any other: check passes it and the report labels it."""

import shutil
from pathlib import Path

import pytest

from temporal_bench.lmms_eval_tasks.plugin.tempvs.utils import process_results
from temporal_bench.lmms_eval_tasks.tempvs.spec import MAIN_TESTS, SOURCES, TEST_NAMES, doc_key
from temporal_bench.runs.logged import find_runs
from temporal_bench.runs.records import doc_record
from temporal_bench.tempvs.breakdowns import DISTANCES, PAIRED_TYPES, breakdown_metrics
from temporal_bench.tempvs.record_reader import TempVSRecords
from tests.cli import temporal_bench
from tests.harness import BIN, run_cli
from tests.recorded.rescore import LM_EVAL_TASKS, LMMS_TASKS, RIGHT, UNPARSED, tempvs_case
from tests.task_docs import task_docs

TEMPVS_HEADLINE = ["gt_acc", "gtstrict_rate", "mt_acc", "mt_given_gtstrict"]  # tempvs_mt1_two's metric_list
# gold: yes yes no no no no; exact matching counts doc 0 only, lenient (lower-cased) docs 0, 1, 2 and 4
EXACT, LENIENT = 1 / 6, 4 / 6


def rescore(run, *arguments, output: Path):
    """``temporal-bench rescore`` of the recorded run ``run`` into ``output``, in its own process, its data in the environment."""
    return run_cli([str(BIN / "temporal-bench"), "rescore", str(run.out), *map(str, arguments), "--output-dir", str(output)], run.work, run.env)


class Folder:
    """The runs in a folder (lm-eval writes one results file per group of tasks of the same settings), by task."""

    def __init__(self, folder: Path):
        self.runs = find_runs(folder)
        self.of = {task: run for run in self.runs for task in run.tasks}

    def lines(self, task: str) -> list:
        return self.of[task].lines(task)

    def settings(self, task: str) -> dict:
        return self.of[task].recorded_settings(task)

    def values(self, task: str) -> dict:
        """Every metric of ``task``: its results' (no standard errors) and the report's breakdowns."""
        logged = self.of[task]
        entry = {k.partition(",")[0]: v for k, v in logged.data["results"][task].items() if "," in k and "_stderr" not in k}
        return {**logged.breakdowns(task), **entry}


def test_default_rescore_reproduces_every_metric_of_an_lmms_eval_run(recorded, tmp_path):
    run = recorded("rescore_lmms")
    log = rescore(run, "--format", "csv", output=tmp_path / "again")
    assert log.returncode == 0, log.stderr
    rows = [line.split(",") for line in log.stdout.splitlines()[1:]]
    assert rows and {row[2] for row in rows} == set(LMMS_TASKS)
    assert [row for row in rows if row[-1] == "1"] == []  # nothing changed: every metric and breakdown equal
    source, again = Folder(run.out), Folder(tmp_path / "again")
    for task in LMMS_TASKS:
        assert again.values(task) == source.values(task), task
        assert [line["filtered_resps"] for line in again.lines(task)] == [line["filtered_resps"] for line in source.lines(task)], task
    assert {key.partition(",")[2] for key in again.of["catbench_sc"].data["results"]["catbench_sc"] if "," in key} == {"majority_vote"}
    assert len(again.lines("catbench_sc")) == 48 and len(again.lines("tempvs_mt1_two")) == 152
    # lmms-eval stripped the think blocks (its samples then keep the unstripped text): the replayed answers hold them
    assert any("resps" in line for line in source.lines("catbench_switched")) and any("resps" in line for line in again.lines("isobench_cot"))
    # check says of the re-scored run what it says of the run (answers that are only a think block bring no response)
    checked, source_checked = temporal_bench("check", tmp_path / "again", cwd=tmp_path), temporal_bench("check", run.out, cwd=tmp_path)
    assert checked.returncode == source_checked.returncode == 1
    (again_run,), (source_run,) = again.runs, source.runs
    assert checked.stderr.replace(again_run.results_path.as_posix(), "RUN") == source_checked.stderr.replace(source_run.results_path.as_posix(), "RUN")


def test_default_rescore_reproduces_an_lm_eval_run_voting_the_raw_samples_again(recorded, tmp_path):
    run = recorded("rescore_lm_eval")
    log = rescore(run, output=tmp_path / "again")
    assert log.returncode == 0, log.stderr
    source, again = Folder(run.out), Folder(tmp_path / "again")
    for task in LM_EVAL_TASKS:
        assert again.values(task) == source.values(task), task
    assert {len(line["resps"][0]) for line in again.lines("catbench_sc")} == {3}  # lm-eval logs the raw samples, voted again
    assert {logged.harness.name for logged in again.runs} == {"lm-eval"} and "metrics equal the original run's" in log.stdout


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

    found = {
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
        found[f"gt_{source}"] = share([d for d in grounding if d["source"] == source])
        found[f"mt_{source}"] = share(main_of)
        found[f"gtstrict_{source}"] = share(main_of, lambda d: strict[d["doc_key"]])
        found[f"mtgts_{source}"] = share(passed(main_of))
    for kind in PAIRED_TYPES:
        for polarity, suffix in (("pos", "_gt"), ("neg", "_nc")):
            found[f"two_{kind}_{polarity}"] = share([d for d in mains if d["statement_type"] == kind + suffix])
    for distance in DISTANCES:
        found[f"dist{distance}"] = share([d for d in mains if d["event_distance"] == distance])
    grounded = [d for d in mains if any(grounding_right[d["doc_key"]])]  # at least one of the two events grounded
    found.update(mt_given_gt_atleast1=share(grounded), gt_atleast1_count=len(grounded))
    return found


def test_tempvs_fixes_and_catbench_s_threshold_give_what_a_fresh_run_with_them_gives(recorded, tmp_path):
    run, fresh = recorded("rescore_lmms"), Folder(recorded("rescore_fresh_settings").out)
    log = rescore(run, "--tasks", "tempvs_mt1_two,catbench_switched", "--set", "fixes=[extraction]", "--set", "close_max_distance=1", output=tmp_path / "fixed")
    assert log.returncode == 0, log.stderr
    source, again = Folder(run.out), Folder(tmp_path / "fixed")
    for task in ("tempvs_mt1_two", "catbench_switched"):
        assert again.values(task) == fresh.values(task), task
        assert again.settings(task) == fresh.settings(task), task
    # close = distance <= 1 moves questions from close to distant: only the close/distant breakdowns change
    changed = {k for k, v in again.values("catbench_switched").items() if v != source.values("catbench_switched")[k]}
    assert changed and all("close" in k or "distant" in k for k in changed), changed
    # TempVS: the run's logged records give the by-hand count of the official parser, the re-scored run's the fixed one
    docs = task_docs("tempvs_mt1_two", run.env["TEMPVS_DATA_DIR"])
    faithful = expected_tempvs(docs, [tempvs_case(d)[1] for d in docs])
    fixed = expected_tempvs(docs, [tempvs_case(d)[2] for d in docs])
    assert 0 < faithful["mt_acc"] < fixed["mt_acc"] < 1 and 0 < faithful["gtstrict_rate"] < fixed["gtstrict_rate"] < 1
    assert breakdown_metrics("tempvs_mt1_two", source.of["tempvs_mt1_two"].records("tempvs_mt1_two")) == faithful
    assert {k: v for k, v in again.values("tempvs_mt1_two").items() if k in fixed} == fixed and set(TEMPVS_HEADLINE) < set(fixed)
    refixed = [{**TempVSRecords().normalise(doc_record(process_results({**d, "fixes": ["extraction"]}, [tempvs_case(d)[0]])), {}, {"model": "scripted"}), "failed": False} for d in docs]
    assert breakdown_metrics("tempvs_mt1_two", refixed) == fixed
    # the table says what changed
    text = log.stdout
    assert 'tempvs_mt1_two: `fixes` = ["extraction"] (--set; the run had []' in text and "| mt_acc | none |" in text
    assert "catbench_switched: `close_max_distance` = 1 (--set; the run had 3)" in text
    assert f"per-doc values changed: {sum(c[1] != c[2] for c in map(tempvs_case, docs))}." in text
    breakdowns = sorted(n for n in faithful if faithful[n] != fixed[n] and n not in TEMPVS_HEADLINE)
    assert breakdowns and all(f"| {name} | none |" in text for name in breakdowns)
    # a run folder like any other, which check passes, labelled as the re-score of its source
    checked = temporal_bench("check", tmp_path / "fixed", cwd=tmp_path)
    assert checked.returncode == 0 and checked.stdout.splitlines()[-1].startswith("check: OK: 1 run(s), 2 task(s), "), checked.stdout + checked.stderr
    reported = temporal_bench("report", tmp_path / "fixed", run.out, "--table", "catbench-table1", cwd=tmp_path)
    label = f"{Folder(run.out).runs[0].model} (policy=script,script={run.work / 'scripts' / 'answers.json'}), rescored with close_max_distance=1, fixes=[\"extraction\"]"
    assert f"| **{label}** (synthetic data) | A | measured |" in reported.stdout, reported.stdout + reported.stderr


def test_a_subset_of_tempvs_sources_gives_what_a_fresh_run_on_it_gives(recorded, tmp_path):
    run, fresh = recorded("rescore_lmms"), Folder(recorded("rescore_fresh_sources").out)
    log = rescore(run, "--tasks", "tempvs_mt1_two", "--set", "sources=[pororo]", output=tmp_path / "pororo")
    assert log.returncode == 0, log.stderr
    again = Folder(tmp_path / "pororo")
    assert again.values("tempvs_mt1_two") == fresh.values("tempvs_mt1_two")
    assert len(again.lines("tempvs_mt1_two")) < len(Folder(run.out).lines("tempvs_mt1_two"))


def test_catbench_s_threshold_in_lm_eval_gives_what_a_fresh_run_with_it_gives(recorded, tmp_path):
    run, fresh = recorded("rescore_lm_eval"), Folder(recorded("rescore_fresh_lm_eval_close1").out)
    log = rescore(run, "--tasks", "catbench_switched", "--set", "close_max_distance=1", output=tmp_path / "close1")
    assert log.returncode == 0, log.stderr
    assert Folder(tmp_path / "close1").values("catbench_switched") == fresh.values("catbench_switched")


@pytest.mark.parametrize(
    "setting, blamed",
    [
        ("mode=cot", "no logged request of the task asks its prompt"),  # another question: no answer to replay
        ("fixes=nonsense", "nonsense"),  # the task's own settings check
    ],
)
def test_a_setting_the_answers_cannot_score_is_named_not_the_data(recorded, tmp_path, setting, blamed):
    run = recorded("rescore_lmms")
    log = rescore(run, "--tasks", "tempvs_mt1_two", "--set", setting, output=tmp_path / "refused")
    assert log.returncode == 2, log.stdout
    assert f"--set {setting}: the tasks cannot be evaluated with it (" in log.stderr and blamed in log.stderr, log.stderr
    assert log.stderr.rstrip().endswith("with the run's own settings they can (see temporal-bench rescore --help)"), log.stderr


# ---- task settings: the probe task folder ----------------------------------------------------------


def _accuracy(output: Path) -> dict:
    found = Folder(output)
    return {task: logged.data["results"][task]["accuracy,none"] for task, logged in found.of.items()}


def test_set_overrides_the_recorded_setting_of_the_tasks_that_have_it(recorded, tmp_path):
    run = recorded("rescore_probe")
    log = rescore(run, "--set", "matching=lenient", output=tmp_path / "lenient")
    assert log.returncode == 0, log.stderr
    assert _accuracy(tmp_path / "lenient") == {"rescore_probe": LENIENT, "rescore_probe_lenient": LENIENT}
    assert 'rescore_probe: `matching` = "lenient" (--set; the run had "exact")' in log.stdout
    assert f"| accuracy | none | {EXACT!r} | {LENIENT!r} |" in log.stdout
    assert Folder(tmp_path / "lenient").settings("rescore_probe") == {"version": 1.0, "matching": "lenient"}


def edit(folder: Path, name: str, old: str, new: str) -> None:
    path = folder / name
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


@pytest.mark.parametrize(
    "name, old, new, warning",
    [
        ("rescore_probe.yaml", "matching: exact", "matching: lenient", 'rescore_probe: warning: its YAML now sets `matching` = "lenient"; re-scored with the run\'s "exact"'),
        ("rescore_probe.yaml", 'prefix: "Answer yes or no. "', 'prefix: "Yes or no? "', "rescore_probe: warning: its YAML now gives model 'scripted' the per-model settings"),
    ],
)
def test_a_setting_the_yaml_now_gives_otherwise_is_rescored_as_recorded_with_a_warning(tmp_path, name, old, new, warning):
    from tests.recorded import materialize

    run = materialize("rescore_probe", tmp_path / "probe")  # a copy of the task folder of its own, edited
    edit(Path(run.env["PROBE_TASKS_DATA_DIR"]), name, old, new)
    log = rescore(run, "--tasks", "rescore_probe", output=tmp_path / "as_run")
    assert log.returncode == 0, log.stderr
    assert warning in log.stderr and warning in log.stdout
    assert f"| accuracy | none | {EXACT!r} | {EXACT!r} | 0 |" in log.stdout


def test_set_gives_a_setting_the_run_did_not_record(tmp_path):
    from tests.recorded import materialize

    run = materialize("rescore_probe", tmp_path / "probe")
    folder = Path(run.env["PROBE_TASKS_DATA_DIR"])
    edit(folder, "rescore_probe.yaml", "  matching: exact\n", "  matching: exact\n  casefold: true\n")
    edit(folder, "utils.py", 'matching: str = "exact"', 'matching: str = "exact", casefold: bool = False')
    log = rescore(run, "--tasks", "rescore_probe", "--set", "casefold=true", output=tmp_path / "casefold")
    assert log.returncode == 0, log.stderr
    assert _accuracy(tmp_path / "casefold") == {"rescore_probe": EXACT}
    assert Folder(tmp_path / "casefold").settings("rescore_probe") == {"version": 1.0, "matching": "exact", "casefold": True}


def test_other_data_than_the_run_s_is_refused_and_leaves_no_results(tmp_path):
    from tests.recorded import materialize

    run = materialize("rescore_probe", tmp_path / "probe")
    edit(Path(run.env["PROBE_TASKS_DATA_DIR"]), "questions.jsonl", '"Is fire cold?", "answer": "no"', '"Is fire cold?", "answer": "yes"')
    log = rescore(run, "--tasks", "rescore_probe", output=tmp_path / "other")
    assert log.returncode == 2
    assert "task 'rescore_probe': doc 2 is not the run's (logged target 'no', now 'yes'); re-scoring loads the task's docs again" in log.stderr, log.stderr
    assert not list((tmp_path / "other").rglob("*_results.json"))


def test_the_data_comes_from_the_release_above_the_images_and_the_option_is_named_when_it_moved(tmp_path):
    """No data variable: the release folder above the images the run read; moved away, the option that names it."""
    from tests.recorded import materialize

    run = materialize("data_identity_logged", tmp_path / "run")
    data = run.env["TEMPVS_DATA_DIR"]
    command = [str(BIN / "temporal-bench"), "rescore", str(run.out), "--tasks", "tempvs_mt1_two"]
    log = run_cli([*command, "--output-dir", str(tmp_path / "found")], tmp_path, {})
    assert log.returncode == 0 and "All 4 metrics equal the original run's." in log.stdout, log.stderr
    assert f"temporal-bench rescore: data: TEMPVS_DATA_DIR={data} (the folder of the images the run read)" in log.stderr.splitlines()
    moved = shutil.move(data, tmp_path / "moved")
    log = run_cli([*command, "--output-dir", str(tmp_path / "lost")], tmp_path, {}, again=True)  # the same command, the data moved
    assert log.returncode == 2 and "give the run's folder with --data TEMPVS_DATA_DIR=FOLDER" in log.stderr, log.stderr
    log = run_cli([*command, f"--data=TEMPVS_DATA_DIR={moved}", "--output-dir", str(tmp_path / "given")], tmp_path, {})
    assert log.returncode == 0 and f"temporal-bench rescore: data: TEMPVS_DATA_DIR={moved} (given with --data)" in log.stderr.splitlines(), log.stderr
