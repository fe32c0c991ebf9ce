"""The runs ``temporal-bench compare`` is checked on (tests/tooling/test_compare.py): the oracle on TempVS (MT1 and the
ordering task, whose tests are compared one by one), and the random baseline on ``catbench_switched`` under
``--limit``. The runs on different ISO-Bench data: tests/recorded/data_identity.py."""

import functools

from temporal_bench.catbench.fixtures import write_fixture as write_catbench
from tests.recorded import recording
from tests.tempvs_fixture_copies import write_tempvs

TEMPVS_TASKS = ["tempvs_mt1_two", "tempvs_ordering_event"]
LIMIT = 20


@recording("compare_tempvs_oracle", TEMPVS_DATA_DIR=functools.partial(write_tempvs, n_sequences=8))
def tempvs_oracle(recorder):
    """The oracle on MT1 two-event and the ordering task."""
    recorder.lmms_eval(TEMPVS_TASKS)


@recording("compare_catbench_limited", CATBENCH_DATA_DIR=functools.partial(write_catbench, n_plans=LIMIT, pairs_per_class=1))
def catbench_limited(recorder):
    """The issue's case: ``catbench_switched`` under ``--limit``, whose first docs are Dep questions of 20 plans (no
    NonDep question, no twin)."""
    recorder.lmms_eval(["catbench_switched"], model="random_choice", model_args="seed=1", extra=["--limit", str(LIMIT)])
