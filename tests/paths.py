"""Where the suite's own files lie, for the tests in every tier folder."""

from pathlib import Path

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
DATA = TESTS / "data"
CATBENCH_DATA = DATA / "catbench"
CATBENCH_VAL = CATBENCH_DATA / "val"  # the released validation split: data/catbench/PROVENANCE.md
GOLDEN = TESTS / "golden"
