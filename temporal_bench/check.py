"""``temporal-bench check RUN_DIR...``: an exit status a script or CI job can trust after an evaluation.

lmms-eval exits 0 on an unknown task, an unknown model or a run whose every request failed, so the
status says nothing. This command reads what the run wrote (temporal_bench/runs/data_read.py: the samples'
responses, questions and images) and exits 1, naming each problem, when a folder holds no results file, an
expected task (``--tasks``; by default the ``--tasks`` the lmms-eval run recorded in
``config.resolved_cli_args``) has no results, a run was made without ``--log_samples`` (nothing shows its
requests and data), requests failed, every answer of a task is unparseable, the run is partial
(``config.limit``), a task read data whose counts differ from the release's (``--allow-subset`` accepts a
deliberate subset), a samples file belongs to no results file, or a task lacks its samples file. It names the data
each task read; with no problem it prints one summary line and exits 0 (docs/harness.md "Checking a run").
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from temporal_bench.backend_settings import model_argument_problems, run_protocol_warnings
from temporal_bench.cli_style import command_parser, progress
from temporal_bench.manifest import manifests
from temporal_bench.protocol_gaps import task_gaps
from temporal_bench.runs.data_read import DataRead, count_difference
from temporal_bench.runs.limits import partial_limit
from temporal_bench.runs.lines import logged_prompt, request_failed
from temporal_bench.runs.logged import LoggedRun, RunReadError, find_runs, model_runs
from temporal_bench.runs.record_reader import reader_of
from temporal_bench.runs.results import merge_runs, run_label

SAMPLES_GLOBS = ("*_samples_*.jsonl", "samples_*.jsonl")  # lmms-eval's and lm-eval's names


def task_names(text: str) -> list[str]:
    return [name.strip() for name in text.split(",") if name.strip()]


def recorded_tasks(run: LoggedRun) -> list[str]:
    """The task and group names the run was asked for (lmms-eval's ``--tasks``; lm-eval records none)."""
    tasks = (run.cli_args or {}).get("tasks")
    return task_names(tasks) if isinstance(tasks, str) else []


def evaluated(run: LoggedRun) -> set[str]:
    """The task and group names a run has results for."""
    return set(run.data["results"]) | set(run.data.get("group_subtasks") or {})


def failed_prompts(run: LoggedRun, task: str) -> set[str]:
    """The prompts of ``task``'s requests that failed or brought no response in ``run``."""
    return {logged_prompt(line) for line in run.lines(task) if request_failed(line)} if run.has_samples(task) else set()


def failure_problem(run: LoggedRun, task: str, read: DataRead, earlier: Sequence[LoggedRun]) -> str:
    """The failed requests of one task: persistent where the same prompts failed in an ``earlier`` run the run
    superseded (another re-run will not cure them), else how to re-run only them."""
    where = run.results_path.as_posix()
    failed = failed_prompts(run, task)
    before = next((other for other in reversed(earlier) if failed & failed_prompts(other, task)), None)
    if before is not None:
        return (
            f"{where}: {task}: {read.failed} of {read.questions} request(s) failed or brought no response, {len(failed & failed_prompts(before, task))} of them with the same prompts as in the "
            f"run it superseded ({before.results_path.as_posix()}): a persistent failure, which another re-run will not cure (the server refuses these prompts?). See them with "
            f"`temporal-bench browse {run.results_path.parent.as_posix()} --tasks {task}` (filter: request failed) and report them with the run; evaluating without them is a variant "
            "of the task that leaves them out, whose settings the results then record (docs/harness.md#variants-of-your-own), never a run that drops them silently"
        )
    cache = (run.cli_args or {}).get("use_cache")
    rerun = f"`temporal-bench forget-failed {cache}`, then the same command sends only the failed requests" if cache else "run again with --use_cache DIR to keep the answered requests for the next re-run"
    return f"{where}: {task}: {read.failed} of {read.questions} request(s) failed or brought no response (scored as the task's parser read them: not the model's answers); {rerun} (docs/backends.md)"


def task_problems(run: LoggedRun, task: str, read: DataRead, allow_subset: bool, earlier: Sequence[LoggedRun] = ()) -> list[str]:
    """What is wrong with one task of a run: failed requests (:func:`failure_problem`), answers none of which parses,
    data counts other than the release's (unless ``allow_subset``)."""
    where = run.results_path.as_posix()
    problems = [failure_problem(run, task, read, earlier)] if read.failed else []
    if read.unparseable:
        problems.append(
            f"{where}: {task}: none of its {read.answered} answers could be parsed: the model's output does not fit the prompt's answer format (a wrong model class, chat template or decoding setting?), so its scores say nothing"
        )
    difference = count_difference(task, read, run.task_config(task))
    if difference and not allow_subset and not partial_limit(run.data, task):
        problems.append(f"{where}: {task}: {difference} (a partial or other copy of the data: its scores are not the benchmark's; --allow-subset accepts a deliberate subset)")
    return problems


def run_problems(run: LoggedRun, tasks: Sequence[str], allow_subset: bool = False, earlier: dict[str, list[LoggedRun]] | None = None) -> list[str]:
    """What is wrong with one results file's ``tasks`` (a partial run, no samples, the model arguments its class does
    not take, its tasks' problems; ``earlier``: task -> the runs it superseded)."""
    where = run.results_path.as_posix()
    problems = []
    limits = {task: limit for task in tasks if (limit := partial_limit(run.data, task))}
    if limits:
        problems.append(f"{where}: partial run ({next(iter(limits.values())).flags}): its scores are not the benchmark's")
    problems += [f"{where}: {problem}" for problem in model_argument_problems(run.data)]
    for task in tasks:
        read = run.data_read(task)
        if read is None:
            problems.append(f"{where}: {task}: no samples file {run.samples[task].name}: run with --log_samples, which check reads for failed requests and the data each task read")
            continue
        problems += task_problems(run, task, read, allow_subset, (earlier or {}).get(task, []))
        note = reader_of(task).limited_note(run.records(task), run.task_config(task)) if task in limits else None
        if note:
            problems.append(f"{where}: {task}: {note}")
    return problems


def superseded(runs: Sequence[LoggedRun]) -> tuple[dict[Path, list[str]], dict[Path, dict[str, list[LoggedRun]]]]:
    """Per results file, the tasks (as logged) it holds that no newer run of the same model supersedes: a newer run
    of the same task (a full run before a partial one), e.g. the re-run after ``forget-failed``; a file with none is
    superseded as a whole (temporal_bench/runs/results.py). And per results file, task -> the runs of it that it
    supersedes, oldest first."""
    merged = merge_runs(runs)
    shown = {logged.results_path: run.shown_tasks(logged) for run in merged for logged in run.logged}
    earlier: dict[Path, dict[str, list[LoggedRun]]] = {}
    for run in merged:
        for pairs in run.superseded.values():
            newer_of = {id(old): newer for old, newer in pairs}
            for old, newer in pairs:  # oldest first; each to the run that supersedes it at the end of the chain
                while id(newer) in newer_of:
                    newer = newer_of[id(newer)]
                if old.logged_as == newer.logged_as and old.logged not in (tasks := earlier.setdefault(newer.path, {}).setdefault(newer.logged_as, [])):
                    tasks.append(old.logged)
    return shown, earlier


def folder_problems(folder: Path, expected: list[str] | None, allow_subset: bool = False) -> tuple[list[LoggedRun], list[str], list[Path]]:
    """The evaluation runs under ``folder`` that no newer run supersedes, what is wrong with them (``expected``: the
    task names every run of the folder together must have; None: each run's recorded ``--tasks``; ``allow_subset``:
    data counts other than the release's are no problem), and the results files superseded."""
    if not folder.exists():
        return [], [f"{folder}: no such file or folder: {nothing_written()}"], []
    try:
        found = find_runs(folder)
    except RunReadError as exc:
        return [], [str(exc)], []
    runs = model_runs(found)
    problems = [] if runs else [f"{folder}: no lmms-eval or lm-eval results file (the evaluation failed or wrote elsewhere): {nothing_written()}"]
    have = set().union(*(evaluated(run) for run in runs)) if runs else set()
    wanted = expected if expected is not None else [task for run in runs for task in recorded_tasks(run)]
    missing = [task for task in dict.fromkeys(wanted) if task not in have]
    if missing and runs:
        problems.append(f"{folder}: no results for task(s) {', '.join(missing)}")
    shown, earlier = superseded(runs)
    for run in (run for run in runs if shown[run.results_path]):
        problems += run_problems(run, shown[run.results_path], allow_subset, earlier.get(run.results_path))
    if folder.is_dir():
        known = {path.resolve() for run in found for path in run.samples.values()}
        for path in sorted({p for pattern in SAMPLES_GLOBS for p in folder.rglob(pattern)}):
            if path.resolve() not in known:
                problems.append(f"{path.as_posix()}: a samples file without its results file (the run stopped before writing it?)")
    return [run for run in runs if shown[run.results_path]], problems, [run.results_path for run in runs if not shown[run.results_path]]


def nothing_written() -> str:
    """Why lmms-eval (or lm-eval) may have written no results, and the fix of each; a folder of the working folder named
    like a benchmark first, where there is one."""
    shadowing = [name for name in manifests() if Path(name).is_dir() and not Path(name, f"{name}.yaml").is_file()]  # the repository root's hold the task's YAML
    causes = [
        *(f"the working folder holds a folder named like the task ./{name}, which lmms-eval reads as a folder of task YAMLs instead of the task: run it from another folder (or rename ./{name})" for name in shadowing),
        "a task name lmms-eval does not know (a typo: `lmms-eval --tasks list` lists them; this package's begin with " + ", ".join(f"{name}_" for name in manifests()) + ")",
        "a --model_args key the model class refuses (this package's baselines stop naming it; lmms-eval's own classes may fail at loading)",
        "another --output_path than this folder",
    ]
    return "lmms-eval stops before writing anything on " + "; ".join(causes) + ". The end of its own output names the reason"


def summary(runs: Sequence[LoggedRun], allow_subset: bool = False) -> str:
    tasks = sorted({task for run in runs for task in run.samples})
    questions = sum(int(counts.get("effective", 0)) for run in runs for counts in (run.data.get("n-samples") or {}).values())
    subsets = [f"{task}: {difference}" for run in runs for task in sorted(run.samples) if (read := run.data_read(task)) and (difference := count_difference(task, read, run.task_config(task)))]
    accepted = f"; on a subset of the data (--allow-subset): {'; '.join(subsets)}" if subsets else ""
    return f"check: OK: {len(runs)} run(s), {len(tasks)} task(s), {questions:,} question(s), complete (no --limit), no failed requests{accepted}"


def protocol_gap_warnings(run: LoggedRun) -> list[str]:
    """The known protocol gaps of the run's model class for its model (temporal_bench/protocol_gaps.py)."""
    model_class = str((run.data.get("config") or {}).get("model") or "")
    label = run_label(run.data, run.results_path)
    return [f"{label} ({model_class}): known protocol gap of {gap}" for gap in task_gaps(run.tasks, label, [model_class])]


def data_lines(runs: Sequence[LoggedRun]) -> list[str]:
    """One line per task: the data it read (temporal_bench/runs/data_read.py)."""
    return [f"check: {task}: {read.describe()}" for run in runs for task in sorted(run.samples) if (read := run.data_read(task)) is not None]


def main_check(argv: Sequence[str] | None = None) -> int:
    parser = command_parser(
        "check",
        ["temporal-bench check out/ --tasks tempvs,catbench"],
        "A folder with no results file is a problem too; with no problem, it prints one summary line and exits 0. Put it after lmms-eval / lm-eval in scripts: they exit 0 even when requests failed.",
    )
    parser.add_argument("runs", type=Path, nargs="+", metavar="RUN_DIR", help="an --output_path folder (or one results JSON)")
    parser.add_argument("--tasks", type=task_names, help="comma-separated task or group names each RUN_DIR must have results for (default: the --tasks each lmms-eval run recorded; lm-eval runs record none)")
    parser.add_argument("--allow-subset", action="store_true", help="accept tasks whose data counts differ from the release's, a deliberate subset (named in the summary line; default: a problem naming the expected and found counts)")
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    runs, problems, set_aside = [], [], []
    for folder in args.runs:
        progress("check", f"reading {folder}: its runs, the data each task read, its requests")
        found, wrong, superseded_files = folder_problems(folder, args.tasks, args.allow_subset)
        runs += found
        problems += wrong
        set_aside += superseded_files
    for warning in dict.fromkeys(w for run in runs for w in [*run_protocol_warnings(run.data), *protocol_gap_warnings(run)]):
        print(f"check: warning: {warning}", file=sys.stderr)
    for path in set_aside:
        print(f"check: {path.as_posix()}: superseded by a newer run of the same model and tasks (e.g. the re-run after forget-failed): left out")
    for line in data_lines(runs):
        print(line)
    if problems:
        print(f"check: {len(problems)} problem(s):", *(f"- {problem}" for problem in problems), sep="\n", file=sys.stderr)
        return 1
    print(summary(runs))
    return 0


if __name__ == "__main__":
    raise SystemExit(main_check())
