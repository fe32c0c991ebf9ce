"""ISO-Bench, declared once (temporal_bench/manifest.py)."""

from temporal_bench.manifest import Manifest

MANIFEST = Manifest(
    name="isobench",
    title="ISO-Bench",
    paper="temporal_bench.isobench.paper",
    upstream="temporal_bench.isobench.upstream",
    dataset_builder="temporal_bench.isobench.dataset_builder",
)
