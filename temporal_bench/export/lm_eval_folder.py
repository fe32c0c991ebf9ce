"""Write a benchmark's lm-eval pull request (CaT-Bench's, the one text-only benchmark): its folder of lm-eval tasks,
``lm_eval_tasks/<benchmark>/`` (the YAMLs, ``utils.py`` and the README lm-eval merges), as
``<output>/lm_eval/tasks/<benchmark>/`` with the modules its ``utils.py`` imports (the lmms-eval folder's prompts,
questions, parsers and metrics, and the helpers these import), and its row in lm-eval's task table
(``lm_eval/tasks/README.md``).

The copy renames the import prefixes (the package's modules -> ``lm_eval.tasks.<benchmark>.``) and formats the Python
as lm-eval's lint does (ruff: its import sorting, then ``ruff format``), nothing else; a copied text in this package's
vocabulary is an error.
"""

import re
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from temporal_bench import benchmarks
from temporal_bench.export.errors import ExportError
from temporal_bench.export.facts import facts_of
from temporal_bench.export.task_folder import HELPER_PREFIX, HELPER_SOURCE, PACKAGE_WORDS, SOURCE_PREFIX, ExportedFolder, checked, imported_modules, source_files, upstream_text, write_folders
from temporal_bench.paths import LMMS_EVAL_TASK_DIR, package_folder

LM_EVAL_TASKS_DIR = Path("lm_eval") / "tasks"
LM_EVAL_PREFIX = "lm_eval.tasks."
LM_EVAL_SOURCE = package_folder("temporal_bench.lm_eval_tasks")  # its folders but plugin/: what lm-eval pull requests add
TASK_TABLE = LM_EVAL_TASKS_DIR / "README.md"
# lm-eval's ruff settings (its pyproject.toml) that change a file: the import sorting's; the format is ruff's default
RUFF_ISORT = ["--config", "lint.isort.known-first-party = ['lm_eval']", "--config", "lint.isort.combine-as-imports = true", "--config", "lint.isort.lines-after-imports = 2"]
# the package's words, less the name of the harness the folder is for
LM_EVAL_WORDS = re.compile(PACKAGE_WORDS.pattern.replace(r"|lm-eval\b", ""), re.IGNORECASE)
_ROW = re.compile(r"^\| \[([^\]]+)\]\(([^)]*)\)")


def lm_eval_benchmarks() -> list[str]:
    """The benchmarks with an lm-eval folder to export."""
    return sorted(path.parent.name for path in LM_EVAL_SOURCE.glob("*/utils.py") if path.parent.name != "plugin")


def _ruff(arguments: Sequence[str], name: str, text: str) -> str:
    done = subprocess.run([sys.executable, "-m", "ruff", *arguments, "--stdin-filename", name, "-"], input=text, capture_output=True, text=True)
    if done.returncode:
        raise ExportError(f"ruff {arguments[0]} of {name} failed: {done.stderr.strip() or done.stdout.strip()}")
    return done.stdout


def ruff_formatted(name: str, text: str) -> str:
    """A Python file as lm-eval's lint leaves it: imports sorted (ruff's isort rule, lm-eval's settings), then formatted."""
    if not name.endswith(".py"):
        return text
    return _ruff(["format", "--quiet"], name, _ruff(["check", "--fix", "--quiet", "--exit-zero", "--select", "I", *RUFF_ISORT], name, text))


def planned_lm_eval(name: str) -> ExportedFolder:
    """``name``'s lm-eval folder as it will be written (nothing written yet)."""
    files = source_files(LM_EVAL_SOURCE / name)
    modules = imported_modules([text for file, text in files.items() if file.endswith(".py")], {f"{SOURCE_PREFIX}{name}.": LMMS_EVAL_TASK_DIR / name, HELPER_PREFIX: HELPER_SOURCE})
    if set(files) & set(modules):
        raise ExportError(f"{name}'s lm-eval folder and the modules it imports both have {', '.join(sorted(set(files) & set(modules)))}")
    exported = {file: checked(file, ruff_formatted(file, upstream_text(text, name, LM_EVAL_PREFIX)), LM_EVAL_WORDS) for file, text in sorted({**files, **modules}.items())}
    return ExportedFolder(name, LM_EVAL_TASKS_DIR / name, exported, {})


def task_table_row(name: str) -> str:
    """The benchmark's row of lm-eval's task table."""
    return f"| [{name}]({name}/README.md) | {facts_of(benchmarks.get(name)).lm_eval_description} | English |"


def with_row(text: str, name: str) -> str:
    """lm-eval's task table with the benchmark's row, before the first whose task family sorts after it (replacing one
    an earlier export wrote)."""
    lines = [line for line in text.splitlines() if not ((m := _ROW.match(line)) and m.group(2) == f"{name}/README.md")]
    rows = [(i, row) for i, line in enumerate(lines) if (row := _ROW.match(line))]
    if not rows:
        raise ExportError(f"{TASK_TABLE} has no table of task families; add the row by hand:\n{task_table_row(name)}")
    at = next((i for i, row in rows if row.group(1).lower() > name), rows[-1][0] + 1)
    rule = next(line for line in lines if re.fullmatch(r"\|(-+\|)+", line.strip()))  # the table's columns, as its rows pad them
    cells = task_table_row(name).strip("|").split(" | ")
    lines[at:at] = ["| " + " | ".join(cell.strip().ljust(len(dashes) - 2) for cell, dashes in zip(cells, rule.strip("|").split("|"), strict=True)) + " |"]
    return "\n".join(lines) + "\n"


def export_lm_eval_folders(names: Sequence[str], output: Path) -> list[ExportedFolder]:
    """Write the lm-eval folders of ``names`` under ``output`` (e.g. an lm-eval checkout), with their rows in the task
    table where ``output`` holds it; returns them with their paths under ``output``."""
    folders = write_folders(names, output, lm_eval_benchmarks(), planned_lm_eval)
    table = table_written(output)
    if table is not None:
        for folder in folders:
            table.write_text(with_row(table.read_text(encoding="utf-8"), folder.benchmark), encoding="utf-8")
    return folders


def table_written(output: Path) -> Path | None:
    """lm-eval's task table under ``output``, or None (no lm-eval checkout: the row goes in by hand)."""
    return Path(output) / TASK_TABLE if (Path(output) / TASK_TABLE).is_file() else None
