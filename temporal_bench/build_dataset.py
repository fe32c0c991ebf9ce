"""``temporal-bench build-dataset``: convert a benchmark's official release into a hub-ready dataset folder
(parquet with the images embedded, one config per lmms-eval data need, a dataset card), docs/harness.md
"Converted datasets"."""

import argparse
import importlib
import shlex
import sys
from pathlib import Path
from typing import Optional, Sequence

import datasets

from temporal_bench.utils import converted_dataset

# benchmark -> (builder module, its release-data error); CaT-Bench's hub dataset is already what lmms-eval loads
BUILDERS = {"tempvs": ("temporal_bench.tempvs.dataset_builder", "TempVSDataError"), "isobench": ("temporal_bench.isobench.dataset_builder", "IsoBenchDataError")}
EPILOG = """example:
  temporal-bench build-dataset tempvs --source ~/data/TempVS --output ~/data/TempVS-hub
  temporal-bench build-dataset isobench --source ~/data/ISO-Bench --output ~/data/ISO-Bench-hub --push-to-hub my-org/ISO-Bench
then datasets.load_dataset(OUTPUT, "mt1_two") reads a config, and TEMPVS_DATA_DIR=OUTPUT runs the tasks on it.
CaT-Bench needs no conversion: lmms-eval loads vanyacohen/CaT-Bench as it is (docs/catbench.md)."""


def main_build_dataset(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="temporal-bench build-dataset",
        description="Convert a benchmark's official release into a hub-ready dataset folder (parquet, images embedded, one config per task data need, a dataset card).",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("benchmark", choices=sorted(BUILDERS), help="the benchmark whose release to convert")
    parser.add_argument("--source", type=Path, required=True, help="the release folder (as its *_DATA_DIR would name it)")
    parser.add_argument("--output", type=Path, required=True, help="the dataset folder to write (must not exist or be empty)")
    parser.add_argument("--push-to-hub", metavar="ORG/NAME", help="then push every config and the card to this hub dataset")
    args = parser.parse_args(argv)
    datasets.disable_progress_bars()
    module_name, error_name = BUILDERS[args.benchmark]
    module = importlib.import_module(module_name)
    if args.output.exists() and any(args.output.iterdir()):
        parser.error(f"--output {args.output} is not empty: choose a new folder")
    command = "temporal-bench build-dataset " + shlex.join([args.benchmark, "--source", str(args.source), "--output", str(args.output)])
    try:
        counts = module.build(args.source, args.output, command)
    except (getattr(module, error_name), FileNotFoundError) as error:
        parser.error(str(error))
    for config, rows in counts.items():
        print(f"{args.output / config}: {rows} rows")
    print(f"{args.output / converted_dataset.CARD}: the dataset card")
    if args.push_to_hub:
        converted_dataset.push_to_hub(args.output, args.push_to_hub)
        print(f"pushed to https://huggingface.co/datasets/{args.push_to_hub}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main_build_dataset())
