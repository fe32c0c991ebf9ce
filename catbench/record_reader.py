"""How CaT-Bench's logged records read (temporal_bench/runs/records.py, data_read.py): each record with the step
distance and plan its question id names and the close/distant threshold its task recorded; a question's identity
is its id, its gold answer and the plan's steps as the prompt shows them (every prompt mode shows them alike), over
the real questions (the switched twins follow from them); the counts are those of the released splits: questions,
plans, Dep, before and close at distance <= 3 (paper §3), and the Dep questions at distance <= 3 and the plans with
Dep and with NonDep pairs (counted on the release), which a copy with gold labels swapped between the classes
changes. The paper's tables are on the test split: a run of another split gets no verdict."""

from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.yes_no import INVALID, YES
from temporal_bench.lmms_eval_tasks.plugin.catbench.release import how_to_select
from temporal_bench.runs.lines import logged_prompt
from temporal_bench.runs.record_reader import RecordReader

SYNTHETIC_TITLE = "synthetic "  # the plans this package generates (catbench/fixtures.py)
# the content fingerprint (temporal_bench/runs/data_read.py) of each released split's real questions, as `check` prints
# it for a run of the split (docs/uncertainty.md#recording-a-releases-fingerprint); both from the official repository
# github.com/Anjali295/CatBench at commit f6f2639: the test split data/test_must_why/ (benchmarks/verdict_gate.py runs
# it) and the validation split data/val_must_why/ (its copy tests/data/catbench/val, tests/tooling/test_data_identity.py)
RELEASE_FINGERPRINTS = {"test": "054ba7e37da92442", "validation": "eb8dc542f95f9099"}
RELEASE_COUNTS = {
    "test": {"questions": 2840, "plans": 57, "dep": 1420, "before": 1420, "close": 1256, "dep_close": 644, "dep_plans": 56, "nondep_plans": 41},
    "validation": {"questions": 1616, "plans": 28, "dep": 808, "before": 808, "close": 746, "dep_close": 366, "dep_plans": 28, "nondep_plans": 25},
}
PAPER_SPLIT = "test"  # the split of the paper's tables


class CatBenchRecords(RecordReader):
    counts_are_exact = True  # a copy of other counts is not the release (check fails it)

    def normalise(self, record: dict, config: dict, model_config: dict) -> dict:
        title, a, b = record["pair_id"].rsplit("|", 2)
        threshold = (config.get("metadata") or {}).get("close_max_distance", 3)
        return {**record, "plan": title, "distance": int(b) - int(a), "close_max_distance": threshold}

    def question(self, record: dict, line: dict, config: dict, model_config: dict) -> str | None:
        if record["variant"] != "real":
            return None
        procedure = logged_prompt(line).rsplit("Procedure:\n", 1)[-1].split("\n\n\n", 1)[0]
        return f"{record['question_id']}|{record['gold']}|{procedure}"

    def counts(self, records: list[dict], config: dict) -> dict[str, int]:
        real = [r for r in records if r["variant"] == "real"]
        dep = [r for r in real if r["gold"] == YES]
        return {
            "questions": len(real),
            "plans": len({r["plan"] for r in real}),
            "dep": len(dep),
            "before": sum(r["relation"] == "before" for r in real),
            "close": sum(r["distance"] <= 3 for r in real),
            "dep_close": sum(r["distance"] <= 3 for r in dep),
            "dep_plans": len({r["plan"] for r in dep}),
            "nondep_plans": len({r["plan"] for r in real if r["gold"] != YES}),
        }

    def synthetic(self, records: list[dict], lines: list[dict]) -> bool:
        return bool(records) and all(r["plan"].startswith(SYNTHETIC_TITLE) for r in records)

    def invalid(self, record: dict) -> bool:
        return record["pred"] == INVALID

    def split(self, config: dict) -> str:
        """The split a task evaluated: lmms-eval's ``test_split``, lm-eval's ``data_split`` setting."""
        metadata = config.get("metadata") or {}
        return str(metadata.get("data_split") or config.get("test_split") or "test")

    def not_judged(self, config: dict) -> str | None:
        """Why no run of this task is held against the paper's tables whatever its data: they are on the test split."""
        split = self.split(config)
        return f"it evaluated the {split} split; the paper's tables are on the {PAPER_SPLIT} split" if split != PAPER_SPLIT else None

    def release_counts(self, config: dict) -> dict[str, int] | None:
        return RELEASE_COUNTS.get(self.split(config))

    def count_hint(self, counts: dict[str, int], config: dict) -> str | None:
        """Which released split has the counts read, when it is not the split the task evaluated."""
        split = next((name for name, known in RELEASE_COUNTS.items() if known == counts and name != self.split(config)), None)
        return f"these are the released {split} split's counts: run {how_to_select(split)} to evaluate it as such" if split else None

    def release_fingerprint(self, config: dict) -> str | None:
        return RELEASE_FINGERPRINTS.get(self.split(config))

    def no_counts_reason(self, config: dict) -> str:
        return f"the paper publishes no counts of the {self.split(config)!r} split"
