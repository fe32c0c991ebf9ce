"""Two runs with the same seed write the same results JSON, apart from timestamps and the memory
addresses lmms-eval prints in its function reprs (``<function f at 0x7f...>``), for each benchmark.
The two runs evaluate the three benchmarks together (one pair of CLI runs for the module)."""

import json
import re

import pytest

from temporal_bench.catbench.fixtures import write_fixture as write_catbench
from temporal_bench.isobench.fixtures import write_fixture as write_isobench
from tests.harness import lmms_eval
from tests.tempvs_fixture_copies import write_tempvs

# benchmark -> (data env var, fixture writer, tasks, a metric that must be a number)
BENCHMARKS = {
    "catbench": ("CATBENCH_DATA_DIR", write_catbench, ["catbench_switched", "catbench_sc"], "/results/catbench_switched/f1_macro,none"),
    "isobench": ("ISOBENCH_DATA_DIR", write_isobench, ["isobench"], "/results/isobench/paper_f1_weighted,none"),
    "tempvs": ("TEMPVS_DATA_DIR", lambda root: write_tempvs(root), ["tempvs_mt1_two", "tempvs_mt2_event"], "/results/tempvs_mt1_two/gtstrict_rate,none"),
}

TIMING_KEYS = {"date", "start_time", "end_time", "total_evaluation_time_seconds"}
ADDRESS = re.compile(r" at 0x[0-9a-f]+")


def _flatten(value, prefix=""):
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _flatten(item, f"{prefix}/{key}")
    elif prefix.rsplit("/", 1)[-1] not in TIMING_KEYS:
        yield prefix, ADDRESS.sub(" at 0x", json.dumps(value, sort_keys=True))


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory):
    """The same seeded run twice, every benchmark's tasks in each: (run folder, first, second) flattened."""
    base = tmp_path_factory.mktemp("determinism")
    env = {env_var: str(write(base / benchmark)) for benchmark, (env_var, write, _, _) in BENCHMARKS.items()}
    tasks = [task for _, _, benchmark_tasks, _ in BENCHMARKS.values() for task in benchmark_tasks]
    first, second = (dict(_flatten(lmms_eval(base, tasks, model="random_choice", model_args="seed=3", env=env))) for _ in range(2))
    return base, first, second


@pytest.mark.parametrize("benchmark", sorted(BENCHMARKS))
def test_same_seed_same_results(two_runs, benchmark):
    base, first, second = two_runs
    number = BENCHMARKS[benchmark][3]
    assert len(list(base.glob("lmms_eval_out/**/*_results.json"))) == 2  # two files were compared
    assert first == second
    assert json.loads(first[number]) is not None
