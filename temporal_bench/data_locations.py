"""The benchmarks' data folders as the commands take them (``--data NAME=FOLDER``), and the environment that
names them while a run's docs are rebuilt in-process (rescore, browse, the demo)."""

import contextlib
import os
from typing import Dict, Iterator

DATA_ENVS = ("TEMPVS_DATA_DIR", "CATBENCH_DATA_DIR", "ISOBENCH_DATA_DIR")


def parse_locations(items) -> Dict[str, str]:
    """``NAME=VALUE`` items naming data folders (one of :data:`DATA_ENVS`) as a dict."""
    found = {}
    for item in items or ():
        name, sep, value = item.partition("=")
        if not sep or name not in DATA_ENVS:
            raise ValueError(f"{item!r}: expected NAME=FOLDER with NAME one of {', '.join(DATA_ENVS)} (scoring settings are task configuration, not variables)")
        found[name] = value
    return found


@contextlib.contextmanager
def data_locations(assignments: Dict[str, str]) -> Iterator[None]:
    """The environment with the data folders of ``assignments`` set, restored afterwards (rebuilding a
    run's docs in-process, as rescore, browse and the demo do)."""
    saved = {name: os.environ.get(name) for name in assignments}
    os.environ.update(assignments)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
