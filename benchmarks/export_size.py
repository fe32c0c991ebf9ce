"""Python lines of each exported task folder against issue 32's budget (TempVS 900, CaT-Bench 400, ISO-Bench 350, the
shared helpers 250), written into benchmarks/RESULTS.md's "Exported folder size" section.

Lines are the non-blank lines of the folder's ``*.py`` files (docstrings and comments included, as a reviewer reads
them); a converter script shipped in the folder (``*_to_hf.py``, as upstream's ``hd_epic/hd_epic_to_hf.py``) counts
apart; the shared helpers' folder is counted once, on its own row.

    .venv/bin/python benchmarks/export_size.py            # prints the table
    .venv/bin/python benchmarks/export_size.py --write    # and replaces the table in RESULTS.md
"""

import argparse
import sys
import tempfile
from pathlib import Path
from typing import List, Tuple

from results_section import replace_table

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from temporal_bench.export.task_folder import SHARED_FOLDER, UPSTREAM_TASKS_DIR, export_task_folders  # noqa: E402

BUDGET = {"tempvs": 900, "catbench": 400, "isobench": 350, SHARED_FOLDER.as_posix(): 250}


def _lines(path: Path) -> int:
    return sum(1 for line in path.read_text(encoding="utf-8").splitlines() if line.strip())


def folder_size(folder: Path) -> Tuple[int, int, int]:
    """(Python files, their non-blank lines without the converter, the converter's)."""
    files = sorted(folder.glob("*.py"))
    converters = [path for path in files if path.name.endswith("_to_hf.py")]
    return len(files), sum(_lines(path) for path in files if path not in converters), sum(_lines(path) for path in converters)


def size_table() -> List[str]:
    with tempfile.TemporaryDirectory() as tmp:
        export_task_folders(["tempvs", "isobench", "catbench"], Path(tmp))
        folders = [(name, Path(tmp) / UPSTREAM_TASKS_DIR / name) for name in ("tempvs", "isobench", "catbench", SHARED_FOLDER.as_posix())]
        rows = [(name, *folder_size(path)) for name, path in folders]
    lines = ["| folder | Python files | non-blank lines (converter apart) | budget | converter `*_to_hf.py` |", "|---|--:|--:|--:|--:|"]
    for name, files, lines_, converter in rows:
        within = "within" if lines_ <= BUDGET[name] else "**over**"
        lines.append(f"| `{name}/` | {files} | {lines_:,} | {BUDGET[name]:,} ({within}) | {converter:,} |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help="replace the table between the markers in RESULTS.md")
    args = parser.parse_args()
    table = "\n".join(size_table())
    print(table)
    if args.write:
        replace_table("export_size.py", table)


if __name__ == "__main__":
    main()
