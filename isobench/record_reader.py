"""How ISO-Bench's logged records read (temporal_bench/runs/records.py, data_read.py): a question's identity is its
id, gold answer and prompt less its prompt mode's instruction line, alike in every mode (the image is fingerprinted
apart, from the file the run logged); the counts are the paper's Table 2 (rows, DEP/NONDEP, before/after and their
crossings, per source); generated data shows the generator's plan steps (isobench/fixtures.py)."""

from collections import Counter
from pathlib import Path

from temporal_bench.isobench.fixtures import GENERATED_STEP
from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.yes_no import INVALID, YES
from temporal_bench.runs.lines import logged_prompt
from temporal_bench.runs.record_reader import RecordReader

# Table 2 of the paper: the full release (App. C: CrossTask 139, YouCook2 the rest)
RELEASE_COUNTS = {"rows": 764, "dep": 383, "nondep": 381, "before": 372, "after": 392, "before_dep": 187, "before_nondep": 185, "after_dep": 196, "after_nondep": 196, "crosstask": 139, "youcook2": 625}


# what only this package's tasks log of an example (lmms_eval_tasks/plugin/isobench/utils.py), unknown in a run of the
# upstream tasks
PACKAGE_FIELDS = ("goal", "plan_id", "source", "distance_class")


class IsoBenchRecords(RecordReader):
    counts_are_exact = True  # a copy of other counts is not the release (check fails it)
    generated_text = GENERATED_STEP

    def normalise(self, record: dict, config: dict, model_config: dict) -> dict:
        return {**dict.fromkeys(PACKAGE_FIELDS), **record}

    def question(self, record: dict, line: dict, config: dict, model_config: dict) -> str:
        return f"{record['id']}|{record['gold']}|{logged_prompt(line).rsplit(chr(10), 1)[0]}"  # the prompt less its mode's instruction line

    def counts(self, records: list[dict], config: dict) -> dict[str, int]:
        counts: Counter[str] = Counter()
        for record in records:
            dependency = "dep" if record["gold"] == YES else "nondep"
            counts.update([dependency, record["relation"], f"{record['relation']}_{dependency}", str(record.get("source") or "unknown source")])
        return {"rows": len(records), **{key: counts[key] for key in RELEASE_COUNTS if key != "rows"}}

    def invalid(self, record: dict) -> bool:
        return record["pred"] == INVALID

    def data_folder(self, images: Path) -> Path | None:
        """The data folder above the images the run read: the nearest holding a data file or a saved dataset."""
        return next((parent for parent in [images, *images.parents] if (parent / "dataset_dict.json").is_file() or any(parent.glob("*.json*")) or any(parent.glob("*.parquet"))), None)

    def release_counts(self, config: dict) -> dict[str, int] | None:
        return RELEASE_COUNTS
