"""The pull request's description: what is added, the commands, the checks and the validation numbers.

lmms-eval's pull-request template asks for validation: the new tasks' scores for a model next to a
reference. They come from the run folders the contributor passes, read (never written) with the
report's public functions, which pair each run's rows with the papers' published rows (a baseline with
the Random rows, the released TempVS blind predictions with Table 17's text-only rows, a model with its
own row) and give the verdict on each published cell.
"""

from pathlib import Path
from typing import List, Sequence

from temporal_bench import benchmarks
from temporal_bench.export.facts import facts_of, paper_reference
from temporal_bench.export.hub_route import hub_route
from temporal_bench.export.pull_request import LIMIT, Step
from temporal_bench.export.source_modules import SHARED_FOLDER
from temporal_bench.export.task_folder import UPSTREAM_TASKS_DIR, ExportedFolder
from temporal_bench.export.task_yaml import read_folder
from temporal_bench.report.layouts import LAYOUTS
from temporal_bench.report.render import layouts_for, verdict_summary
from temporal_bench.runs.results import load_runs


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _added(folders: Sequence[ExportedFolder]) -> List[str]:
    lines = []
    for folder in folders:
        benchmark = benchmarks.get(folder.benchmark)
        files = read_folder(folder.path)
        groups = sum(f.is_group for f in files)
        reference, arxiv = paper_reference(benchmark)
        route = hub_route(folder.benchmark)
        hosted = "" if route is None or route.build_command() is None else ", to be hosted: built from the official release by the command below"
        dataset = f"hub dataset `{route.dataset_id}`{hosted}" if route else f"the plugin's data route (`{facts_of(benchmark).source_hub_id}`; hub dataset not built yet)"
        lines.append(
            f"- `{(UPSTREAM_TASKS_DIR / folder.benchmark).as_posix()}/`: {benchmark.title} ({reference}" + (f", arXiv:{arxiv}" if arxiv else "") + f"), {_count(len(files) - groups, 'task')} and {_count(groups, 'group')}; data: {dataset}."
        )
    lines.append(f"- `{(UPSTREAM_TASKS_DIR / SHARED_FOLDER).as_posix()}/`: the helpers the folders share, each once.")
    requirements = {r.distribution: r for folder in folders for r in folder.requirements}
    for r in requirements.values():
        lines.append(f"- New dependency `{r.distribution}` (imported as `{r.module}` by " + ", ".join(f"`{f}`" for f in r.files) + (", only where it is used" if r.when_used else "") + ").")
    return lines


def _commands(folders: Sequence[ExportedFolder]) -> List[str]:
    lines = ["```bash"]
    for folder in folders:
        route = hub_route(folder.benchmark)
        if route and route.build_command():
            lines.append(route.build_command())
    lines += [f"python -m lmms_eval --model qwen2_vl --model_args pretrained=Qwen/Qwen2-VL-7B-Instruct --tasks {folder.benchmark} --batch_size 1 --log_samples --output_path ./logs/" for folder in folders]
    lines.append(f"python -m lmms_eval --model <model> --tasks <task> --limit {LIMIT}   # the contribution check")
    return lines + ["```"]


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


def pull_request_text(folders: Sequence[ExportedFolder], steps: Sequence[Step], validations: Sequence[Path]) -> str:
    titles = ", ".join(benchmarks.get(f.benchmark).title for f in folders)
    lines = [
        f"## Add {titles}",
        "",
        "### What is added",
        "",
        *_added(folders),
        "",
        "### Commands",
        "",
        *_commands(folders),
        "",
        "### Checks (`temporal-bench export --check`)",
        "",
        *(f"- [{'x' if step.passed else ' '}] {step.name}: {step.detail}" for step in steps),
        "",
        "### Validation",
        "",
    ]
    lines += [line for run_dir in validations for line in validation_lines(run_dir)] or ["- none given (`--validation RUN_DIR`)"]
    return "\n".join(lines) + "\n"
