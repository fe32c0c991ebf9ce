"""A toy fourth benchmark, defined in the test folder only: what its (imaginary) paper reports, as the
generic layers read it. tests/tooling/test_toy_benchmark.py registers it and runs report, compare, browse and export on it."""

from collections import defaultdict
from pathlib import Path

import numpy as np

from temporal_bench.benchmarks import Benchmark
from temporal_bench.browse.benchmarks import BenchmarkCards, Facts
from temporal_bench.manifest import Manifest
from temporal_bench.report.cluster_stats import ClusterStats, ratio
from temporal_bench.report.figures import Figure
from temporal_bench.report.layouts import Column, Layout, Setting
from temporal_bench.runs.record_reader import RecordReader

TASK_FOLDER = Path(__file__).parent / "task"
TOY_A = Setting.of("A", "toy_order")

TOY_TABLE1 = Layout(
    name="toy-table1",
    title="Toy Table 1: accuracy, %",
    benchmark="toy",
    settings=(TOY_A,),
    columns=(Column("Acc (%)", "acc", "accuracy", 100.0, 1),),
    published=("toy", "1"),
    rank_by="acc",
)

TOY_FIGURE1 = Figure(name="toy-figure1", benchmark="toy", title="Toy Figure 1: accuracy", setting=TOY_A, metrics=(("all", "accuracy"),), xlabel="questions", ylabel="accuracy (%)")


def _counts(records: list[dict]) -> dict[str, np.ndarray]:
    """One cluster per question: (right, asked)."""
    counts: dict[str, np.ndarray] = defaultdict(lambda: np.zeros(2))
    for record in records:
        counts[record["id"]] += (record["correct"], 1)
    return dict(counts)


class ToyRecords(RecordReader):
    """Its release: the six questions of the task folder's data (counted: no fingerprint of it recorded)."""

    counts_are_exact = True

    def counts(self, records: list[dict], config: dict) -> dict[str, int]:
        return {"questions": len(records)}

    def release_counts(self, config: dict) -> dict[str, int]:
        return {"questions": 6}


class ToyCards(BenchmarkCards):
    name = "Toy-Bench"
    record_fields = ("id", "correct")
    headline = (("accuracy", "Acc", "questions answered right"),)

    def facts(self, record: dict) -> Facts:
        return Facts(record["id"], "yes/no question")


BENCHMARK = Benchmark(
    Manifest(name="toy", title="Toy-Bench", paper=__name__, upstream="tests.toy_benchmark.upstream", task_folder=str(TASK_FOLDER)),
    layouts=(TOY_TABLE1,),
    figures=(TOY_FIGURE1,),
    published=Path(__file__).parent / "published",
    cluster_stats=ClusterStats(
        name="toy", stats=("right", "asked"), metrics={"accuracy": lambda c: ratio(c[..., 0], c[..., 1])}, headline=("accuracy",), identity=lambda r: r["id"], counts=_counts, support={"accuracy": lambda c: c[..., 1]}
    ),
    cards=ToyCards(),
    record_reader=ToyRecords(),
)
