"""Python lines of each exported task folder against its budget (issue 39: TempVS 550, CaT-Bench 300, ISO-Bench 200 and
the helpers they shared 150; since issue 51 each folder holds the helpers it imports: CaT-Bench 350, ISO-Bench 275;
each converter 300, with its release check), written into benchmarks/RESULTS.md's "Exported folder size" section.

Lines are the non-blank lines of the folder's ``*.py`` files (docstrings and comments included, as a reviewer reads
them); a converter script shipped in the folder (``*_to_hf.py``, as upstream's ``hd_epic/hd_epic_to_hf.py``) counts
apart. tests/e2e/test_export.py asserts the budget.

    .venv/bin/python benchmarks/export_size.py            # prints the table
    .venv/bin/python benchmarks/export_size.py --write    # and replaces the table in RESULTS.md
"""

import argparse
import sys
import tempfile
from pathlib import Path
from typing import NamedTuple

from results_section import replace_table

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from temporal_bench.export.task_folder import UPSTREAM_TASKS_DIR, export_task_folders  # noqa: E402

BENCHMARKS = ("tempvs", "catbench", "isobench")
BUDGET = {"tempvs": 550, "catbench": 350, "isobench": 275}
CONVERTER_BUDGET = 300  # issue 39 gave 250; issue 51 added the release check (the paper's counts against those read)


class FolderSize(NamedTuple):
    folder: str
    files: int  # Python files
    lines: int  # their non-blank lines, the converter apart
    converter: int | None  # the converter's non-blank lines (None: the folder has none)

    def within(self) -> bool:
        return self.lines <= BUDGET[self.folder] and (self.converter or 0) <= CONVERTER_BUDGET


def _lines(path: Path) -> int:
    return sum(1 for line in path.read_text(encoding="utf-8").splitlines() if line.strip())


def folder_size(name: str, folder: Path) -> FolderSize:
    files = sorted(folder.glob("*.py"))
    converters = [path for path in files if path.name.endswith("_to_hf.py")]
    if len(converters) > 1:
        raise SystemExit(f"{folder}: {len(converters)} converters; one per release")
    return FolderSize(name, len(files), sum(_lines(path) for path in files if path not in converters), _lines(converters[0]) if converters else None)


def sizes() -> list[FolderSize]:
    """Each exported folder's size (as ``temporal-bench export`` writes them)."""
    with tempfile.TemporaryDirectory() as tmp:
        export_task_folders(list(BENCHMARKS), Path(tmp))
        return [folder_size(name, Path(tmp) / UPSTREAM_TASKS_DIR / name) for name in BENCHMARKS]


def size_table(rows: list[FolderSize]) -> list[str]:
    lines = [f"| folder | Python files | non-blank lines (converter apart) | budget | converter `*_to_hf.py` (budget {CONVERTER_BUDGET}) |", "|---|--:|--:|--:|--:|"]
    for row in rows:
        within = "within" if row.lines <= BUDGET[row.folder] else "**over**"
        converter = "none" if row.converter is None else f"{row.converter:,}" + ("" if row.converter <= CONVERTER_BUDGET else " (**over**)")
        lines.append(f"| `{row.folder}/` | {row.files} | {row.lines:,} | {BUDGET[row.folder]:,} ({within}) | {converter} |")
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help="replace the table between the markers in RESULTS.md")
    args = parser.parse_args(argv)
    table = "\n".join(size_table(sizes()))
    print(table)
    if args.write:
        replace_table("export_size.py", table)


if __name__ == "__main__":
    main()
