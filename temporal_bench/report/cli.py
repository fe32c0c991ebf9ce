"""``temporal-bench report``: measured results next to the papers' published rows.

The lead wires :func:`main_report` into ``temporal_bench/__main__.py``; it takes the arguments
after ``report``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from temporal_bench.report.layouts import LAYOUTS
from temporal_bench.report.render import layouts_for, render_report
from temporal_bench.report.results import load_runs


def build_parser(prog: str = "temporal-bench report") -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Render lmms-eval / lm-eval results as the papers' tables, next to the published rows.",
    )
    parser.add_argument(
        "paths",
        nargs="+",
        type=Path,
        help="results JSON files, or folders searched recursively for *_results.json (lmms-eval) "
        "and results_*.json (lm-eval)",
    )
    parser.add_argument(
        "--table",
        action="append",
        choices=sorted(LAYOUTS),
        dest="tables",
        help="table layout to render (repeatable); default: every table the runs have a task for",
    )
    parser.add_argument("--format", choices=["markdown", "csv"], default="markdown")
    parser.add_argument(
        "-o", "--output", type=Path, help="write here instead of standard output"
    )
    parser.add_argument(
        "--label",
        help="model name for the measured rows (overrides the name in the files)",
    )
    parser.add_argument(
        "--no-published", action="store_true", help="only the measured rows"
    )
    parser.add_argument(
        "--list-tables", action="store_true", help="list the table layouts and exit"
    )
    return parser


def main_report(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--list-tables" in argv:
        for name, layout in sorted(LAYOUTS.items()):
            flag = " (provisional)" if layout.provisional else ""
            print(f"{name}\t{layout.title}{flag}\ttasks: {', '.join(layout.tasks)}")
        return 0
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        runs = load_runs(args.paths, label=args.label)
    except (FileNotFoundError, ValueError) as exc:
        parser.error(str(exc))
    if not runs:
        parser.error(
            "no results files found under " + ", ".join(str(p) for p in args.paths)
        )
    if args.tables:
        layouts = [LAYOUTS[name] for name in dict.fromkeys(args.tables)]
    else:
        layouts = layouts_for(runs, LAYOUTS.values())
        if not layouts:
            tasks = sorted({t for run in runs for t in run.tasks})
            parser.error(
                f"the runs have no task of any known table (their tasks: {', '.join(tasks) or 'none'})"
            )
    text = render_report(
        runs, layouts, args.format, include_published=not args.no_published
    )
    if args.output:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main_report())
