"""Read the TempVS release's pickled DataFrames without letting a file run code.

Unpickling calls whatever a file names, so a tampered download could run any code. The release's
annotation and prediction files are pandas DataFrames written by ``DataFrame.to_pickle`` (the
official inference script reads them with ``pandas.read_pickle``); this unpickler resolves only the
names such a file holds, as written by pandas 2.x and 3.x with numpy 1.x or 2.x (object or
pyarrow-backed string columns, pickle protocols 2 to 5), and refuses any other name.
"""

import pickle
import warnings
from pathlib import Path

# (module, name) of every global a pickled DataFrame of lists, strings, numbers and NaN refers to
FRAME_GLOBALS = frozenset({
    ("pandas", "DataFrame"), ("pandas.core.frame", "DataFrame"),
    ("pandas", "Index"), ("pandas.core.indexes.base", "Index"), ("pandas.core.indexes.base", "_new_Index"),
    ("pandas", "RangeIndex"), ("pandas.core.indexes.range", "RangeIndex"),
    ("pandas.core.internals.managers", "BlockManager"), ("pandas._libs.internals", "_unpickle_block"),
    ("pandas", "StringDtype"), ("pandas.arrays", "ArrowStringArray"),
    ("pyarrow.lib", "_restore_array"), ("pyarrow.lib", "py_buffer"), ("pyarrow.lib", "type_for_alias"),
    ("numpy", "ndarray"), ("numpy", "dtype"),
    ("numpy.core.multiarray", "_reconstruct"), ("numpy._core.multiarray", "_reconstruct"),
    ("numpy.core.numeric", "_frombuffer"), ("numpy._core.numeric", "_frombuffer"),
    ("builtins", "slice"), ("builtins", "bytearray"), ("__builtin__", "slice"), ("__builtin__", "bytearray"),
    ("_codecs", "encode"),  # protocol 2 writes bytes as encode(text, "latin1")
})


class RefusedPickleGlobal(pickle.UnpicklingError):
    """The pickle names a callable or class that no pickled DataFrame of the release holds."""

    def __init__(self, module: str, name: str) -> None:
        super().__init__(f"it names {module}.{name}, which is not among the pandas/numpy classes a pickled DataFrame of the "
                         "TempVS release holds; unpickling it could run arbitrary code (a tampered file?), so it was not loaded")


class _FrameUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str):
        if (module, name) not in FRAME_GLOBALS:
            raise RefusedPickleGlobal(module, name)
        return super().find_class(module, name)


def load_pickled_frame(path: Path):
    """The object pickled in ``path``, built from ``FRAME_GLOBALS`` only (else ``RefusedPickleGlobal``)."""
    with open(path, "rb") as handle, warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # numpy 2 resolving numpy 1's numpy.core names
        return _FrameUnpickler(handle).load()
