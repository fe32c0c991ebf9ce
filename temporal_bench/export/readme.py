"""The README.md of an exported task folder, built from the benchmark's facts, its YAMLs and its modules;
and the README of the shared helpers' folder."""

import ast
import importlib.metadata
import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Dict, List, Sequence, Tuple

from temporal_bench.benchmarks import Benchmark
from temporal_bench.export.facts import facts_of, paper_reference
from temporal_bench.export.hub_route import hub_route
from temporal_bench.export.requirements import Requirement
from temporal_bench.export.source_modules import PACKAGE, SHARED_FOLDER, SHARED_UPSTREAM, CopiedModule
from temporal_bench.export.task_yaml import TaskYaml, read_folder

# lmms-eval's own metadata key (the task's version), not a setting that changes a score
_NOT_SETTINGS = {"version"}


@lru_cache(maxsize=1)
def package_metadata() -> importlib.metadata.PackageMetadata:
    """Name, version and license of the installed distribution that ships the package."""
    return importlib.metadata.metadata(importlib.metadata.packages_distributions()[PACKAGE][0])


def export_mark() -> str:
    """How the README of a folder the export wrote begins: its provenance comment (a later export replaces
    such a folder and no other)."""
    return f"<!-- Exported from {package_metadata()['Name']} "


def _metric_rows(tasks) -> List[Tuple[List[str], List[Dict]]]:
    """(task names, metric list) for each distinct metric list, in file order."""
    rows: List[Tuple[List[str], List[Dict]]] = []
    for task in tasks:
        metrics = [{"metric": m["metric"], "higher_is_better": m.get("higher_is_better", True)} for m in task.config.get("metric_list", [])]
        match = next((row for row in rows if row[1] == metrics), None)
        if match:
            match[0].append(task.name)
        else:
            rows.append(([task.name], metrics))
    return rows


def _cell(text: str) -> str:
    """Text for a markdown table cell: a ``|`` would end the cell, a ``<tag>`` outside a code span would be
    read as HTML."""
    parts = re.split(r"(`+[^`]*`+)", text.replace("|", "\\|"))
    return "".join(part if part.startswith("`") else part.replace("<", "&lt;") for part in parts)


def _keys(metrics: List[Dict]) -> str:
    return ", ".join(f"`{m['metric']}`" + ("" if m["higher_is_better"] else " (lower is better)") for m in metrics)


def _example_task(benchmark: Benchmark, files) -> str:
    """The task named after the benchmark, else the first task of the group named after it, else its first task."""
    by_name = {f.name: f for f in files}
    chosen = by_name.get(benchmark.name)
    if chosen is None:
        return next(f.name for f in files if f.name and not f.is_group)
    return chosen.config["task"][0] if chosen.is_group else chosen.name


def _summary(source: str) -> str:
    """The first sentence of a module's docstring."""
    doc = " ".join((ast.get_docstring(ast.parse(source)) or "").split())
    return doc.split(". ")[0].rstrip(".") + "." if doc else ""


def _value(value) -> str:
    return f"`{json.dumps(value, sort_keys=True)}`"


def _task_cells(tasks: Sequence[TaskYaml], value_of) -> List[Tuple[str, str]]:
    """(value, which tasks) for each value ``value_of(task)`` takes (None: the task has none); the
    most common value stands for "the other tasks"."""
    by_value: Dict[str, List[str]] = {}
    for task in tasks:
        value = value_of(task)
        if value is not None:
            by_value.setdefault(_value(value), []).append(task.name)
    common = max(by_value, key=lambda v: len(by_value[v]), default=None)
    return [(value, "every task" if len(by_value) == 1 and len(names) == len(tasks) else "the other tasks" if value == common and len(by_value) > 1 else ", ".join(f"`{n}`" for n in names)) for value, names in by_value.items()]


def _settings_lines(tasks: Sequence[TaskYaml]) -> List[str]:
    """The scoring settings: the YAMLs' ``metadata`` keys and their per-model ``lmms_eval_specific_kwargs``."""
    metadata = {task.name: task.config.get("metadata") or {} for task in tasks}
    keys = sorted({key for values in metadata.values() for key in values} - _NOT_SETTINGS)
    lines = [
        "## Settings",
        "",
        "Every setting that changes a score is task configuration, so the results JSON records it (`configs.<task>.metadata`, `configs.<task>.lmms_eval_specific_kwargs`). Environment variables only say where the data lives.",
        "",
    ]
    if keys:
        lines += ["Task settings, the `metadata` of each task YAML (a variant is a YAML that `include:`s a task and gives another `metadata`):", "", "| setting | value | tasks |", "|---|---|---|"]
        for key in keys:
            lines += [f"| `{key}` | {value} | {who} |" for value, who in _task_cells(tasks, lambda t, key=key: metadata[t.name].get(key))]
        lines.append("")
    cells = _task_cells(tasks, lambda t: t.config.get("lmms_eval_specific_kwargs"))
    if cells:
        lines += [
            "Per-model settings, `lmms_eval_specific_kwargs` (lmms-eval uses the section named after `--model`, else `default`):",
            "",
            "| sections | tasks |",
            "|---|---|",
            *(f"| {_cell(value)} | {who} |" for value, who in cells),
            "",
        ]
    return lines


