"""Why a run cannot be re-scored, or its tasks not rebuilt."""

DATA_HINT = "re-scoring loads the task's docs again, so it needs the run's data (the command line takes the folder " "the run's results JSON records unless TEMPVS_DATA_DIR, CATBENCH_DATA_DIR or ISOBENCH_DATA_DIR is given)"


class RescoreError(Exception):
    """A run that cannot be re-scored: no samples, a task that cannot be rebuilt, other data."""
