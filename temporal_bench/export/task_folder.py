"""Write the upstream task folders: a copy of each benchmark's task folder (``lmms_eval_tasks/<benchmark>/``) as
``<output>/lmms_eval/tasks/<benchmark>/``, of the shared helpers its modules import as
``<output>/lmms_eval/tasks/_task_utils/temporal_reasoning/``, and of its tests as ``<output>/test/eval/``.

The copy changes the import prefix (``temporal_bench.lmms_eval_tasks.`` -> ``lmms_eval.tasks.``), nothing else; it
leaves out the ``__init__.py`` files lmms-eval's folders do without. A copied text that names this package, its
commands, documents, folders or data variables (:data:`PACKAGE_WORDS`) is an error.
"""

import ast
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Sequence

from temporal_bench import benchmarks
from temporal_bench.export.errors import ExportError
from temporal_bench.export.facts import exportable
from temporal_bench.paths import LMMS_EVAL_TASK_DIR, package_folder

UPSTREAM_TASKS_DIR = Path("lmms_eval") / "tasks"
UPSTREAM_TESTS_DIR = Path("test") / "eval"
SOURCE_PREFIX, UPSTREAM_PREFIX = "temporal_bench.lmms_eval_tasks.", "lmms_eval.tasks."
SHARED_MODULES = SOURCE_PREFIX + "_task_utils.temporal_reasoning."
SHARED_FOLDER = Path("_task_utils") / "temporal_reasoning"
SHARED_SOURCE = package_folder(SHARED_MODULES[:-1])  # the shared helpers' folder (``utils/``, installed as the task folders' _task_utils/temporal_reasoning)
SOURCE_TESTS = Path(__file__).resolve().parents[2] / "tests" / "upstream"  # test_<benchmark>_tasks.py, in upstream's test/ style
LEFT_OUT = ("__init__.py",)
# what an upstream reader cannot follow: this package's name, its commands, documents, folders, data variables and
# the words it uses for itself and its tooling
PACKAGE_WORDS = re.compile(
    r"temporal_bench|temporal-bench|lmms_eval_temporal_bench|docs/[\w/]+\.md|\bplugin\b|placeholder|this package|\bours?\b|lm-eval\b|--metadata|the report\b"
    r"|\bcompare\b|\brescore\b|\bbrowse\b|\bdemo\b|utils/|_variants|_DATA_DIR|(?<!pytest\.)\bfixtures?\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class ExportedFolder:
    benchmark: str
    path: Path  # <output>/lmms_eval/tasks/<benchmark>
    files: Dict[str, str]  # file name -> text as written
    shared: Dict[str, str]  # the shared helpers it imports: file name -> text
    tests: Dict[str, str]  # its upstream test files: file name -> text


def upstream_text(text: str) -> str:
    """``text`` as upstream holds it: the import prefix renamed."""
    return text.replace(SOURCE_PREFIX, UPSTREAM_PREFIX)


def _checked(name: str, text: str) -> str:
    found = [f"{name}:{number}: {match.group(0)}" for number, line in enumerate(text.splitlines(), 1) for match in PACKAGE_WORDS.finditer(line)]
    if found:
        raise ExportError("the exported text names this package or its documentation: " + "; ".join(found[:5]))
    return text


def source_folder(name: str) -> Path:
    benchmark = benchmarks.get(name)
    return Path(benchmark.manifest.task_folder) if benchmark.manifest.task_folder else LMMS_EVAL_TASK_DIR / name


def _copied(folder: Path) -> Dict[str, str]:
    return {path.name: _checked(path.name, upstream_text(path.read_text(encoding="utf-8"))) for path in sorted(p for p in folder.iterdir() if p.is_file() and p.name not in LEFT_OUT)}


def shared_modules(texts: Sequence[str]) -> Dict[str, str]:
    """The shared helpers the Python ``texts`` (as upstream holds them) import, and those these import: file -> text."""
    prefix = UPSTREAM_PREFIX + SHARED_MODULES[len(SOURCE_PREFIX) :]
    found: Dict[str, str] = {}
    todo = list(texts)
    while todo:
        for node in ast.walk(ast.parse(todo.pop())):
            modules = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            for module in (m for m in modules if m.startswith(prefix)):
                name = module[len(prefix) :].split(".")[0] + ".py"
                if name not in found:
                    found[name] = _checked(name, upstream_text((SHARED_SOURCE / name).read_text(encoding="utf-8")))
                    todo.append(found[name])
    return dict(sorted(found.items()))


def planned(name: str) -> ExportedFolder:
    """``name``'s folder as it will be written (nothing written yet)."""
    files = _copied(source_folder(name))
    test = SOURCE_TESTS / f"test_{name}_tasks.py"
    tests = {test.name: _checked(test.name, upstream_text(test.read_text(encoding="utf-8")))} if test.is_file() else {}
    shared = shared_modules([text for file, text in {**files, **tests}.items() if file.endswith(".py")])
    return ExportedFolder(name, UPSTREAM_TASKS_DIR / name, files, shared, tests)


def _clear_previous_export(folder: Path, benchmark: str) -> None:
    """Replace a folder an earlier export wrote (it holds the benchmark's task YAMLs); refuse to touch anything else."""
    if folder.exists() and not (folder / "utils.py").is_file():
        raise ExportError(f"{folder} exists and is no task folder an export wrote for {benchmark}; remove it first")
    shutil.rmtree(folder, ignore_errors=True)


def _write(folder: Path, files: Dict[str, str]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")


def export_task_folders(names: Sequence[str], output: Path) -> List[ExportedFolder]:
    """Write the folders of the benchmarks ``names`` under ``output`` (e.g. an lmms-eval checkout), with the shared
    helpers they import and their tests; returns them with their paths under ``output``."""
    unknown = [name for name in names if name not in exportable()]
    if unknown:
        raise ExportError(f"no exportable benchmark {', '.join(unknown)}; known: {', '.join(exportable())}")
    written = []
    for name in names:
        folder = planned(name)
        path = Path(output) / folder.path
        _clear_previous_export(path, name)
        _write(path, folder.files)
        _write(Path(output) / UPSTREAM_TASKS_DIR / SHARED_FOLDER, folder.shared)
        _write(Path(output) / UPSTREAM_TESTS_DIR, folder.tests)
        written.append(ExportedFolder(name, path, folder.files, folder.shared, folder.tests))
    return written
