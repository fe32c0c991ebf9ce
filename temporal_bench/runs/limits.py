"""Whether a run left out docs of a task: lmms-eval's and lm-eval's ``--limit``, lmms-eval's ``--offset``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Limit:
    """How a run made with ``--limit`` (or lmms-eval's ``--offset``) left out docs of a task."""

    limit: int | float | None  # as recorded: a count, or (below 1) a fraction of the docs
    offset: int = 0
    evaluated: int | None = None  # docs evaluated / docs the task has (``n-samples``), where recorded
    total: int | None = None

    @property
    def flags(self) -> str:
        """The options as given on the command line, e.g. ``--limit 40``."""
        flags = [f"--limit {self.limit:g}"] if self.limit is not None else []
        return " ".join(flags + ([f"--offset {self.offset}"] if self.offset else []))

    def __str__(self) -> str:
        counted = self.evaluated is not None and self.total is not None
        return self.flags + (f": {self.evaluated:,} of {self.total:,} docs" if counted else "")


def _recorded_limit(value: Any) -> int | float | None:
    """The harnesses' ``config.limit``: None (or -1, lmms-eval's "no limit") for every doc."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value == -1:
        return None
    return value


def partial_limit(data: dict[str, Any], task: str) -> Limit | None:
    """The :class:`Limit` of ``task`` in a results file's data when the run left out some of its docs,
    else None (a full run).

    A run made with ``--limit`` is partial unless its ``n-samples`` record shows every doc of the task
    evaluated (a limit above the task's size); an ``--offset`` always is. ``task`` is a task name as
    the file's ``results`` holds it.
    """
    config = data.get("config")
    if not isinstance(config, dict):
        config = {}
    limit, offset = _recorded_limit(config.get("limit")), config.get("offset") or 0
    if limit is None and not offset:
        return None
    counts = (data.get("n-samples") or {}).get(task) or {}
    evaluated, total = counts.get("effective"), counts.get("original")
    if not offset and isinstance(evaluated, int) and isinstance(total, int) and evaluated >= total:
        return None
    return Limit(limit, int(offset), evaluated, total)
