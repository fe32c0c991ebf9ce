"""The pull request's description, in lmms-eval's ``.github/pull_request_template.md`` as it is (Summary of at most 3
bullets, In scope, Out of scope, Validation of at most 3 bullets ``<command> | sample size: N=... | key metrics: ... |
result: pass/fail``, Risk / Compatibility of 1-2 bullets, Type of Change with its boxes), for one benchmark's folder.

Validation gives the checks ``--check`` ran, with the commands it ran (the lint, the load and the tests, the
``--limit 8`` run), the smoke table with one sample output and the data it was on (synthetic or the converted release),
then the numbers of the run folders the contributor passes (``--validation``) next to the papers' rows, read (never
written) with the report's public functions. The summary says who must host the dataset, from which converter; Risk
says what was not validated.
"""

import shlex
from collections.abc import Sequence
from pathlib import Path

from temporal_bench import benchmarks
from temporal_bench.export.facts import facts_of, paper_reference
from temporal_bench.export.pull_request import LIMIT, RUN_MODEL, Step, tasks_of
from temporal_bench.export.requirements import requirements_of
from temporal_bench.export.task_folder import UPSTREAM_TASKS_DIR, UPSTREAM_TESTS_DIR, ExportedFolder
from temporal_bench.export.task_list import TASK_LIST, task_list_entry
from temporal_bench.export.task_yaml import read_folder
from temporal_bench.report.layouts import LAYOUTS
from temporal_bench.report.model import build_report, layouts_for
from temporal_bench.report.render import verdict_lines
from temporal_bench.runs.results import load_runs

TYPES_OF_CHANGE = ("Bug fix (non-breaking change)", "New feature", "New benchmark/task", "New model integration", "Breaking change", "Documentation update", "Refactoring (no functional changes)")
# what each step ran (``--check`` runs the commands from the root of a tree laid out as an lmms-eval checkout)
LINT = "`python -m black --check --line-length=240 {paths}` and `python -m isort --check-only --profile black {paths}`"
LOAD = (
    "offline with every connection refused, `import utils` of the folder, lmms-eval's `TaskManager(include_path=['{folder}'], include_defaults=False)` "
    "and `load_yaml_config(yaml_path, mode='full')` of each YAML in one interpreter, then `python -m pytest {tests}`"
)
RUN = "`python -m lmms_eval --model " + RUN_MODEL + " --model_args {model_args} --tasks {tasks} --limit " + str(LIMIT) + " --include_path COPY --log_samples --output_path ./logs/`"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _folder(folder: ExportedFolder) -> str:
    return (UPSTREAM_TASKS_DIR / folder.benchmark).as_posix()


def _data_line(folder: ExportedFolder) -> str:
    facts = facts_of(benchmarks.get(folder.benchmark))
    if not facts.build_command:
        return f"- Data: `{facts.hub_dataset}`, the official release as its authors published it on the hub; nothing to host."
    organisation = facts.hub_dataset.split("/")[0]
    return f"- Data: `{facts.hub_dataset}` is not on the hub yet. A maintainer of `{organisation}` hosts it: the official release converted by the folder's " f"converter, `{facts.build_command}` (the release's licence applies)."


def _summary(folder: ExportedFolder) -> list[str]:
    benchmark, facts = benchmarks.get(folder.benchmark), facts_of(benchmarks.get(folder.benchmark))
    files = read_folder(folder.path)
    groups = sum(f.is_group for f in files)
    reference, arxiv = paper_reference(facts)
    return [
        f"- Add {benchmark.title} ({reference}" + (f", arXiv:{arxiv}" if arxiv else "") + f") as `{_folder(folder)}/`: {_count(len(files) - groups, 'task')}" + (f" and {_count(groups, 'group')}" if groups else "") + f". {facts.summary}",
        f"- The folder's `README.md` says what is asked, the tasks, metrics, data, licence and citation; `{TASK_LIST.as_posix()}` lists the benchmark.",
        _data_line(folder),
    ]


def _in_scope(folder: ExportedFolder) -> list[str]:
    lines = [f"- `{folder.benchmark}/{task.path.name}`: `{task.name}`" + (f", {task.comment}" if task.comment else "") for task in read_folder(folder.path)]
    lines += [f"- `{folder.benchmark}/{name}`" for name in folder.files if not name.endswith(".yaml")]
    lines += [f"- `{(UPSTREAM_TESTS_DIR / name).as_posix()}`" for name in folder.tests]
    return lines + [f"- `{TASK_LIST.as_posix()}`: `{task_list_entry(folder.benchmark, folder.path)[0]}` and its tasks"]


def _out_of_scope(folder: ExportedFolder) -> list[str]:
    facts = facts_of(benchmarks.get(folder.benchmark))
    return ([f"- {facts.out_of_scope}"] if facts.out_of_scope else []) + ["- lmms-eval's code, models and other tasks: unchanged."]


def _bullet(commands: str, steps: Sequence[Step]) -> str:
    size = ", ".join(step.size for step in steps if step.size) or "none"
    metrics = "; ".join(f"{step.name}: {step.detail}" for step in steps)
    return f"- {commands} | sample size: `N={size}` | key metrics: {metrics} | result: `{'pass' if all(step.passed for step in steps) else 'fail'}`"


