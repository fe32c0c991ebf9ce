"""``temporal-bench build-dataset``: convert a benchmark's official release into a hub-ready dataset folder with the
task folder's converter (``*_to_hf.py``) and write its dataset card (docs/upstream.md, "Converted datasets"). Each
benchmark's manifest names its builder module (``dataset_builder``)."""

import importlib
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path

import datasets

from temporal_bench import converted_dataset
from temporal_bench.cli_style import command_parser
from temporal_bench.manifest import manifests


def _builders() -> dict:
    """benchmark name -> its builder module's name (a benchmark whose hub dataset is what lmms-eval loads has none)."""
    return {name: manifest.dataset_builder for name, manifest in manifests().items() if manifest.dataset_builder}


def main_build_dataset(argv: Sequence[str] | None = None) -> int:
    builders = _builders()
    parser = command_parser(
        "build-dataset",
        ["temporal-bench build-dataset tempvs --source ~/data/TempVS --output-dir ~/data/TempVS-hub"],
        "Then datasets.load_dataset(DIR) reads it, and the exported task folder names it in dataset_path once uploaded; " '--push-to-hub uploads the folder (docs/upstream.md, "Converted datasets").',
    )
    parser.add_argument("benchmark", choices=sorted(builders), metavar="BENCHMARK", help=f"the benchmark whose release to convert ({', '.join(sorted(builders))})")
    parser.add_argument("--source", type=Path, required=True, metavar="DIR", help="the release folder (as its data variable would name it)")
    parser.add_argument("--output-dir", type=Path, required=True, aliases=["--output"], metavar="DIR", help="the dataset folder to write (new or empty)")
    parser.add_argument("--push-to-hub", metavar="ORG/NAME", help="then upload the folder to this hub dataset (default: none)")
    args = parser.parse_args(argv)
    datasets.disable_progress_bars()
    module = importlib.import_module(builders[args.benchmark])
    output = args.output_dir
    if output.exists() and any(output.iterdir()):
        parser.error(f"--output-dir {output} is not empty: choose a new folder")
    command = "temporal-bench build-dataset " + shlex.join([args.benchmark, "--source", str(args.source), "--output-dir", str(output)])
    try:
        counts = module.build(args.source, output, command)
    except (module.RELEASE_ERROR, FileNotFoundError) as error:
        parser.error(str(error))
    for written, contents in counts.items():
        print(f"{output / written}: {contents}")
    print(f"{output / converted_dataset.CARD}: the dataset card")
    if args.push_to_hub:
        converted_dataset.push_to_hub(output, args.push_to_hub)
        print(f"pushed to https://huggingface.co/datasets/{args.push_to_hub}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main_build_dataset())
