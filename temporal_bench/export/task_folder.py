"""Write one benchmark's upstream task folder: ``<output>/lmms_eval/tasks/<benchmark>/``."""

import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List

from temporal_bench.export.benchmarks import Benchmark
from temporal_bench.export.formatting import FormatterMissing, upstream_style
from temporal_bench.export.readme import GENERATED_MARK, render_readme
from temporal_bench.export.requirements import extra_requirements
from temporal_bench.export.source_modules import PACKAGE, CopiedModule, ExportError, copied_modules
from temporal_bench.paths import LMMS_EVAL_TASK_DIR

UPSTREAM_TASKS_DIR = Path("lmms_eval") / "tasks"
# Our YAML headers name the package command that generates them; upstream, the export generates them.
_GENERATOR_COMMAND = re.compile(rf"python -m {PACKAGE}(\.\w+)+")


def _clear_previous_export(folder: Path) -> None:
    """Replace a folder an earlier export wrote; refuse to touch anything else."""
    if not folder.exists():
        return
    readme = folder / "README.md"
    if not (readme.is_file() and readme.read_text(encoding="utf-8").startswith(GENERATED_MARK)):
        raise ExportError(f"{folder} exists and was not written by `temporal-bench export`; remove it first")
    shutil.rmtree(folder)


def _data_files(source: Path) -> Dict[str, str]:
    """The YAMLs (templates included) and data files: everything but Python files and caches."""
    files = {}
    for path in sorted(source.iterdir()):
        if path.is_dir() or path.suffix == ".py":
            continue
        text = _GENERATOR_COMMAND.sub("temporal-bench export", path.read_text(encoding="utf-8"))
        if PACKAGE in text:
            raise ExportError(f"{path} still names {PACKAGE}; an upstream folder cannot refer to it")
        files[path.name] = text
    return files


@dataclass(frozen=True)
class ExportedFolder:
    path: Path
    modules: List[CopiedModule]  # the package modules copied beside utils.py
    extra_requirements: Dict[str, str]  # module -> distribution that lmms-eval does not install


def export_task_folder(benchmark: Benchmark, output: Path) -> ExportedFolder:
    """Write ``benchmark``'s folder under ``output`` (e.g. an lmms-eval checkout)."""
    source = LMMS_EVAL_TASK_DIR / benchmark.name
    files = _data_files(source)
    utils, modules = copied_modules(benchmark.name, source / "utils.py", [*files, "utils.py", "README.md"])
    try:
        python = {name: upstream_style(text) for name, text in [("utils.py", utils), *((m.file_name, m.text) for m in modules)]}
    except FormatterMissing as error:
        raise ExportError(str(error)) from error
    folder = Path(output) / UPSTREAM_TASKS_DIR / benchmark.name
    _clear_previous_export(folder)
    folder.mkdir(parents=True)
    for name, text in [*files.items(), *python.items()]:
        (folder / name).write_text(text, encoding="utf-8")
    extra: Dict[str, str] = {}
    for text in [utils, *(m.text for m in modules)]:
        extra.update(extra_requirements(text))
    (folder / "README.md").write_text(render_readme(benchmark, folder, modules, extra), encoding="utf-8")
    return ExportedFolder(folder, modules, extra)
