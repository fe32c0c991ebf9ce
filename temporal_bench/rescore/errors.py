"""Why a run cannot be re-scored."""

from temporal_bench.data_locations import DATA_ENVS

DATA_HINT = f"re-scoring loads the task's docs again, so it needs the run's data (given with --data, else {', '.join(DATA_ENVS[:-1])} or {DATA_ENVS[-1]}, else the release folder above the images the run read)"


class RescoreError(Exception):
    """A run that cannot be re-scored: no samples, a task the harness does not know or cannot evaluate, other data."""


class EvaluationError(RescoreError):
    """The harness could not evaluate the run's tasks again (its own error, from its log)."""
