"""Put on PYTHONPATH, this makes ``import temporal_bench`` fail in the whole process, as if the package
were not installed (its files and entry point metadata stay visible, so lmms-eval still tries to load
our ``lmms_eval.models`` entry point and must cope with its failure)."""

import sys


class BlockTemporalBench:
    def find_spec(self, name, path=None, target=None):
        if name == "temporal_bench" or name.startswith("temporal_bench."):
            raise ModuleNotFoundError(f"No module named {name!r} (blocked: the exported code must not need it)", name=name)
        return None


sys.meta_path.insert(0, BlockTemporalBench())
