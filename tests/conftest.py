import gc
import os
from pathlib import Path

import pytest

CATBENCH_VAL = Path(__file__).resolve().parent / "data" / "catbench" / "val"  # see data/catbench/PROVENANCE.md
# The slowest files, longest first (measured 2026-11-28 with --durations=0), collected first: with
# pytest-xdist (run_tests.sh: --dist loadfile --no-loadscope-reorder) they start at once instead of
# last, when the other workers are idle; the two longest (the documented commands and the documented
# demo, one file each so that they run side by side: pytest-xdist 3.8's --dist loadgroup does not group under
# pytest 9.2, which no longer reads the node id it rewrites) go one to each worker. Only the suite's speed
# depends on this order.
SLOWEST_FILES = (
    "test_documented_commands.py",
    "test_documented_demo.py",
    "test_export.py",
    "test_tempvs_suite.py",
    "test_interval_coverage.py",
    "test_compare.py",
    "test_tempvs_released_predictions.py",
    "test_packaging.py",
    "test_multiprocess.py",
    "test_catbench_hub.py",
    "test_first_run.py",
    "test_catbench_cli.py",
    "test_failed_requests.py",
    "test_bad_input.py",
    "test_data_identity.py",
    "test_rescore.py",
    "test_tempvs_cli.py",
    "test_release_gate.py",
    "test_harness_shape.py",
    "test_tempvs_data.py",
    "test_browse.py",
    "test_tempvs_report_layouts.py",
    "test_isobench_clusters.py",
    "test_tempvs_image_order.py",
    "test_api_backends.py",
)


def pytest_collection_modifyitems(items):
    rank = {name: position for position, name in enumerate(SLOWEST_FILES)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable: files stay whole, in order


@pytest.fixture(autouse=True)
def _offline(monkeypatch):
    """Tests never reach the hub, and data locations only come from each test."""
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    for name in list(os.environ):
        if name.startswith(("CATBENCH_", "TEMPVS_", "ISOBENCH_")):
            monkeypatch.delenv(name)


@pytest.fixture
def read_as_release(monkeypatch):
    """Every task's data taken for its benchmark's release, results-only and generated data alike, for tests of what
    the report does with a run it judges (the gate itself, temporal_bench/runs/data_read.py ``release_basis``, is
    tested on its own: tests/test_release_gate.py)."""
    from temporal_bench.report import rows
    from temporal_bench.runs.data_read import ReleaseBasis

    monkeypatch.setattr(rows, "release_basis", lambda task, read, config: ReleaseBasis(True, "its data's fingerprint is the release's"))


@pytest.fixture(scope="session")
def catbench_val() -> Path:
    if not CATBENCH_VAL.is_dir():
        pytest.fail(f"the real CaT-Bench validation split is expected at {CATBENCH_VAL}")
    return CATBENCH_VAL


@pytest.fixture(scope="session", autouse=True)
def _task_indexes_on_disk():
    """The TaskManagers a test builds in its worker (rescore's, ``manager``) read the harnesses' task indexes kept on
    disk, as the CLI runs do (tests/preloaded_task_index.py)."""
    import tests.preloaded_task_index  # noqa: F401


@pytest.fixture(scope="session")
def manager():
    """lmms-eval's TaskManager over this package's TempVS tasks."""
    from lmms_eval.tasks import TaskManager

    from temporal_bench.paths import PLUGIN_TASK_DIR

    return TaskManager(include_path=str(PLUGIN_TASK_DIR / "tempvs"))


def pytest_collection_finish(session):
    """The objects of every imported module (torch, lmms-eval ...) are frozen: the garbage collector's passes in the
    tests skip them (a few percent of the in-process tests' time)."""
    gc.freeze()
