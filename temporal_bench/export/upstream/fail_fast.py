"""Data errors of a task's ``process_docs``, logged where the run shows them.

lmms-eval calls ``process_docs`` inside ``ConfigurableTask.download`` (``lmms_eval/api/task.py``),
which retries on every exception before raising ``tenacity.RetryError``, and the CLI then logs only
that RetryError: :func:`stops_run_on` logs the error's own message (the file, the row, the fix) and
raises the error unchanged.
"""

import functools
from typing import Callable, Tuple, Type

from loguru import logger as eval_logger


def stops_run_on(errors: Tuple[Type[Exception], ...]) -> Callable[[Callable], Callable]:
    """Decorate a ``process_docs`` hook: ``errors`` raised in it are logged, then raised."""

    def decorate(process_docs: Callable) -> Callable:
        @functools.wraps(process_docs)
        def wrapper(*args, **kwargs):
            try:
                return process_docs(*args, **kwargs)
            except errors as error:
                eval_logger.error(f"{type(error).__name__}: {error}")
                raise

        return wrapper

    return decorate
