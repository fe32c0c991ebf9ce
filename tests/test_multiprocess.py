"""Two processes (accelerate on the CPU) give exactly the metrics of one: the joins (TC pairs, OCC
twins) gather across ranks, whatever the sharding, and an odd doc count exercises padding."""

import pytest

from temporal_bench.catbench.fixtures import write_fixture as write_catbench
from temporal_bench.isobench.fixtures import write_fixture as write_isobench
from tests.harness import lmms_eval

CASES = {
    # --limit 71 leaves an odd number of docs and cuts one TC/OCC partner
    "catbench": ("CATBENCH_DATA_DIR", write_catbench, ["catbench_switched", "catbench_sc"], ["--limit", "71"]),
    "isobench": ("ISOBENCH_DATA_DIR", write_isobench, ["isobench", "isobench_cot"], ["--limit", "15"]),
}


def _metrics(results):
    return {task: {k: v for k, v in values.items() if k != "alias"} for task, values in results["results"].items()}


@pytest.mark.parametrize("benchmark", sorted(CASES))
def test_two_processes_equal_one(tmp_path, benchmark):
    env_var, write, tasks, extra = CASES[benchmark]
    env = {env_var: str(write(tmp_path / "data"))}
    args = dict(model="random_choice", model_args="seed=7", env=env, extra=extra)
    one = lmms_eval(tmp_path / "one", tasks, **args)
    two = lmms_eval(tmp_path / "two", tasks, processes=2, **args)
    assert _metrics(one) == _metrics(two)
    assert one["n-samples"] == two["n-samples"]
    assert two["n-samples"][tasks[0]]["effective"] == int(extra[1])
    if benchmark == "catbench":
        assert 0 < one["results"]["catbench_switched"]["tc,none"] < 1
