"""CaT-Bench, declared once (temporal_bench/manifest.py): its hub dataset is what lmms-eval loads, so it has no
dataset builder."""

from temporal_bench.manifest import Manifest

MANIFEST = Manifest(name="catbench", title="CaT-Bench", paper="temporal_bench.catbench.paper", upstream="temporal_bench.catbench.upstream")
