"""The files lmms-eval and lm-eval write, found and read.

lmms-eval writes ``<out>/<model>/<date>_results.json`` (or ``<out>/<date>_results.json`` when the
model name is empty) and ``<date>_samples_<task>.jsonl`` beside it; lm-eval
``<out>/<model>/results_<date>.json`` and ``samples_<task>_<date>.jsonl``. A results file holds
``{"results": {task: {"<metric>,<filter>": value, ...}}, "model_name": ..., "config": {...}}``, a
samples file one JSON line per logged request.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

RESULT_GLOBS = ("*_results.json", "results_*.json")


@dataclass(frozen=True)
class HarnessFiles:
    """How one harness names a run's results file and its samples files."""

    name: str  # "lmms-eval" or "lm-eval"
    results_name: re.Pattern  # a results file's name, with the run's ``date``
    samples_name: str  # a samples file's name, from ``date`` and ``task``

    def samples_file(self, folder: Path, date: str, task: str) -> Path:
        return folder / self.samples_name.format(date=date, task=task)


LMMS_EVAL_FILES = HarnessFiles("lmms-eval", re.compile(r"(?P<date>.+)_results\.json"), "{date}_samples_{task}.jsonl")
LM_EVAL_FILES = HarnessFiles("lm-eval", re.compile(r"results_(?P<date>.+)\.json"), "samples_{task}_{date}.jsonl")
HARNESS_FILES = (LMMS_EVAL_FILES, LM_EVAL_FILES)


def file_order(path: Path) -> tuple[str, str]:
    """Results files sort by the date in their name (oldest first), then by path."""
    digits = re.sub(r"\D", "", path.name)[:14]
    return (digits, str(path))


def find_result_files(path: str | Path) -> list[Path]:
    """A results file itself, or every results file under a folder (recursively), sorted."""
    path = Path(path)
    if path.is_file():
        return [path]
    if not path.is_dir():
        raise FileNotFoundError(f"no results file or folder: {path}")
    found = {p for pattern in RESULT_GLOBS for p in path.rglob(pattern) if p.is_file()}
    return sorted(found, key=file_order)


class UnreadableResults(ValueError):
    """A results file that is no readable JSON."""


class NotResults(ValueError):
    """A JSON file without a ``results`` object: not a results file of either harness."""


def read_results_file(path: str | Path) -> dict[str, Any]:
    """The data of a results file, checked to hold a ``results`` object."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:  # ValueError: not JSON, or not text at all (UnicodeDecodeError)
        raise UnreadableResults(f"{path}: not a readable results JSON file ({exc})") from exc
    if not isinstance(data, dict) or not isinstance(data.get("results"), dict):
        raise NotResults(f"{path}: no 'results' object; is this an lmms-eval/lm-eval results file?")
    return data


def read_samples(path: Path) -> list[dict]:
    """The logged requests of one samples file, in logged order."""
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def logged_filter_names(names: Sequence[str], lines: list[dict]) -> list[str]:
    """Each lmms-eval sample line's filter: lmms-eval logs no filter name, but every doc once per
    filter ensemble (``names``), in ensemble order."""
    seen: dict[int, int] = defaultdict(int)
    keys = []
    for line in lines:
        keys.append(names[seen[line["doc_id"]] % len(names)])
        seen[line["doc_id"]] += 1
    return keys
