"""Resolve a benchmark's local copy from its environment variable."""

import os
from pathlib import Path
from typing import Optional


def local_data_dir(env_var: str) -> Optional[Path]:
    """The folder named by ``env_var``, or None when the variable is unset (load from the hub).

    A variable that names a missing folder is an error, never a silent fall-back to the hub.
    """
    value = os.environ.get(env_var, "").strip()
    if not value:
        return None
    path = Path(value).expanduser()
    if not path.is_dir():
        raise FileNotFoundError(f"{env_var}={value!r} is not a directory")
    return path
