"""How CaT-Bench's logged records read (temporal_bench/runs/records.py, data_read.py): each record with the step
distance and plan its question id names and the close/distant threshold its task recorded; a question's identity
is its id, its gold answer and the plan's steps as the prompt shows them (every prompt mode shows them alike), over
the real questions (the switched twins follow from them); the counts are the paper's (§3: questions, Dep, before,
close at distance <= 3)."""

from typing import Dict, List, Optional

from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.yes_no import INVALID, YES
from temporal_bench.runs.data_read import logged_prompt

SYNTHETIC_TITLE = "synthetic "  # the plans this package generates (catbench/fixtures.py)
# (questions, Dep, before, close at distance <= 3) of the released splits (paper §3)
# the content fingerprint (temporal_bench/runs/data_read.py) of a released split's real questions, where it is known
# here: the validation split (tests/data/catbench/val, checked by tests/test_data_identity.py)
RELEASE_FINGERPRINTS = {"validation": "1ad346cff3c1ce1f"}
RELEASE_COUNTS = {"test": {"questions": 2840, "dep": 1420, "before": 1420, "close": 1256}, "validation": {"questions": 1616, "dep": 808, "before": 808, "close": 746}}


class CatBenchRecords:
    counts_are_exact = True  # a copy of other counts is not the release (check fails it)
    def normalise(self, record: Dict, config: Dict, model_config: Dict) -> Dict:
        title, a, b = record["pair_id"].rsplit("|", 2)
        threshold = (config.get("metadata") or {}).get("close_max_distance", 3)
        return {**record, "plan": title, "distance": int(b) - int(a), "close_max_distance": threshold}

    def question(self, record: Dict, line: Dict, config: Dict, model_config: Dict) -> Optional[str]:
        if record["variant"] != "real":
            return None
        procedure = logged_prompt(line).rsplit("Procedure:\n", 1)[-1].split("\n\n\n", 1)[0]
        return f"{record['question_id']}|{record['gold']}|{procedure}"

    def counts(self, records: List[Dict], config: Dict) -> Dict[str, int]:
        real = [r for r in records if r["variant"] == "real"]
        return {"questions": len(real), "dep": sum(r["gold"] == YES for r in real), "before": sum(r["relation"] == "before" for r in real), "close": sum(r["distance"] <= 3 for r in real)}

    def synthetic(self, records: List[Dict]) -> Optional[bool]:
        return bool(records) and all(r["plan"].startswith(SYNTHETIC_TITLE) for r in records)

    def invalid(self, record: Dict) -> bool:
        return record["pred"] == INVALID

    def split(self, config: Dict) -> str:
        """The split a task evaluated: lmms-eval's ``test_split``, lm-eval's ``data_split`` setting."""
        metadata = config.get("metadata") or {}
        return str(metadata.get("data_split") or config.get("test_split") or "test")

    def release_counts(self, config: Dict) -> Optional[Dict[str, int]]:
        return RELEASE_COUNTS.get(self.split(config))

    def release_fingerprint(self, config: Dict) -> Optional[str]:
        return RELEASE_FINGERPRINTS.get(self.split(config))

    def no_counts_reason(self, config: Dict) -> str:
        return f"the paper publishes no counts of the {self.split(config)!r} split"
