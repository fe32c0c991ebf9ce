"""Python lines of each exported task folder (issue 25: upstream's median folder has about 220), written
into benchmarks/RESULTS.md's "Exported folder size" section.

Lines are the non-blank lines of the folder's ``*.py`` files (docstrings and comments included, as a
reviewer reads them); the shared helpers' folder is counted once, on its own row.

    .venv/bin/python benchmarks/export_size.py            # prints the table
    .venv/bin/python benchmarks/export_size.py --write    # and replaces the table in RESULTS.md
"""

import argparse
import re
import sys
import tempfile
from pathlib import Path
from typing import List, Tuple

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from temporal_bench.export.source_modules import SHARED_FOLDER  # noqa: E402
from temporal_bench.export.task_folder import UPSTREAM_TASKS_DIR, export_task_folders  # noqa: E402

RESULTS = REPO / "benchmarks" / "RESULTS.md"
BEGIN, END = "<!-- export_size.py: begin -->", "<!-- export_size.py: end -->"


def folder_size(folder: Path) -> Tuple[int, int]:
    """(Python files, their non-blank lines)."""
    files = sorted(folder.glob("*.py"))
    return len(files), sum(1 for path in files for line in path.read_text(encoding="utf-8").splitlines() if line.strip())


def size_table() -> List[str]:
    with tempfile.TemporaryDirectory() as tmp:
        folders = export_task_folders(["tempvs", "isobench", "catbench"], Path(tmp))
        rows = [(f"`{f.benchmark}/`", *folder_size(f.path)) for f in folders]
        rows.append((f"`{SHARED_FOLDER.as_posix()}/` (shared, once)", *folder_size(Path(tmp) / UPSTREAM_TASKS_DIR / SHARED_FOLDER)))
    total = ("all", sum(r[1] for r in rows), sum(r[2] for r in rows))
    return ["| folder | Python files | non-blank lines |", "|---|---|---|", *(f"| {name} | {files} | {lines:,} |" for name, files, lines in [*rows, total])]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help=f"replace the table between the markers in {RESULTS.name}")
    args = parser.parse_args()
    table = "\n".join(size_table())
    print(table)
    if args.write:
        text = RESULTS.read_text(encoding="utf-8")
        if BEGIN not in text:
            raise SystemExit(f"{RESULTS}: no {BEGIN} marker")
        RESULTS.write_text(re.sub(rf"{re.escape(BEGIN)}.*?{re.escape(END)}", lambda _: f"{BEGIN}\n{table}\n{END}", text, flags=re.S), encoding="utf-8")


if __name__ == "__main__":
    main()
