"""The run TempVS's tables in ``temporal-bench report`` are checked on against a golden file
(tests/tooling/test_tempvs_report.py): the random baseline (seed 1234) on the six single TempVS tasks of its synthetic
release (the baseline draws per task and doc, so the golden's numbers are those of the tasks that ask each test
alone)."""

from temporal_bench.lmms_eval_tasks.tempvs.spec import MAIN_TESTS
from tests.recorded import recording
from tests.tempvs_fixture_copies import write_tempvs

TASKS = [f"tempvs_{test}" for test in MAIN_TESTS]


@recording("tempvs_report_random", TEMPVS_DATA_DIR=write_tempvs)
def random_baseline(recorder):
    """The random baseline on each of the six tests alone."""
    recorder.lmms_eval(TASKS, model="random_choice", model_args="seed=1234")
