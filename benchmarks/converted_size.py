"""How many times the converted datasets store each image (issue 33: at most 1.2 times the distinct image bytes),
on the full-size synthetic releases (full_size_data.py), written into benchmarks/RESULTS.md's "Converted dataset
size" section.

Stored image bytes: TempVS's ``images.zip`` entries (stored uncompressed: JPEG does not shrink) plus any image bytes
in its parquet rows (none: the rows name the images); ISO-Bench's image column in its parquet files. Distinct image
bytes: the files the rows name, each once (TempVS), or the distinct image contents (ISO-Bench).

    .venv/bin/python benchmarks/converted_size.py            # prints the table
    .venv/bin/python benchmarks/converted_size.py --write    # and replaces the table in RESULTS.md
"""

import argparse
import hashlib
import sys
import zipfile
from pathlib import Path

from results_section import replace_table

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import datasets  # noqa: E402
from full_size_data import add_data_options, data_env, data_folder  # noqa: E402

from temporal_bench.__main__ import main as temporal_bench  # noqa: E402


def tempvs_row(workdir: Path, fraction: float) -> str:
    release = Path(data_env(workdir, ["tempvs"], fraction)["TEMPVS_DATA_DIR"])
    converted = data_folder(workdir, "tempvs_hf", fraction)
    if not converted.is_dir():
        assert temporal_bench(["build-dataset", "tempvs", "--source", str(release), "--output-dir", str(converted)]) == 0
    rows = datasets.load_dataset(str(converted), split="test")
    named = {row["image"] for row in rows}  # each row names its combined image (the converted data holds no raw frames)
    distinct = sum((release / name).stat().st_size for name in named)
    with zipfile.ZipFile(converted / "images.zip") as archive:
        stored = sum(info.compress_size for info in archive.infolist())
    return f"| TempVS | {len(rows):,} | {len(named):,} | {distinct / 1e6:,.1f} MB | {stored / 1e6:,.1f} MB | {stored / distinct:.2f} |"


def isobench_row(workdir: Path, fraction: float) -> str:
    release = Path(data_env(workdir, ["isobench"], fraction)["ISOBENCH_DATA_DIR"])
    converted = data_folder(workdir, "isobench_hf", fraction)
    if not converted.is_dir():
        assert temporal_bench(["build-dataset", "isobench", "--source", str(release), "--output-dir", str(converted)]) == 0
    rows = datasets.load_dataset(str(converted), split="test").cast_column("image", datasets.Image(decode=False))
    images = [row["image"]["bytes"] for row in rows]
    distinct = sum(len(data) for data in {hashlib.sha256(data).hexdigest(): data for data in images}.values())
    stored = sum(len(data) for data in images)
    return f"| ISO-Bench | {len(rows):,} | {len(images):,} | {distinct / 1e6:,.1f} MB | {stored / 1e6:,.1f} MB | {stored / distinct:.2f} |"


def size_table(workdir: Path, fraction: float) -> list[str]:
    header = ["| dataset | rows | images named | distinct image bytes | stored image bytes | stored / distinct |", "|---|--:|--:|--:|--:|--:|"]
    return header + [tempvs_row(workdir, fraction), isobench_row(workdir, fraction)]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help="replace the table between the markers in RESULTS.md")
    add_data_options(parser)
    args = parser.parse_args(argv)
    table = "\n".join(size_table(args.workdir, args.fraction))
    print(table)
    if args.write:
        replace_table("converted_size.py", table)


if __name__ == "__main__":
    main()
