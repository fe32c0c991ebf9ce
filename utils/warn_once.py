"""One warning per distinct message in a process. lmms-eval builds every task of a run in one process,
and tasks that read the same data (the nine CaT-Bench variants of one split, ISO-Bench's two modes)
would each repeat the data's warning."""

import logging

_warned: set = set()


def warn_once(log: logging.Logger, message: str) -> None:
    if message not in _warned:
        _warned.add(message)
        log.warning(message)
