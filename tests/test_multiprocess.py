"""Two processes (accelerate on the CPU) give exactly the metrics of one: the joins (TC pairs, OCC
twins) gather across ranks, whatever the sharding, and an odd doc count exercises padding."""

import pytest

from temporal_bench.catbench.fixtures import write_fixture
from tests.harness import lmms_eval

TASKS = ["catbench_switched", "catbench_sc"]


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    return {"CATBENCH_DATA_DIR": str(write_fixture(tmp_path_factory.mktemp("catbench")))}


def _metrics(results):
    return {task: {k: v for k, v in values.items() if k != "alias"} for task, values in results["results"].items()}


def test_two_processes_equal_one(tmp_path, env):
    # --limit 71 leaves an odd number of docs and cuts one TC/OCC partner
    extra = ["--limit", "71"]
    one = lmms_eval(tmp_path / "one", TASKS, model="random_choice", model_args="seed=7", env=env, extra=extra)
    two = lmms_eval(tmp_path / "two", TASKS, model="random_choice", model_args="seed=7", env=env, extra=extra, processes=2)
    assert _metrics(one) == _metrics(two)
    assert one["n-samples"] == two["n-samples"]
    assert two["n-samples"]["catbench_switched"]["effective"] == 71
    assert 0 < one["results"]["catbench_switched"]["tc,none"] < 1
