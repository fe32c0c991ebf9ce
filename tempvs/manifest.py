"""TempVS, declared once (temporal_bench/manifest.py)."""

from temporal_bench.manifest import Manifest, Subcommand

MANIFEST = Manifest(
    name="tempvs",
    title="TempVS",
    paper="temporal_bench.tempvs.paper",
    upstream="temporal_bench.tempvs.upstream",
    dataset_builder="temporal_bench.tempvs.dataset_builder",
    commands={
        "score-predictions": Subcommand("temporal_bench.tempvs.released_predictions", "main_score_predictions", "score the TempVS release's own model outputs next to the published tables"),
    },
)
