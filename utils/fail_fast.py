"""A data error stops an lmms-eval run at once, its message the run's last ERROR line.

lmms-eval 0.7.3's ``ConfigurableTask.download`` retries ``process_docs`` on every ``Exception`` (tenacity, five
attempts) and then logs only "Error during evaluation: RetryError[...]", exiting 0 without results. A missing folder
or a wrong layout does not heal on retry: :func:`stops_run_on` logs the error and raises :class:`DataErrorExit`, a
``SystemExit``, which tenacity does not retry and the CLI does not catch (the process ends with status 1).
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
