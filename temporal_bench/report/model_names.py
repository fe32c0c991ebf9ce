"""Which published row a run's model is: names compared without case and punctuation (the TempVS
release's ``GPT4o`` is the paper's ``GPT-4o``), through each benchmark's alias table (its registry
entry's ``model_names``: a published row's name -> the model's hub id and the spellings other tables
of the paper use), and our baselines as the rows they reproduce. A run label that is no published
row gets the nearest published names, so a misspelt or unlisted model is said, never passed over.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

from temporal_bench import benchmarks

RANDOM_ROW = "Random"  # the papers' random baseline rows: an expectation, no model's run
# our baselines (by the model name that starts a run label) -> the published row they reproduce:
# TempVS Table 3's Random row is what a uniform random answer scores, which random_choice gives
PAPER_ROW_OF_BASELINE = {"random_choice": RANDOM_ROW}
# this package's baseline and test model classes (lmms_eval_plugin.MODEL_CLASSES, and lm-eval's): no paper runs them
OUR_MODEL_CLASSES = ("random_choice", "majority_class", "scripted", "decode_only", "request_hash")


def normalised(name: str) -> str:
    return re.sub(r"[^0-9a-z]", "", name.lower())


def is_baseline(name: str) -> bool:
    return name.split(" (", 1)[0] in PAPER_ROW_OF_BASELINE


def _aliases(benchmark: str) -> dict[str, str]:
    """Normalised name -> normalised published name, over the benchmark's alias table."""
    table = benchmarks.get(benchmark).model_names
    return {normalised(alias): normalised(name) for name, aliases in table.items() for alias in (name, *aliases)}


def model_key(benchmark: str, name: str) -> str:
    """The published row a model name stands for, normalised: a baseline run (``random_choice
    (seed=1)``) as the row it reproduces, an alias as its published name."""
    name = PAPER_ROW_OF_BASELINE.get(name.split(" (", 1)[0], name)
    key = normalised(name)
    return _aliases(benchmark).get(key, key)


def nearest(benchmark: str, name: str, published: Iterable[str], count: int = 3) -> list[str]:
    """The published names (and their aliases' rows) closest to ``name``, best first."""
    by_key = {normalised(p): p for p in published}
    candidates = {**{normalised(a): by_key[normalised(n)] for n, aliases in benchmarks.get(benchmark).model_names.items() for a in aliases if normalised(n) in by_key}, **by_key}
    found = difflib.get_close_matches(normalised(name), list(candidates), n=count * 3, cutoff=0.5)
    return list(dict.fromkeys(candidates[key] for key in found))[:count]


def is_model(benchmark: str, published: str) -> bool:
    """Whether a published row is a model's run (not the Random row, a human baseline or an average)."""
    return published != RANDOM_ROW and published not in benchmarks.get(benchmark).not_models
