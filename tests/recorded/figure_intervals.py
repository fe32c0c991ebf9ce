"""The run the figures' intervals are checked on (tests/tooling/test_figure_intervals.py): the test model answering
by request hash (some answers unparseable) on the synthetic data of all three benchmarks, in the settings the figures
set side by side."""

import functools

from temporal_bench.catbench.fixtures import write_fixture as write_catbench
from temporal_bench.isobench.fixtures import write_fixture as write_isobench
from tests.recorded import recording
from tests.tempvs_fixture_copies import write_tempvs

TASKS = ["catbench_switched", "catbench_explain_switched", "tempvs_mt1_two", "isobench", "isobench_cot"]


@recording(
    "figure_intervals",
    CATBENCH_DATA_DIR=functools.partial(write_catbench, n_plans=6),
    TEMPVS_DATA_DIR=functools.partial(write_tempvs, n_sequences=10),
    ISOBENCH_DATA_DIR=functools.partial(write_isobench, layout="json", n=48),
)
def figure_intervals(recorder):
    """The test model answering by request hash on every task."""
    recorder.lmms_eval(TASKS, model="request_hash", model_args="")
