"""The calibration of ``temporal-bench compare``'s paired cluster permutation test on simulated run pairs with each
benchmark's dependence structure (benchmarks/simulated_runs.py), seeded and small: its type-I error near 5%, its power
at a real effect, and why exact McNemar was dropped. The full-size figures are benchmarks/compare_calibration.py's
(benchmarks/RESULTS.md)."""

import sys

import numpy as np
import pytest
from scipy.stats import binomtest

from temporal_bench.lmms_eval_tasks.tempvs.metrics import judge
from temporal_bench.report.compare import compare_records
from temporal_bench.report.paired_test import ALPHA
from tests.paths import REPO
from tests.tempvs_fixture_copies import write_tempvs

sys.path.insert(0, str(REPO / "benchmarks"))
from simulated_runs import Answers, catbench, isobench, run_pair, tempvs  # noqa: E402

PAIRS = 30  # the full-size figures: benchmarks/compare_calibration.py (benchmarks/RESULTS.md)


@pytest.fixture(scope="module")
def structures(tmp_path_factory):
    root = write_tempvs(tmp_path_factory.mktemp("calibration") / "tempvs", n_sequences=40)
    return [*tempvs(root, "tempvs_mt1_two"), *tempvs(root, "tempvs_ordering_event"), catbench(), isobench()]


def _rejections(structures, shift: float, seed: int) -> dict:
    """Per benchmark: the share of its rows with p < ALPHA over PAIRS simulated pairs."""
    rng = np.random.default_rng(seed)
    found: dict = {}
    for _ in range(PAIRS):
        for structure in structures:
            rows, _ = compare_records(structure.name, *run_pair(structure, Answers(), shift, rng))
            name = structure.name.split("_")[0]
            hits, total = found.get(name, (0, 0))
            found[name] = (hits + sum(row.test.p < ALPHA for row in rows), total + len(rows))
    return {name: hits / total for name, (hits, total) in found.items()}


def test_type_one_error_is_near_five_percent_for_every_benchmark(structures):
    rates = _rejections(structures, 0.0, seed=11)
    assert all(0.02 <= rate <= 0.1 for rate in rates.values()), rates  # 30 pairs: near 5% (1,000 pairs: 3.4-5.6%, RESULTS.md)
    assert rates == pytest.approx({"tempvs": 19 / 360, "catbench": 10 / 150, "isobench": 7 / 90}, abs=1e-12)  # seeded


def test_exact_mcnemar_on_the_same_pairs_rejects_a_true_null_far_too_often(structures):
    """Why compare no longer uses it: GT_strict outcomes of a true and a false statement with the same
    grounding questions are identical, so McNemar counts the same evidence twice (about 20%, not 5%)."""
    rng = np.random.default_rng(11)
    rejected = 0
    for _ in range(PAIRS):
        a, b = ({r["key"]: r["strict"] for r in judge(run) if r["complete"]} for run in run_pair(structures[0], Answers(), 0.0, rng))
        only_a, only_b = sum(a[k] and not b[k] for k in a), sum(b[k] and not a[k] for k in a)
        rejected += only_a + only_b > 0 and binomtest(only_a, only_a + only_b, 0.5).pvalue < ALPHA
    assert rejected / PAIRS > 0.15 and rejected == 7  # seeded


def test_power_at_a_real_effect(structures):
    rates = _rejections(structures, 0.6, seed=12)  # about +14 points of accuracy at 0.6
    assert rates == pytest.approx({"tempvs": 212 / 360, "catbench": 103 / 150, "isobench": 60 / 90}, abs=1e-12)  # seeded
