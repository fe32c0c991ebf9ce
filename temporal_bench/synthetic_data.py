"""The marker file of generated data in a benchmark's layout (synthetic data for tests and demos, written by each
benchmark's fixtures): a run whose images lie below it read generated data (temporal_bench/runs/data_read.py), which
no published number is held against and whose size is not compared with the papers' counts (docs/harness.md
"Synthetic data")."""

from pathlib import Path

MARKER = "SYNTHETIC_DATA.txt"


def mark_synthetic(folder: Path, benchmark: str) -> None:
    (Path(folder) / MARKER).write_text(f"Synthetic {benchmark} data, generated in the benchmark's layout, not a release of it: its size is not compared with the paper's counts.\n", encoding="utf-8")


def is_synthetic(folder: Path | None) -> bool:
    return folder is not None and (Path(folder) / MARKER).is_file()
