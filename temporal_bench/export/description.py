"""The pull request's description, in the headings of lmms-eval's ``.github/pull_request_template.md`` (Summary, In
scope, Out of scope, Validation, Risk / Compatibility, Type of Change), for one benchmark's folder.

Validation holds the checks ``--check`` ran (the commands a reviewer reruns), the ``--limit 8`` smoke table with
one sample output, and the numbers of the run folders the contributor passes (``--validation``) next to the papers'
rows, read (never written) with the report's public functions.
"""

from pathlib import Path
from typing import List, Sequence

from temporal_bench import benchmarks
from temporal_bench.export.facts import facts_of, paper_reference
from temporal_bench.export.pull_request import LIMIT, RUN_MODEL, Step, tasks_of
from temporal_bench.export.requirements import requirements_of
from temporal_bench.export.task_folder import SHARED_FOLDER, UPSTREAM_TASKS_DIR, UPSTREAM_TESTS_DIR, ExportedFolder, source_folder
from temporal_bench.export.task_yaml import read_folder
from temporal_bench.report.layouts import LAYOUTS
from temporal_bench.report.render import layouts_for, verdict_summary
from temporal_bench.runs.results import load_runs

COMMANDS = {
    "lint": "pre-commit run --files {files}",
    "imports": "python -c 'import lmms_eval.tasks.{benchmark}.utils'  # offline, no data",
    "task manager": "python -m lmms_eval --tasks list",
    "tests": "python -m pytest {tests}",
    "run": "python -m lmms_eval --model " + RUN_MODEL + " --tasks {tasks} --limit " + str(LIMIT) + " --log_samples --output_path ./logs/",
}


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _summary(folder: ExportedFolder) -> List[str]:
    benchmark, facts = benchmarks.get(folder.benchmark), facts_of(benchmarks.get(folder.benchmark))
    files = read_folder(folder.path)
    groups = sum(f.is_group for f in files)
    reference, arxiv = paper_reference(benchmark)
    built = f", built from the official release by the folder's converter (`{facts.build_command}`)" if facts.build_command else " (the official release, read as it is)"
    return [
        f"- Add {benchmark.title} ({reference}"
        + (f", arXiv:{arxiv}" if arxiv else "")
        + f") as `{(UPSTREAM_TASKS_DIR / folder.benchmark).as_posix()}/`: {_count(len(files) - groups, 'task')}"
        + (f" and {_count(groups, 'group')}" if groups else "")
        + ".",
        f"- {facts.summary}",
        f"- Data: `{facts.hub_dataset}`{built}.",
    ]


def _in_scope(folder: ExportedFolder) -> List[str]:
    lines = [f"- `{folder.benchmark}/{task.path.name}`: `{task.name}`" + (f", {task.comment}" if task.comment else "") for task in read_folder(folder.path)]
    lines.append(f"- `{(UPSTREAM_TASKS_DIR / SHARED_FOLDER).as_posix()}/`: {', '.join(f'`{name}`' for name in folder.shared)} (helpers the temporal-reasoning folders share)")
    return lines + [f"- `{(UPSTREAM_TESTS_DIR / name).as_posix()}`" for name in folder.tests]


def _out_of_scope(folder: ExportedFolder) -> List[str]:
    variants = source_folder(folder.benchmark).parent / f"{folder.benchmark}_variants"
    kept = sorted(task.name for task in read_folder(variants)) if variants.is_dir() else []
    lines = [f"- The variants beyond the paper's headline settings stay in the `lmms-eval-temporal-bench` package: {', '.join(f'`{t}`' for t in kept)}."] if kept else []
    return lines


def _smoke(step: Step) -> List[str]:
    if not step.smoke:
        return []
    lines = ["", f'`--limit {LIMIT}` with lmms-eval\'s `{RUN_MODEL}` model (it answers "A", so the scores are a smoke test, not a baseline):', "", "| task | metrics |", "|---|---|"]
    lines += [f"| `{row['task']}` | " + ", ".join(f"{key} {value:.3g}" for key, value in row["metrics"].items()) + " |" for row in step.smoke]
    first = step.smoke[0]
    return lines + ["", f"Sample output (`{first['task']}`, the end of the first prompt, then the answer):", "", "```", first["input"], "---", str(first["output"]), "```"]


def _validation(folder: ExportedFolder, steps: Sequence[Step]) -> List[str]:
    tests = " ".join((UPSTREAM_TESTS_DIR / name).as_posix() for name in folder.tests)
    files = f"{(UPSTREAM_TASKS_DIR / folder.benchmark).as_posix()}/*.py {(UPSTREAM_TASKS_DIR / SHARED_FOLDER).as_posix()}/*.py {tests}"
    values = {"files": files, "benchmark": folder.benchmark, "tests": tests, "tasks": ",".join(tasks_of(folder))}
    lines = []
    for step in steps:
        lines.append(f"- `{COMMANDS[step.name].format(**values)}` | result: {'pass' if step.passed else 'fail'} | {step.detail}")
        if step.name == "run":
            lines += _smoke(step)
    return lines


def validation_lines(run_dir: Path) -> List[str]:
    """What a run folder shows against the papers: each run's model and task count, then the verdict on each
    table with a published row of that model (or that no table has one)."""
    try:
        runs = load_runs([run_dir])
    except (FileNotFoundError, ValueError) as error:
        return [f"- `{run_dir}`: {error}"]
    if not runs:
        return [f"- `{run_dir}`: no results files found"]
    lines = [f"- `{run_dir}`: " + "; ".join(f"**{run.label}** ({len(run.tasks)} tasks)" for run in runs)]
    summary = verdict_summary(runs, layouts_for(runs, LAYOUTS.values())).strip().splitlines()[2:]
    return lines + ([f"  {line}" for line in summary] if summary else ["  no published row of this model in the papers' tables: no verdict"])


def _risk(folder: ExportedFolder) -> List[str]:
    python = {name: text for name, text in {**folder.files, **folder.shared}.items() if name.endswith(".py")}
    extra = requirements_of(python)
    lines = [f"- New dependency `{r.distribution}` (imported as `{r.module}` by {', '.join(f'`{f}`' for f in r.files)}" + (", only where it is used" if r.when_used else "") + ")." for r in extra]
    return (lines or ["- No new dependency: the folder imports only lmms-eval's own requirements."]) + [
        "- Aggregations are named by module path (`!function lmms_eval.tasks.<name>.metrics.<function>`), which lmms-eval resolves since 0.7.3.",
        "- Nothing outside the new folders changes.",
    ]


def pull_request_text(folder: ExportedFolder, steps: Sequence[Step], validations: Sequence[Path]) -> str:
    lines = ["## Summary", "", *_summary(folder), "", "## In scope", "", *_in_scope(folder), "", "## Out of scope", "", *(_out_of_scope(folder) or ["- Nothing."])]
    lines += ["", "## Validation", "", *_validation(folder, steps), "", "Numbers of validation runs next to the papers' rows:", ""]
    lines += [line for run_dir in validations for line in validation_lines(run_dir)] or ["- none given (`temporal-bench export --check --validation RUN_DIR`)"]
    lines += ["", "## Risk / Compatibility", "", *_risk(folder), "", "## Type of Change", "", "- [x] New benchmark/task"]
    return "\n".join(lines) + "\n"
