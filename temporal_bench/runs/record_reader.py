"""How the tooling reads a benchmark's logged records (temporal_bench/runs/records.py, data_read.py): the base each
benchmark's ``record_reader`` (its registry entry) overrides where it knows more. With the base alone a task's records
are read as logged, a question is its prompt and gold answer, and no count or fingerprint of the release is known, so
its runs are shown but never held against a paper (docs/adding_a_benchmark.md)."""

from __future__ import annotations

import re
from pathlib import Path

from temporal_bench.runs.lines import logged_prompt


class RecordReader:
    counts_are_exact = False  # True: a copy of other counts than the release's is not the release (check fails it)
    generated_text: re.Pattern[str] | None = None  # text only this package's generator of the benchmark writes into its questions

    def normalise(self, record: dict, config: dict, model_config: dict) -> dict:
        """The record as the run's settings read it (``config``: the task's config, ``model_config``: the run's)."""
        return dict(record)

    def question(self, record: dict, line: dict, config: dict, model_config: dict) -> str | None:
        """What the doc asks, alike in every prompt mode and model class (None: a doc derived from others)."""

        return f"{logged_prompt(line)}|{line.get('target')}"

    def counts(self, records: list[dict], config: dict) -> dict[str, int]:
        """The counts of the data read that the release's are checked against."""
        return {}

    def synthetic(self, records: list[dict], lines: list[dict]) -> bool:
        """Whether the data is this package's generated data by its content, whatever marker file is deleted: at least
        half the logged prompts show the generator's text (:attr:`generated_text`; the marker file tells too)."""
        if self.generated_text is None or not lines:
            return False
        return 2 * sum(self.generated_text.search(logged_prompt(line)) is not None for line in lines) >= len(lines)

    def invalid(self, record: dict) -> bool:
        """Whether the record's answer could not be parsed."""
        return False

    def data_folder(self, images: Path) -> Path | None:
        """The data folder above the images a run read (where ``rescore`` finds the data again)."""
        return None

    def not_judged(self, config: dict) -> str | None:
        """Why no run of this task is held against the paper whatever its data (e.g. another split than its tables')."""
        return None

    def release_fingerprint(self, config: dict) -> str | None:
        """The content fingerprint of the release's data for this task, where it is known here."""
        return None

    def release_counts(self, config: dict) -> dict[str, int] | None:
        """The counts of the release's data for this task, where they are known."""
        return None

    def no_counts_reason(self, config: dict) -> str:
        return "no fingerprint or count of its release is known here"

    def count_hint(self, counts: dict[str, int], config: dict) -> str | None:
        """What the counts read are instead (e.g. another released split's), to say with a count difference."""
        return None

    def limited_note(self, records: list[dict], config: dict) -> str | None:
        """What a ``--limit`` left out that changes the metrics beyond the docs themselves."""
        return None


def reader_of(task: str) -> RecordReader:
    """The record reader of ``task``'s benchmark (the base for a task of none)."""
    from temporal_bench import benchmarks

    benchmark = benchmarks.of_task(task)
    return benchmark.record_reader if benchmark is not None and benchmark.record_reader is not None else RecordReader()