def _header(title: str) -> List[str]:
    dist = package_metadata()
    return [f"{export_mark()}{dist['Version']} ({dist['License']} license). -->", f"# {title}", ""]


def _module_rows(modules: Sequence[CopiedModule]) -> List[str]:
    return ["| module | what it holds |", "|---|---|", *(f"| `{m.file_name}` | {_cell(_summary(m.text))} |" for m in modules)]


def _requirements_lines(requirements: Sequence[Requirement]) -> List[str]:
    lines = ["## Requirements", ""]
    if not requirements:
        return lines + ["lmms-eval's own dependencies; nothing else.", ""]
    lines.append("Besides lmms-eval's own dependencies (the pull request adds these to them):")
    for r in requirements:
        files = ", ".join(f"`{f}`" for f in r.files)
        lines.append(f"- `{r.distribution}` (imported as `{r.module}` by {files}" + (", only where it is used)" if r.when_used else ")"))
    return lines + [""]


def _data_lines(benchmark: Benchmark) -> List[str]:
    facts, route = facts_of(benchmark), hub_route(benchmark.name)
    if route is None:
        return ["## Data", "", f"The tasks load the Hugging Face dataset `{facts.source_hub_id}`. For a local copy set `{facts.data_dir_env}` to a folder holding {facts.local_layout}.", ""]
    loaded = f"The tasks load the hub dataset `{route.dataset_id}` through lmms-eval's own loading (`dataset_path`, `dataset_name`, `test_split`); each task's `process_docs` builds its questions from the rows loaded"
    if route.build_command() is None:
        return ["## Data", "", f"{loaded}. The dataset is the official release as it is.", ""]
    return ["## Data", "", f"{loaded}. The dataset is converted from the official release `{facts.source_hub_id}` (images embedded, one config per data need) by:", "", "```bash", route.build_command(), "```", ""]


def render_readme(benchmark: Benchmark, folder: Path, modules: Sequence[CopiedModule], requirements: Sequence[Requirement]) -> str:
    files = read_folder(folder)
    tasks = [f for f in files if not f.is_group]
    groups = [f for f in files if f.is_group]
    facts, route = facts_of(benchmark), hub_route(benchmark.name)
    reference, arxiv = paper_reference(benchmark)
    paper = f"{reference}" + (f", [arXiv:{arxiv}](https://arxiv.org/abs/{arxiv})" if arxiv else "")
    dataset = route.dataset_id if route else facts.source_hub_id
    lines = [
        *_header(benchmark.title),
        facts.summary,
        "",
        "| | |",
        "|---|---|",
        f"| Paper | {paper} |",
        f"| Dataset | [`{dataset}`](https://huggingface.co/datasets/{dataset}) |",
        "",
        "## Tasks",
        "",
        "| task | setting |",
        "|---|---|",
        *(f"| `{t.name}` | {_cell(t.comment)} |" for t in tasks),
        "",
    ]
    if groups:
        lines += ["Groups (no aggregate across their tasks: each task is reported on its own):", "", *(f"- `{g.name}`: {', '.join(f'`{m}`' for m in g.config['task'])}" for g in groups), ""]
    lines += [
        "## Metrics",
        "",
        "Each aggregation computes its figure from all docs at once, so results do not depend on sharding. A key that does not apply to a run is `null` (N/A).",
        "",
        "| tasks | metric keys |",
        "|---|---|",
        *(f"| {', '.join(f'`{n}`' for n in names)} | {_keys(metrics)} |" for names, metrics in _metric_rows(tasks)),
        "",
    ]
    lines += _data_lines(benchmark)
    lines += _settings_lines(tasks)
    own = [m for m in modules if not m.is_shared]
    shared = [m for m in modules if m.is_shared]
    lines += ["## Code", "", f"`utils.py` holds the functions the YAMLs name (`!function utils.<name>`), imported from the modules beside it (`lmms_eval.tasks.{benchmark.name}.<module>`):", "", *_module_rows(own), ""]
    if shared:
        lines += [f"and from helpers shared with the other temporal-reasoning folders (`{SHARED_UPSTREAM}.<module>`): " + ", ".join(f"`{m.file_name}`" for m in shared) + ".", ""]
    lines += _requirements_lines(requirements)
    lines += [
        "## Usage",
        "",
        "```bash",
        "python -m lmms_eval --model qwen2_vl --model_args pretrained=Qwen/Qwen2-VL-7B-Instruct \\",
        f"    --tasks {_example_task(benchmark, files)} --batch_size 1 --log_samples --output_path ./logs/",
        "```",
        "",
        "## Citation",
        "",
        "```bibtex",
        facts.bibtex,
        "```",
        "",
    ]
    return "\n".join(lines)


def render_shared_readme(modules: Sequence[CopiedModule], benchmarks: Sequence[str]) -> str:
    """The shared folder's README: which folders import it and what each module holds."""
    users = ", ".join(f"`lmms_eval/tasks/{name}/`" for name in benchmarks)
    return "\n".join([*_header(f"{SHARED_FOLDER.as_posix()}"), f"Helpers shared by the task folders {users}, which import them as `{SHARED_UPSTREAM}.<module>`.", "", *_module_rows(modules), ""])
