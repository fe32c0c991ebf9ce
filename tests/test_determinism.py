"""Two runs with the same seed write the same results JSON, apart from timestamps and the memory
addresses lmms-eval prints in its function reprs (``<function f at 0x7f...>``), for each benchmark."""

import json
import re
from pathlib import Path

import pytest

from temporal_bench.catbench.fixtures import write_fixture as write_catbench
from temporal_bench.isobench.fixtures import write_fixture as write_isobench
from temporal_bench.tempvs.fixtures import write_fixture as write_tempvs
from tests.harness import lmms_eval

# benchmark -> (data env var, fixture writer, tasks, a metric that must be a number)
BENCHMARKS = {
    "catbench": ("CATBENCH_DATA_DIR", write_catbench, ["catbench_switched", "catbench_sc"], "/results/catbench_switched/f1_macro,none"),
    "isobench": ("ISOBENCH_DATA_DIR", write_isobench, ["isobench"], "/results/isobench/f1_weighted,none"),
    "tempvs": ("TEMPVS_DATA_DIR", lambda root: write_tempvs(root),
               ["tempvs_mt1_two", "tempvs_mt2_event"], "/results/tempvs_mt1_two/gtstrict_rate,none"),
}

TIMING_KEYS = {"date", "start_time", "end_time", "total_evaluation_time_seconds"}
ADDRESS = re.compile(r" at 0x[0-9a-f]+")


def _flatten(value, prefix=""):
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _flatten(item, f"{prefix}/{key}")
    elif prefix.rsplit("/", 1)[-1] not in TIMING_KEYS:
        yield prefix, ADDRESS.sub(" at 0x", json.dumps(value, sort_keys=True))


@pytest.mark.parametrize("benchmark", sorted(BENCHMARKS))
def test_same_seed_same_results(tmp_path, benchmark):
    env_var, write, tasks, number = BENCHMARKS[benchmark]
    env = {env_var: str(write(tmp_path / "data"))}
    first, second = (dict(_flatten(lmms_eval(tmp_path, tasks, model="random_choice", model_args="seed=3", env=env)))
                     for _ in range(2))
    assert len(list(tmp_path.glob("lmms_eval_out/**/*_results.json"))) == 2  # two files were compared
    assert first == second
    assert json.loads(first[number]) is not None
