"""Which published row a run's model is: names compared without case and punctuation (``InternVL2.5-78B-MPO``
is TempVS's ``InternVL2_5-78B-MPO``), through each benchmark's alias tables (its registry
entry's ``model_names``: a published row's name -> the model's hub id and the spellings other tables
of the paper use; ``api_models``: an API model's row -> the names its paper gives it), and our
baselines as the rows they reproduce. A run label that is no published row gets the nearest
published names, so a misspelt or unlisted model is said, never passed over.

An API model's row is matched only by the dated version its paper names (``gpt-4o-2024-05-13``):
a later version is another model, and a moving alias (``gpt-4o``, ``claude-3-5-sonnet-latest``,
the published name itself) stands for whatever version the provider serves when the run is made,
so neither gets a verdict; the report says why, naming the version the paper evaluated.
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
OUR_MODEL_CLASSES = ("random_choice", "majority_class", "scripted", "decode_only", "request_hash", "replay")


def normalised(name: str) -> str:
    return re.sub(r"[^0-9a-z]", "", name.lower())


def is_baseline(name: str) -> bool:
    return name.split(" (", 1)[0] in PAPER_ROW_OF_BASELINE


# a provider's version suffix: a date (gpt-4o-2024-11-20, claude-3-5-sonnet-20241022), an OpenAI snapshot
# number (gpt-3.5-turbo-0125) or a Google one (gemini-1.5-pro-002)
VERSION = re.compile(r"[-_@](\d{4}-\d{2}-\d{2}|\d{8}|\d{4}|\d{3})$")
LATEST = "-latest"  # the providers' moving alias of a model's newest version


def is_dated(name: str) -> bool:
    return VERSION.search(name) is not None


def undated(name: str) -> str:
    """The model's name without its version or ``-latest`` suffix: ``gpt-4o-2024-05-13`` -> ``gpt-4o``."""
    return VERSION.sub("", name).removesuffix(LATEST)


def alias_table(benchmark: str) -> dict[str, tuple[str, ...]]:
    """A published row's name -> the other names that find it: an open model's, and an API model's dated versions."""
    entry = benchmarks.get(benchmark)
    return {**entry.model_names, **{row: tuple(n for n in names if is_dated(n)) for row, names in entry.api_models.items()}}


def _aliases(benchmark: str) -> dict[str, str]:
    """Normalised name -> normalised published name, over the benchmark's alias tables."""
    return {normalised(alias): normalised(name) for name, aliases in alias_table(benchmark).items() for alias in (name, *aliases)}


def _moving(benchmark: str) -> dict[str, str]:
    """Normalised moving alias -> the API model's published row: the row's name and each name its paper
    gives, without version, each also with ``-latest``."""
    return {normalised(base + suffix): row for row, names in benchmarks.get(benchmark).api_models.items() for base in (row, *map(undated, names)) for suffix in ("", LATEST)}


def model_key(benchmark: str, name: str) -> str:
    """The published row a model name stands for, normalised: a baseline run (``random_choice
    (seed=1)``) as the row it reproduces, an alias as its published name."""
    name = PAPER_ROW_OF_BASELINE.get(name.split(" (", 1)[0], name)
    key = normalised(name)
    return _aliases(benchmark).get(key, key)


def run_key(benchmark: str, label: str) -> str | None:
    """The published row a run's label stands for (as :func:`model_key`), None for a moving alias of
    an API model (which version the run got is unknown)."""
    return None if normalised(label) in _moving(benchmark) else model_key(benchmark, label)


def api_version_note(benchmark: str, label: str, shown: str | None = None) -> str | None:
    """Why a run whose results file records an API model's moving alias or another version (``label``) gets no verdict,
    naming the version the paper evaluated; None for any other name (``shown``: how the report names the run, bold)."""
    moving = _moving(benchmark)
    row = moving.get(normalised(label)) or (moving.get(normalised(undated(label))) if is_dated(label) else None)
    if row is None or run_key(benchmark, label) == normalised(row):
        return None
    title, named_as = benchmarks.get(benchmark).title, shown or f"**{label}**"
    versions = [name for name in benchmarks.get(benchmark).api_models[row] if is_dated(name)]
    if not versions:
        named = ", ".join(benchmarks.get(benchmark).api_models[row])
        return f"{named_as} gets no {title} verdict: the paper names {row} only by a moving alias ({named}), no dated version, so no run can be matched to its rows"
    evaluated = " or ".join(versions)
    if normalised(label) in moving:
        return f"{named_as} is a moving alias (the provider serves a newer version under it from time to time), so it gets no {title} verdict: the paper evaluated {evaluated} (a run of that version records it: --model_args model={versions[0]}; --label names a row, never the model)"
    return f"{named_as} is another version of {row} than the {title} paper evaluated ({evaluated}), so it gets no verdict"


def nearest(benchmark: str, name: str, published: Iterable[str], count: int = 3) -> list[str]:
    """The published names (and their aliases' rows) closest to ``name``, best first."""
    by_key = {normalised(p): p for p in published}
    candidates = {**{normalised(a): by_key[normalised(n)] for n, aliases in alias_table(benchmark).items() for a in aliases if normalised(n) in by_key}, **by_key}
    found = difflib.get_close_matches(normalised(name), list(candidates), n=count * 3, cutoff=0.5)
    return list(dict.fromkeys(candidates[key] for key in found))[:count]


def is_model(benchmark: str, published: str) -> bool:
    """Whether a published row is a model's run (not the Random row, a human baseline or an average)."""
    return published != RANDOM_ROW and published not in benchmarks.get(benchmark).not_models
