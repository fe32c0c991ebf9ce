"""The marker file of generated data in a benchmark's layout (synthetic data for tests and demos, written by each benchmark's fixtures).

The loaders compare the loaded data with the counts the papers publish (CaT-Bench's split sizes,
ISO-Bench's Table 2) to catch a partial or wrong copy of a real release; on generated data the
difference is by design, so a folder holding the marker is not compared (docs/harness.md
"Synthetic data").
"""

from pathlib import Path
from typing import Optional

from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.data_source import SYNTHETIC_MARKER as MARKER


def mark_synthetic(folder: Path, benchmark: str) -> None:
    (Path(folder) / MARKER).write_text(f"Synthetic {benchmark} data, generated in the benchmark's layout, not a release of it: the loaders do not compare its size with the paper's counts.\n", encoding="utf-8")


def is_synthetic(folder: Optional[Path]) -> bool:
    return folder is not None and (Path(folder) / MARKER).is_file()
