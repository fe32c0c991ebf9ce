"""Synthetic benchmarks at the papers' full size, written once into a work folder.

Each generator returns the environment variables that point the tasks at its data.
"""

from pathlib import Path
from typing import Callable, Dict

from temporal_bench.catbench.fixtures import synthetic_pairs, write_release_split
from temporal_bench.isobench.fixtures import write_fixture as write_isobench


def catbench(root: Path) -> Dict[str, str]:
    """The test split's size: 1,420 step pairs = 2,840 questions (+1,420 NonDep-S twins)."""
    split = root / "test_must_why"
    if not split.is_dir():
        write_release_split(split, synthetic_pairs("test", n_plans=71, pairs_per_class=10))
    return {"CATBENCH_DATA_DIR": str(root), "CATBENCH_SPLIT": "test"}


def isobench(root: Path) -> Dict[str, str]:
    """764 rows with the paper's Table 2 counts (json + image files)."""
    if not (root / "isobench.json").is_file():
        write_isobench(root, layout="json", n=764)
    return {"ISOBENCH_DATA_DIR": str(root)}


GENERATORS: Dict[str, Callable[[Path], Dict[str, str]]] = {"catbench": catbench, "isobench": isobench}
TASK_BENCHMARK = {"catbench": "catbench", "catbench_switched": "catbench", "isobench": "isobench", "isobench_cot": "isobench"}
