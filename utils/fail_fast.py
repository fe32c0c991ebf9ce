"""A data error stops an lmms-eval run at once, its message the run's last ERROR line.

lmms-eval 0.7.3 calls a task's ``process_docs`` inside ``ConfigurableTask.download``
(``lmms_eval/api/task.py``), which tenacity retries on every ``Exception`` (five attempts, two
seconds apart) before raising ``tenacity.RetryError``; the CLI then logs only "Error during
evaluation: RetryError[<Future ... raised ConnectionError>]". A missing folder or a wrong layout
does not heal on retry, so :func:`stops_run_on` logs the error and raises :class:`DataErrorExit`,
a ``SystemExit``: tenacity does not retry it and the CLI does not catch it, so the process ends
with status 1 right after the logged line (otherwise lmms-eval would exit 0 without results).
"""

import functools
from typing import Callable, Tuple, Type

# lmms-eval's logger: the CLI prints its lines in its own format
from loguru import logger as eval_logger


class DataErrorExit(SystemExit):
    """Ends the run after a data error (status 1); ``str()`` is the logged message, ``__cause__`` the error."""

    def __init__(self, message: str) -> None:
        super().__init__(1)
        self.message = message

    def __str__(self) -> str:
        return self.message


def stops_run_on(errors: Tuple[Type[Exception], ...]) -> Callable[[Callable], Callable]:
    """Decorate a ``process_docs`` hook: ``errors`` raised in it end the run (see the module's note)."""

    def decorate(process_docs: Callable) -> Callable:
        @functools.wraps(process_docs)
        def wrapper(*args, **kwargs):
            try:
                return process_docs(*args, **kwargs)
            except errors as error:
                message = f"{type(error).__name__}: {error}"
                eval_logger.error(message)
                raise DataErrorExit(message) from error

        return wrapper

    return decorate
