"""Two processes (accelerate on the CPU) give exactly the metrics of one: the joins (TC pairs, OCC
twins, TempVS's main-to-grounding join, also across MT2 and MT3 sharing their grounding questions, and
``--tasks tempvs``, whose one task holds both)
gather across ranks, whatever the sharding, and an odd doc count exercises padding; TempVS's
breakdowns (from the samples) agree too, and ``--limit`` keeps every kept main question's grounding
partners. The benchmarks are evaluated in one run of each kind."""

import pytest

from temporal_bench.catbench.fixtures import write_fixture as write_catbench
from temporal_bench.isobench.fixtures import write_fixture as write_isobench
from temporal_bench.runs.logged import find_runs
from temporal_bench.tempvs.breakdowns import breakdown_metrics
from tests.harness import lmms_eval
from tests.task_docs import task_docs
from tests.tempvs_fixture_copies import write_tempvs

# --limit 71 leaves an odd number of CaT-Bench docs and cuts one TC/OCC partner; ISO-Bench's 15 docs
# (an odd number too: the first 15 of the default 16) are all below it
LIMIT = 71
CASES = {  # benchmark -> (data env var, fixture writer, tasks, docs evaluated of the first task)
    "catbench": ("CATBENCH_DATA_DIR", write_catbench, ["catbench_switched", "catbench_sc"], LIMIT),
    "isobench": ("ISOBENCH_DATA_DIR", lambda root: write_isobench(root, n=15), ["isobench", "isobench_cot"], 15),
    "tempvs": ("TEMPVS_DATA_DIR", write_tempvs, ["tempvs_ordering_event", "tempvs_mt1_two", "tempvs"], LIMIT),
}


def _metrics(results):
    return {task: {k: v for k, v in values.items() if k != "alias"} for task, values in results["results"].items()}


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    return tmp_path_factory.mktemp("multiprocess")


@pytest.fixture(scope="module")
def one_and_two(base):
    """The seeded baseline on every case's tasks, in one process and in two: (results of one, of two);
    their files are under ``base / {one,two} / lmms_eval_out``."""
    env = {env_var: str(write(base / "data" / benchmark)) for benchmark, (env_var, write, _, _) in CASES.items()}
    tasks = [task for _, _, case_tasks, _ in CASES.values() for task in case_tasks]
    args = dict(model="random_choice", model_args="seed=7", env=env, extra=["--limit", str(LIMIT)])
    return lmms_eval(base / "one", tasks, **args), lmms_eval(base / "two", tasks, processes=2, **args)


def _breakdowns(base, run, task):
    """The task's every TempVS metric key, from the run's logged records (as `temporal-bench report` does)."""
    return breakdown_metrics(task, find_runs(base / run / "lmms_eval_out")[0].records(task))


@pytest.mark.parametrize("benchmark", sorted(CASES))
def test_two_processes_equal_one(one_and_two, benchmark):
    _, _, tasks, effective = CASES[benchmark]
    one, two = one_and_two
    assert _metrics(one) == _metrics(two)
    assert one["n-samples"] == two["n-samples"]
    assert two["n-samples"][tasks[0]]["effective"] == effective
    if benchmark == "catbench":
        assert 0 < one["results"]["catbench_switched"]["tc,none"] < 1
    if benchmark == "tempvs":  # a single task and --tasks tempvs, whose join reads grounding answers gathered from every process
        assert 0 < one["results"]["tempvs_ordering_event"]["mt2_gt_acc,none"] < 1
        assert 0 < one["results"]["tempvs"]["mt1_two_gt_acc,none"] < 1 and one["results"]["tempvs"]["mt1_two_gtstrict_rate,none"] is not None


@pytest.mark.parametrize("task", CASES["tempvs"][2])
def test_tempvs_breakdowns_agree_and_limit_keeps_grounding_partners(one_and_two, base, task):
    one, _ = one_and_two
    assert _breakdowns(base, "one", task) == _breakdowns(base, "two", task)
    docs = task_docs(task, base / "data" / "tempvs")[:LIMIT]
    present = {(d["source"], d["question_id"]) for d in docs if d["kind"] == "grounding"}
    lacking = sum(1 for d in docs if d["kind"] == "main" and not {(d["source"], q) for q in d["partners"]} <= present)
    # docs come per sequence, grounding first: a limit keeps the partners of every main question it
    # keeps (a cut partner would be counted here and left out of GT_strict, test_tempvs_metrics)
    values = _breakdowns(base, "one", task)
    assert sum(v for k, v in values.items() if k.endswith("gt_missing_count")) == lacking == 0
    assert sum(v for k, v in values.items() if k.endswith("main_count")) == sum(d["kind"] == "main" for d in docs) > 0
    assert one["n-samples"][task]["effective"] == LIMIT
