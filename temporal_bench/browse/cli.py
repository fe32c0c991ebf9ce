"""``temporal-bench browse RUN_DIR``: a static HTML page of every logged sample of a run."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from temporal_bench.browse.cards import run_cards
from temporal_bench.browse.page import render_page
from temporal_bench.browse.thumbnails import WIDTHS, Thumbnails
from temporal_bench.report.rescore import RescoreError, find_runs
from temporal_bench.report.run_data import data_locations_of
from temporal_bench.utils.data_dir import data_locations, parse_locations

DEFAULT_NAME = "browse.html"


def write_page(path: str | Path, output: Path | None = None, widths: dict[str, int] | None = None) -> Path:
    """Write the page of the run(s) under ``path`` (default: ``<path>/browse.html``) and return its path.
    The data the run read must be reachable as it was (``TEMPVS_DATA_DIR``, ...) for its images."""
    path = Path(path)
    runs = find_runs(path)
    if not runs:
        raise RescoreError(f"no lmms-eval or lm-eval results file under {path}")
    thumbnails = Thumbnails(widths)
    tasks = run_cards(runs, thumbnails)
    title = "What the model answered: " + ", ".join(dict.fromkeys(_model(run.data) for run in runs))
    output = output or (path if path.is_dir() else path.parent) / DEFAULT_NAME
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(render_page(title, tasks, thumbnails), encoding="utf-8")
    return output


def _model(data: dict) -> str:
    config = data.get("config") or {}
    model, args = config.get("model") or data.get("model_name") or "model", config.get("model_args")
    return f"{model} ({args})" if args else str(model)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="temporal-bench browse",
        description="Write one self-contained HTML page (no server, no network) with a card per logged sample of a "
                    "run made with --log_samples: the images the model saw, the prompt, the raw response, the parsed "
                    "and the gold answer, right/wrong/invalid, filters. Images are re-read from the run's data: the "
                    "folders its results JSON records, unless --set or the environment gives another.")
    parser.add_argument("path", type=Path, help="the run's --output_path folder (searched recursively) or one results JSON")
    parser.add_argument("-o", "--output", type=Path, help=f"the HTML file to write (default: {DEFAULT_NAME} in the run folder)")
    parser.add_argument("--set", action="append", default=[], dest="assignments", metavar="NAME=VALUE",
                        help="a data location for rebuilding the docs (repeatable), e.g. TEMPVS_DATA_DIR=/data/tempvs "
                             "(default: the environment's variable, else the folder the run recorded)")
    for role, width in WIDTHS.items():
        parser.add_argument(f"--{role}-width", type=int, default=width, metavar="PX",
                            help=f"thumbnail width of a {role} in pixels (default {width})")
    return parser


def main_browse(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    widths = {role: getattr(args, f"{role}_width") for role in WIDTHS}
    try:
        locations = data_locations_of(find_runs(args.path), parse_locations(args.assignments), "--set")
        for note in locations.notes:  # a missing folder too: its cards name the error in place of the images
            print(f"temporal-bench browse: data: {note}", file=sys.stderr)
        with data_locations(locations.assignments):
            output = write_page(args.path, args.output, widths)
    except (RescoreError, FileNotFoundError, ValueError) as error:
        parser.error(str(error))
    print(output)
    return 0


if __name__ == "__main__":
    raise SystemExit(main_browse())
