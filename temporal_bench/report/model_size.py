"""A model's parameter count, for the figures by model size (TempVS Figure 2).

Read from the run's model name (``InternVL2_5-26B-MPO``: 26, ``llava-onevision-qwen2-0.5b-ov``: 0.5,
``SmolVLM-256M``: 0.256), or given with ``temporal-bench report --param-count NAME=BILLIONS``, which
wins. A name with no size token, or with two different ones, gives none: the run is drawn without a
size (and the figure's CSV says so), never at a guessed one.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

# a number with a B (billions) or M (millions) suffix, standing alone between separators
SIZE_TOKEN = re.compile(r"(?<![A-Za-z0-9.])(\d+(?:\.\d+)?)([BbMm])(?![A-Za-z0-9])")
GIVEN, FROM_NAME, NO_SIZE = "--param-count", "model name", "none"


@dataclass(frozen=True)
class ModelSize:
    billions: float | None
    source: str  # GIVEN, FROM_NAME or NO_SIZE
    family: str  # the name with its size token as "*": runs of one family are drawn as one line


def size_in_name(name: str) -> float | None:
    """The parameter count (billions) the name states, if it states exactly one."""
    sizes = {float(number) / (1000.0 if unit in "Mm" else 1.0) for number, unit in SIZE_TOKEN.findall(name)}
    return sizes.pop() if len(sizes) == 1 else None


def model_size(name: str, given: Mapping[str, float]) -> ModelSize:
    from_name = size_in_name(name)
    family = SIZE_TOKEN.sub("*", name) if from_name is not None else name
    if name in given:
        return ModelSize(given[name], GIVEN, family)
    return ModelSize(from_name, FROM_NAME if from_name is not None else NO_SIZE, family)


def parse_param_counts(values: Sequence[str]) -> dict[str, float]:
    """``NAME=BILLIONS`` pairs (the name may itself hold ``=``, e.g. ``random_choice (seed=1)``)."""
    counts = {}
    for value in values:
        name, sep, number = value.rpartition("=")
        try:
            billions = float(number)
        except ValueError:
            billions = 0.0
        if not sep or not name or not billions > 0:
            raise ValueError(f"--param-count {value!r}: expected MODEL=BILLIONS with a positive number, e.g. 'my-model=7'")
        counts[name] = billions
    return counts


def sizes_of(names: Iterable[str], given: Mapping[str, float]) -> dict[str, ModelSize]:
    """Each run's size; a ``--param-count`` naming no run is an error (a typo would be dropped silently)."""
    names = list(names)
    unknown = sorted(set(given) - set(names))
    if unknown:
        raise ValueError(f"--param-count names no run: {', '.join(unknown)} (the runs: {', '.join(names)})")
    return {name: model_size(name, given) for name in names}
