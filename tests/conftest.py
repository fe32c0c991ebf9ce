"""The suite's tiers (docs/testing.md): each folder of tests/ is one, marked by its folder name.

* ``unit/``: parsers, metrics, loaders, published tables, the repository's own rules; in-process, no harness run;
* ``upstream/``: the tests the export copies into lmms-eval beside each task folder;
* ``tooling/``: check, report, compare, browse, rescore and intervals on the recorded runs (tests/recorded/);
* ``fidelity/``: the papers' numbers from the released outputs and the statistics' claims in small seeded simulations
  (benchmarks/ runs them at full size), in-process;
* ``e2e/``: the real lmms-eval and lm-eval command lines, fresh interpreters, the wheel, the export, the documented
  commands and the recorded runs' regeneration.

The quick tier (``pytest``, ``bash run_tests.sh --quick``) is the first three; ``bash run_tests.sh`` runs all five.
Nothing here imports a harness: a test that needs one imports it.
"""

import gc
import os
from pathlib import Path

import pytest

from tests import harness_starts
from tests.paths import CATBENCH_VAL, TESTS

TIERS = ("unit", "upstream", "tooling", "fidelity", "e2e")


def pytest_configure(config):
    harness_starts.configure(config)


def pytest_collection_modifyitems(items):
    for item in items:
        tier = Path(item.path).relative_to(TESTS).parts[0]
        if tier in TIERS:
            item.add_marker(tier)


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session, exitstatus):
    """A command line started twice fails the session (counted by the controlling process)."""
    if harness_starts.repeated(harness_starts.read(session.config)) and exitstatus == 0:
        session.exitstatus = 1


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    harness_starts.summarise(terminalreporter, config)


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
    tested on its own: tests/tooling/test_release_gate.py)."""
    from temporal_bench.report import rows
    from temporal_bench.runs.data_read import ReleaseBasis

    monkeypatch.setattr(rows, "release_basis", lambda task, read, config: ReleaseBasis(True, "its data's fingerprint is the release's"))


@pytest.fixture(scope="session")
def catbench_val() -> Path:
    if not CATBENCH_VAL.is_dir():
        pytest.fail(f"the real CaT-Bench validation split is expected at {CATBENCH_VAL}")
    return CATBENCH_VAL


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """A copy of a recorded run by its name (tests/recorded/), made once for the module."""
    from tests.recorded import materialize

    copies = {}

    def copy(name: str):
        if name not in copies:
            copies[name] = materialize(name, tmp_path_factory.mktemp(name))
        return copies[name]

    return copy


@pytest.fixture(scope="session")
def manager():
    """lmms-eval's TaskManager over this package's TempVS tasks."""
    from lmms_eval.tasks import TaskManager

    from temporal_bench.paths import PLUGIN_TASK_DIR

    return TaskManager(include_path=str(PLUGIN_TASK_DIR / "tempvs"), include_defaults=False)


def pytest_collection_finish(session):
    """The objects of every imported module are frozen: the garbage collector's passes in the tests skip them."""
    gc.freeze()
