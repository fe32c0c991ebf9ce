import os
from pathlib import Path

import pytest

CATBENCH_VAL = Path(__file__).resolve().parent / "data" / "catbench" / "val"  # see data/catbench/PROVENANCE.md


@pytest.fixture(autouse=True)
def _offline(monkeypatch):
    """Tests never reach the hub, and data locations only come from each test."""
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    for name in list(os.environ):
        if name.startswith(("CATBENCH_", "TEMPVS_", "ISOBENCH_")):
            monkeypatch.delenv(name)


@pytest.fixture(scope="session")
def catbench_val() -> Path:
    if not CATBENCH_VAL.is_dir():
        pytest.fail(f"the real CaT-Bench validation split is expected at {CATBENCH_VAL}")
    return CATBENCH_VAL
