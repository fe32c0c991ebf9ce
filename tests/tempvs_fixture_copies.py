"""TempVS's synthetic release (temporal_bench/tempvs/fixtures.py ``write_fixture``) written once per pytest worker
for each set of arguments and copied where a test asks for it: writing its frames, strips and tables takes about a
second, a copy a twentieth of that. Its content does not depend on where it lies (its stored image paths start with
``/data/``), so a copy is what ``write_fixture`` would have written there. tests/unit/test_tempvs_data.py tests
``write_fixture`` itself."""

import atexit
import functools
import shutil
import tempfile
from pathlib import Path

from temporal_bench.tempvs.fixtures import write_fixture


@functools.cache
def _written(arguments: tuple) -> Path:
    folder = Path(tempfile.mkdtemp(prefix="tempvs-fixture-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return write_fixture(folder / "release", **dict(arguments))


def write_tempvs(root: Path, **arguments) -> Path:
    """``write_fixture(root, **arguments)``, copied from the first such fixture this worker wrote."""
    shutil.copytree(_written(tuple(sorted(arguments.items()))), root, dirs_exist_ok=True)
    return Path(root)
