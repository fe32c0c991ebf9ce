"""Why a run cannot be re-scored, or its tasks not rebuilt."""

from temporal_bench.data_locations import DATA_ENVS

DATA_HINT = f"re-scoring loads the task's docs again, so it needs the run's data (given with --data, else {', '.join(DATA_ENVS[:-1])} or {DATA_ENVS[-1]}, else the release folder above the images the run read)"


class RescoreError(Exception):
    """A run that cannot be re-scored: no samples, a task that cannot be rebuilt, other data."""


class TaskBuildError(RescoreError):
    """A task the harness could not build (load its docs): ``cause`` says why."""

    def __init__(self, task: str, cause: str) -> None:
        super().__init__(f"task {task!r} cannot be rebuilt ({cause}); {DATA_HINT}")
        self.task, self.cause = task, cause
