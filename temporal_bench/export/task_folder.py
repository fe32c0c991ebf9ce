"""Write the upstream task folders: a copy of each benchmark's task folder (``lmms_eval_tasks/<benchmark>/``) as
``<output>/lmms_eval/tasks/<benchmark>/``, with the helpers its modules import (this package's ``utils/``, installed as
``temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning``) copied into it, so that each pull request stands
alone, and of its tests as ``<output>/test/eval/``.

The copy changes the import prefixes (``temporal_bench.lmms_eval_tasks.`` -> ``lmms_eval.tasks.``, a helper's ->
``lmms_eval.tasks.<benchmark>.``) and then sorts the imports as upstream's lint does (isort, profile black), nothing
else; it leaves out the ``__init__.py`` files lmms-eval's folders do without. A copied text that names this package,
its commands, documents, folders or data variables (:data:`PACKAGE_WORDS`) is an error.
"""

import ast
import re
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from temporal_bench import benchmarks
from temporal_bench.export.errors import ExportError
from temporal_bench.export.facts import exportable
from temporal_bench.paths import LMMS_EVAL_TASK_DIR, package_folder

UPSTREAM_TASKS_DIR = Path("lmms_eval") / "tasks"
UPSTREAM_TESTS_DIR = Path("test") / "eval"
SOURCE_PREFIX, UPSTREAM_PREFIX = "temporal_bench.lmms_eval_tasks.", "lmms_eval.tasks."
HELPER_PREFIX = SOURCE_PREFIX + "_task_utils.temporal_reasoning."
HELPER_SOURCE = package_folder(HELPER_PREFIX[:-1])  # the helpers' folder (``utils/``, installed as the task folders' _task_utils/temporal_reasoning)
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
    files: dict[str, str]  # file name -> text as written (the helpers it imports among them)
    tests: dict[str, str]  # its upstream test files: file name -> text


def upstream_text(text: str, benchmark: str, prefix: str = UPSTREAM_PREFIX) -> str:
    """``text`` as upstream holds it in ``benchmark``'s folder: the import prefixes renamed (``prefix``: the upstream
    package of the task folders) and, in Python, the imports sorted as upstream's lint sorts them."""
    return text.replace(HELPER_PREFIX, f"{prefix}{benchmark}.").replace(SOURCE_PREFIX, prefix)


def sorted_imports(name: str, text: str) -> str:
    """A Python file's imports sorted as lmms-eval's lint sorts them (isort, profile black: the prefixes renamed, an
    import may belong elsewhere)."""
    import isort

    return isort.code(text, profile="black", known_first_party=["lmms_eval"]) if name.endswith(".py") else text


def checked(name: str, text: str, words: re.Pattern = PACKAGE_WORDS) -> str:
    """``text``; an error naming each line that speaks this package's vocabulary (``words``)."""
    found = [f"{name}:{number}: {match.group(0)}" for number, line in enumerate(text.splitlines(), 1) for match in words.finditer(line)]
    if found:
        raise ExportError("the exported text names this package or its documentation: " + "; ".join(found[:5]))
    return text


def source_folder(name: str) -> Path:
    benchmark = benchmarks.get(name)
    return Path(benchmark.manifest.task_folder) if benchmark.manifest.task_folder else LMMS_EVAL_TASK_DIR / name


def exported_text(name: str, text: str, benchmark: str) -> str:
    """A file of ``benchmark``'s folder as upstream holds it (:func:`upstream_text`), its words checked."""
    return checked(name, sorted_imports(name, upstream_text(text, benchmark)))


def source_files(folder: Path) -> dict[str, str]:
    """The files of a source folder, ``__init__.py`` aside: name -> text."""
    return {path.name: path.read_text(encoding="utf-8") for path in sorted(p for p in folder.iterdir() if p.is_file() and p.name not in LEFT_OUT)}


def imported_modules(texts: Sequence[str], folders: dict[str, Path]) -> dict[str, str]:
    """The modules the Python ``texts`` import (and those these import) under each module prefix of ``folders`` (prefix
    -> the folder holding its modules), as the package holds them: file name -> text."""
    found: dict[str, str] = {}
    todo = list(texts)
    while todo:
        for node in ast.walk(ast.parse(todo.pop())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [f"{node.module}.{a.name}" for a in node.names] if isinstance(node, ast.ImportFrom) else []
            for module in names:
                prefix = next((prefix for prefix in folders if module.startswith(prefix)), None)
                if not prefix:
                    continue
                name = module[len(prefix) :].split(".")[0] + ".py"
                if name not in found:
                    found[name] = (folders[prefix] / name).read_text(encoding="utf-8")
                    todo.append(found[name])
    return dict(sorted(found.items()))


def planned(name: str) -> ExportedFolder:
    """``name``'s folder as it will be written (nothing written yet): its files and the helpers they import."""
    files = source_files(source_folder(name))
    test = SOURCE_TESTS / f"test_{name}_tasks.py"
    tests = {test.name: test.read_text(encoding="utf-8")} if test.is_file() else {}
    helpers = imported_modules([text for file, text in {**files, **tests}.items() if file.endswith(".py")], {HELPER_PREFIX: HELPER_SOURCE})
    exported = {file: exported_text(file, text, name) for file, text in sorted({**files, **helpers}.items())}
    return ExportedFolder(name, UPSTREAM_TASKS_DIR / name, exported, {file: exported_text(file, text, name) for file, text in tests.items()})


def clear_previous_export(folder: Path, benchmark: str) -> None:
    """Replace a folder an earlier export wrote (it holds the benchmark's task YAMLs); refuse to touch anything else."""
    if folder.exists() and not (folder / "utils.py").is_file():
        raise ExportError(f"{folder} exists and is no task folder an export wrote for {benchmark}; remove it first")
    shutil.rmtree(folder, ignore_errors=True)


def write_files(folder: Path, files: dict[str, str]) -> None:
    if files:
        folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")


def write_folders(names: Sequence[str], output: Path, known: Sequence[str], plan: Callable[[str], ExportedFolder]) -> list[ExportedFolder]:
    """Write the folders ``plan`` makes of the benchmarks ``names`` (of the ``known`` ones) under ``output``, with their
    tests; returns them with their paths under ``output``."""
    unknown = [name for name in names if name not in known]
    if unknown:
        raise ExportError(f"no exportable benchmark {', '.join(unknown)}; known: {', '.join(known)}")
    written = []
    for name in names:
        folder = plan(name)
        path = Path(output) / folder.path
        clear_previous_export(path, name)
        write_files(path, folder.files)
        write_files(Path(output) / UPSTREAM_TESTS_DIR, folder.tests)
        written.append(ExportedFolder(name, path, folder.files, folder.tests))
    return written


def export_task_folders(names: Sequence[str], output: Path) -> list[ExportedFolder]:
    """Write the folders of the benchmarks ``names`` under ``output`` (e.g. an lmms-eval checkout), with the helpers
    they import and their tests; returns them with their paths under ``output``."""
    return write_folders(names, output, exportable(), planned)
