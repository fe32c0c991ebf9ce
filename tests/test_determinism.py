"""Two runs with the same seed write the same results JSON, apart from timestamps and the memory
addresses lmms-eval prints in its function reprs (``<function f at 0x7f...>``)."""

import json
import re

from temporal_bench.catbench.fixtures import write_fixture
from tests.harness import lmms_eval

TIMING_KEYS = {"date", "start_time", "end_time", "total_evaluation_time_seconds"}
ADDRESS = re.compile(r" at 0x[0-9a-f]+")


def _flatten(value, prefix=""):
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _flatten(item, f"{prefix}/{key}")
    elif prefix.rsplit("/", 1)[-1] not in TIMING_KEYS:
        yield prefix, ADDRESS.sub(" at 0x", json.dumps(value, sort_keys=True))


def test_same_seed_same_results(tmp_path):
    env = {"CATBENCH_DATA_DIR": str(write_fixture(tmp_path / "data"))}
    first, second = (dict(_flatten(lmms_eval(tmp_path, ["catbench_switched", "catbench_sc"], model="random_choice",
                                             model_args="seed=3", env=env))) for _ in range(2))
    assert first == second
    assert first["/results/catbench_switched/f1_macro,none"] != "null"