def _smoke(step: Step, response: str) -> list[str]:
    if not step.smoke:
        return []
    lines = ["", f"`--limit {LIMIT}` with lmms-eval's `{RUN_MODEL}` model ({step.size}; it answers `{response}` to every question, in each task's answer format: a smoke test, not a baseline):", "", "| task | metrics |", "|---|---|"]
    lines += [f"| `{row['task']}` | " + ", ".join(f"{key} {value:.3g}" for key, value in row["metrics"].items()) + " |" for row in step.smoke]
    first = step.smoke[0]
    return lines + ["", f"Sample output (`{first['task']}`, the end of the first prompt, then the answer):", "", "```", first["input"], "---", str(first["output"]), "```"]


def _validation(folder: ExportedFolder, steps: Sequence[Step]) -> list[str]:
    by_name: dict[str, Step] = {step.name: step for step in steps}
    response = facts_of(benchmarks.get(folder.benchmark)).smoke_response
    tests = " ".join((UPSTREAM_TESTS_DIR / name).as_posix() for name in folder.tests)
    paths = " ".join([_folder(folder), UPSTREAM_TESTS_DIR.as_posix()])
    return [
        _bullet(LINT.format(paths=paths), [by_name["lint"]]),
        _bullet(LOAD.format(tests=tests, folder=_folder(folder)), [by_name["imports"], by_name["task manager"], by_name["tests"]]),
        _bullet(RUN.format(model_args=shlex.quote(f"response={response}"), tasks=",".join(tasks_of(folder))), [by_name["run"]]),
        *_smoke(by_name["run"], response),
        "",
        f"`COPY`: a copy of `{_folder(folder)}/` whose `dataset_path` names the local converted data (the folder keeps the hub id).",
    ]


VALIDATION_HEADER = ["| run folder | runs | against the papers' rows |", "|---|---|---|"]


def validation_row(run_dir: Path) -> str:
    """What a run folder shows against the papers, as a row of the description's table: each run's model and task count
    (and the tasks that read synthetic data), then the verdict on each table with a published row of that model (or
    that no table has one)."""
    try:
        runs = load_runs([run_dir])
    except (FileNotFoundError, ValueError) as error:
        return f"| `{run_dir}` | {error} | |"
    if not runs:
        return f"| `{run_dir}` | no results files found | |"
    described = []
    for run in runs:
        synthetic = sorted(task for task in run.tasks if (read := run.data_read(task)) is not None and read.synthetic)
        described.append(f"**{run.label}** ({len(run.tasks)} tasks" + (f"; synthetic data: {', '.join(synthetic)}" if synthetic else "") + ")")
    summary = [line.removeprefix("- ") for line in verdict_lines(build_report(runs, layouts_for(runs, LAYOUTS.values())))]
    verdicts = "<br>".join(summary) or "no published row of this model in the papers' tables: no verdict"
    return f"| `{run_dir}` | {'; '.join(described)} | {verdicts} |"


def _risk(folder: ExportedFolder, validations: Sequence[Path]) -> list[str]:
    python = {name: text for name, text in folder.files.items() if name.endswith(".py")}
    extra = requirements_of(python)
    needs = "; ".join(f"new dependency `{r.distribution}` (imported by {', '.join(f'`{f}`' for f in r.files)}" + (", only where it is used" if r.when_used else "") + ")" for r in extra)
    compatibility = f"- {needs[0].upper() + needs[1:] if needs else 'No new dependency: the folder imports only lmms-eval requirements'}; aggregations are named by module path, which lmms-eval resolves since v0.6 (commit 223d9686); nothing changes but the new files and the task list's entry."
    checked = "the run folders under Validation are the only comparison with the papers" if validations else "no run is compared with the papers' numbers"
    release = (
        "; the converter and the tasks have not read the official release (no copy was reachable where this was prepared): run on it, the converter prints the counts it read next to the paper's and exits with status 1 naming each that differs"
        if facts_of(benchmarks.get(folder.benchmark)).build_command
        else ""
    )
    return [compatibility, f"- Not validated: no real model ran for this description (the smoke run uses the `{RUN_MODEL}` model); {checked}{release}."]


def pull_request_text(folder: ExportedFolder, steps: Sequence[Step], validations: Sequence[Path]) -> str:
    lines = ["## Summary", "", *_summary(folder), "", "## In scope", "", *_in_scope(folder), "", "## Out of scope", "", *_out_of_scope(folder)]
    lines += ["", "## Validation", "", *_validation(folder, steps), ""]
    given = [validation_row(run_dir) for run_dir in validations]
    lines += ["Model runs next to the papers' rows (`--validation`):", "", *VALIDATION_HEADER, *given] if given else ["No model run is compared with the papers' rows (`--validation RUN_DIR` adds them)."]
    lines += ["", "## Risk / Compatibility", "", *_risk(folder, validations), "", "## Type of Change", ""]
    lines += [f"- [{'x' if kind == 'New benchmark/task' else ' '}] {kind}" for kind in TYPES_OF_CHANGE]
    return "\n".join(lines) + "\n"
