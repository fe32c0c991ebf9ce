"""Write one benchmark's upstream task folder: ``<output>/lmms_eval/tasks/<benchmark>/``."""

import re
import shutil
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Dict

from temporal_bench.export.amalgamation import PACKAGE
from temporal_bench.export.benchmarks import Benchmark
from temporal_bench.export.readme import render_readme
from temporal_bench.export.requirements import extra_requirements
from temporal_bench.export.task_yaml import hook_names
from temporal_bench.export.utils_module import GENERATED_MARK, render_utils
from temporal_bench.paths import LMMS_EVAL_TASK_DIR

UPSTREAM_TASKS_DIR = Path("lmms_eval") / "tasks"
# Our YAML headers name the package command that generates them; upstream, the export generates them.
_GENERATOR_COMMAND = re.compile(rf"python -m {PACKAGE}(\.\w+)+")


class ExportError(RuntimeError):
    """The task folder cannot be written as asked."""


def _clear_previous_export(folder: Path) -> None:
    """Replace a folder an earlier export wrote; refuse to touch anything else."""
    if not folder.exists():
        return
    utils = folder / "utils.py"
    if not (utils.is_file() and utils.read_text(encoding="utf-8").startswith(GENERATED_MARK)):
        raise ExportError(f"{folder} exists and was not written by `temporal-bench export`; remove it first")
    shutil.rmtree(folder)


def _copy_data_files(source: Path, target: Path) -> None:
    """The YAMLs (templates included) and data files; everything but utils.py and caches."""
    for path in sorted(source.iterdir()):
        if path.is_dir() or path.name == "utils.py":
            continue
        text = _GENERATOR_COMMAND.sub("temporal-bench export", path.read_text(encoding="utf-8"))
        if PACKAGE in text:
            raise ExportError(f"{path} still names {PACKAGE}; an upstream folder cannot refer to it")
        (target / path.name).write_text(text, encoding="utf-8")


def _check_hooks_defined(folder: Path, utils: str) -> None:
    """Run the exported utils.py as a top-level module named ``utils`` (as lmms-eval loads it, but writing no
    bytecode next to it) and look up every hook the YAMLs name."""
    module = types.ModuleType("utils")
    module.__file__ = str(folder / "utils.py")
    exec(compile(utils, module.__file__, "exec"), module.__dict__)
    missing = sorted(name for name in hook_names(folder) if not hasattr(module, name))
    if missing:
        raise ExportError(f"{folder / 'utils.py'} lacks hooks its YAMLs name: {missing}")


@dataclass(frozen=True)
class ExportedFolder:
    path: Path
    extra_requirements: Dict[str, str]  # module -> distribution that lmms-eval does not install


def export_task_folder(benchmark: Benchmark, output: Path) -> ExportedFolder:
    """Write ``benchmark``'s folder under ``output`` (e.g. an lmms-eval checkout)."""
    source = LMMS_EVAL_TASK_DIR / benchmark.name
    folder = Path(output) / UPSTREAM_TASKS_DIR / benchmark.name
    _clear_previous_export(folder)
    folder.mkdir(parents=True)
    _copy_data_files(source, folder)
    utils = render_utils(benchmark, source / "utils.py")
    (folder / "utils.py").write_text(utils, encoding="utf-8")
    _check_hooks_defined(folder, utils)
    extra = extra_requirements(utils)
    (folder / "README.md").write_text(render_readme(benchmark, folder, extra), encoding="utf-8")
    return ExportedFolder(folder, extra)
