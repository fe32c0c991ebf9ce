"""How TempVS's logged records read (temporal_bench/runs/records.py, data_read.py): each record judged under the
branch of the official parser that the run's model picks (lmms_eval_tasks/tempvs/extraction.py ``family_of``; a
text-only run's by the text-only LLMs' rows), with its task's prompt mode; a question's identity is its key, gold
answer and prompt without the image tokens a model's section appends (the images are fingerprinted apart, from the
files the run logged); the counts are the main questions per test and source (paper Table 2); generated data shows the generator's events
(tempvs/fixtures.py)."""

from collections import Counter
from pathlib import Path

from temporal_bench.data_locations import data_folder_above
from temporal_bench.lmms_eval_tasks.plugin.tempvs.extraction import run_family_of
from temporal_bench.lmms_eval_tasks.plugin.tempvs.records import served_records
from temporal_bench.lmms_eval_tasks.tempvs.extraction import UNK
from temporal_bench.lmms_eval_tasks.tempvs.metrics import judge
from temporal_bench.lmms_eval_tasks.tempvs.spec import MAIN_TESTS
from temporal_bench.lmms_eval_tasks.tempvs.tempvs_to_hf import TABLE2
from temporal_bench.runs.lines import logged_prompt
from temporal_bench.runs.record_reader import RecordReader
from temporal_bench.tempvs.fixtures import GENERATED_EVENT

# paper Table 2 per official task id and source (the converter's, lmms_eval_tasks/tempvs/tempvs_to_hf.py): MT1's event
# groups before the text-only-LLM filter (not the questions evaluated), MT2's questions after that filter, MT3's
# questions (one per image sequence)
TABLE2_COUNTS = {spec.task_id: TABLE2[test] for test, spec in MAIN_TESTS.items()}
# the questions a task evaluates per test and source, where Table 2 gives them (MT2, MT3)
PAPER_COUNTS = {test: TABLE2_COUNTS[spec.task_id] for test, spec in MAIN_TESTS.items() if spec.task_id.startswith("ordering")}


def asks_table2_questions(config: dict) -> bool:
    """Whether the task asks the questions Table 2 counts: the standard prompts after the text-only-LLM filter."""
    metadata = config.get("metadata") or {}
    return metadata.get("blind_filter", True) is not False and metadata.get("mode", "standard") == "standard"


def image_token(config: dict, model_config: dict) -> str:
    """The image token the model's section of the task appends to the prompt ("" for none)."""
    sections = config.get("lmms_eval_specific_kwargs") or {}
    section = sections.get(str(model_config.get("model") or ""), sections.get("default")) or {}
    return str(section.get("image_token") or "") if isinstance(section, dict) else ""


class TempVSRecords(RecordReader):
    counts_are_exact = False  # Table 2's counts were not verified on the release: they decide verdicts, not check
    generated_text = GENERATED_EVENT

    def normalise(self, record: dict, config: dict, model_config: dict) -> dict:
        family = run_family_of(f"{model_config.get('model') or ''} {model_config.get('model_args') or ''}", (config.get("metadata") or {}).get("mode") == "blind")
        resolved = {key: value for key, value in record.items() if key not in ("by_family", "correct_by_family")}
        resolved.update(pred=record.get("by_family", {}).get(family, record["pred"]), correct=record.get("correct_by_family", {}).get(family, record["correct"]))
        resolved.setdefault("mode", (config.get("metadata") or {}).get("mode", "standard"))
        return resolved

    def question(self, record: dict, line: dict, config: dict, model_config: dict) -> str:
        prompt, token = logged_prompt(line), image_token(config, model_config)
        while token and prompt.endswith(token):
            prompt = prompt[: -len(token)]
        return f"{record['key']}|{record['gold']}|{prompt}"

    def counts(self, records: list[dict], config: dict) -> dict[str, int]:
        return dict(sorted(Counter(f"{r['test']}/{r['source']}" for r in records if r["kind"] == "main").items()))

    def invalid(self, record: dict) -> bool:
        return record["pred"] == UNK

    def data_folder(self, images: Path) -> Path | None:
        """The release folder above the images the run read."""
        return data_folder_above(images, ("benchmark_pkl", "benchmark"))

    def release_counts(self, config: dict) -> dict[str, int] | None:
        """Table 2's question counts of MT2 and MT3 per source, for the tests the task holds (with the unfiltered data
        or another prompt mode, none)."""
        if not asks_table2_questions(config):
            return None
        metadata = config.get("metadata") or {}
        return {f"{test}/{source}": n for test, counts in PAPER_COUNTS.items() if test in metadata.get("tests", PAPER_COUNTS) for source, n in counts.items() if source in metadata.get("sources", counts)}

    def limited_note(self, records: list[dict], config: dict) -> str | None:
        """What a ``--limit`` left out that changes the metrics: no main question at all (each image sequence's
        grounding questions come first), or main questions without their grounding partners."""
        expanded = [r for record in records for r in (served_records(record) if record.get("serves") else [record])]
        if not any(test in MAIN_TESTS for test in (config.get("metadata") or {}).get("tests", ())):
            return None  # a grounding test alone
        if not any(r["kind"] == "main" for r in expanded):
            return f"no main question was asked: the {len(records)} evaluated docs are all grounding questions (each image sequence's grounding questions come before its main questions): a larger --limit asks one"
        missing = sum(not r["complete"] for r in judge(expanded))
        return f"{missing} main question(s) lack evaluated grounding partners: they are left out of gtstrict_rate and mt_given_gtstrict" if missing else None

    def no_counts_reason(self, config: dict) -> str:
        if not asks_table2_questions(config):
            return "Table 2 counts the questions of the standard prompts after the text-only-LLM filter; this task asks others, so its data cannot be checked against the release"
        return "the paper publishes no count of the questions its MT1 tasks evaluate (Table 2 counts the event groups before the text-only-LLM filter): run `tempvs` (all six tests in one task), whose MT2 and MT3 counts Table 2 gives"
