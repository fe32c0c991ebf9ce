"""``temporal-bench browse RUN_DIR``: a static HTML page of every logged sample of a run."""

from __future__ import annotations

import gc
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from temporal_bench.browse.cards import answer_notes, make_images, report_views, run_cards, run_notes, superseded_notes
from temporal_bench.browse.examples import DEFAULT_COUNT, FIGURES, figure_tasks, pick_examples
from temporal_bench.browse.page import render_page
from temporal_bench.browse.thumbnails import WIDTHS, Thumbnails
from temporal_bench.cli_style import CommandParser, command_parser
from temporal_bench.runs.logged import LoggedRun, RunReadError, find_runs

DEFAULT_NAME = "browse.html"


def say(message: str) -> None:
    """A progress line on standard error (a full-size run's page takes seconds a step)."""
    print(f"temporal-bench browse: {message} ...", file=sys.stderr, flush=True)


def write_page(
    path: str | Path,
    output: Path | None = None,
    widths: dict[str, int] | None = None,
    examples: str | None = None,
    count: int = DEFAULT_COUNT,
    wanted: Sequence[str] = (),
    runs: list[LoggedRun] | None = None,
    progress: Callable[[str], None] = lambda message: None,
) -> tuple[Path, list[str]]:
    """Write the page of the run(s) under ``path`` (default: ``<path>/browse.html``, ``browse-<examples>.html``
    with ``examples``); returns its path and the notes that the page shows too: on its runs (superseded runs left
    out, partial runs, a task in several results files, a task shown in part), on its cards (failed requests,
    questions that may have shown more images than logged) and on the images not found (the image files the run's
    samples name, read where they are now).
    ``examples``: only the cards of that paper figure (:data:`FIGURES`); ``wanted``: only these
    tasks (``--tasks``, :func:`temporal_bench.runs.logged.named_tasks`); ``runs``: those under ``path``, where read
    already; ``progress``: told each step (:func:`say`)."""
    path = Path(path)
    runs = find_runs(path) if runs is None else runs
    if not runs:
        raise RunReadError(f"no lmms-eval or lm-eval results file under {path}")
    wanted = wanted or (figure_tasks(examples, runs) if examples else ())
    progress(f"reading {len(runs)} run(s) under {path}: their samples, and their values as the report reads them")
    views = report_views(runs)
    progress("building the cards")
    tasks = run_cards(runs, wanted, views)
    superseded = superseded_notes(runs, views, wanted)
    notes = superseded + run_notes(tasks) + answer_notes(tasks)
    heading = "What the model answered"
    if examples:
        tasks, heading = pick_examples(examples, tasks, count), FIGURES[examples].title
    thumbnails = Thumbnails(widths)
    progress(f"making the thumbnails of the {len({thumb.source for task in tasks for card in task.cards for thumb in card.images if thumb.source})} image file(s) the cards show")
    make_images(tasks, thumbnails)
    title = f"{heading}: " + ", ".join(dict.fromkeys(task.values.label for task in tasks))  # the models whose cards it shows, named as the report names them
    output = output or (path if path.is_dir() else path.parent) / (f"browse-{examples}.html" if examples else DEFAULT_NAME)
    output.parent.mkdir(parents=True, exist_ok=True)
    progress(f"writing {output}")
    output.write_text(render_page(title, tasks, thumbnails, superseded), encoding="utf-8")
    return output, notes + ([missing_summary(thumbnails.missing)] if thumbnails.missing else [])


def missing_summary(missing: dict[str, str], shown: int = 3) -> str:
    """One line: how many images could not be found, the first few by name, and the first reason."""
    names = list(missing)
    more = f" and {len(names) - shown} more" if len(names) > shown else ""
    return f"{len(names)} image(s) could not be found (their cards show a grey placeholder; the page lists them all): {', '.join(names[:shown])}{more}; the first because: {missing[names[0]]}"


def build_parser() -> CommandParser:
    parser = command_parser(
        "browse",
        ["temporal-bench browse out/ --tasks tempvs_mt1_two --output mt1_two.html"],
        "The page needs no server and no network; it shows a run made with --log_samples, with filters: per "
        "question the images the model saw, the prompt, the raw response, the parsed and the gold answer. Images "
        "are read from the files the run's samples name.",
    )
    parser.add_argument("path", type=Path, metavar="RUN_DIR", help="the run's --output_path folder (searched recursively) or one results JSON")
    parser.add_argument("-o", "--output", type=Path, metavar="FILE", help=f"the HTML file to write (default: {DEFAULT_NAME} in the run folder)")
    parser.add_argument(
        "--tasks",
        action="append",
        default=[],
        help="comma-separated tasks to show (repeatable; default: every task of the run): a task's name, or the name of a test a task holds as the report shows it (tempvs_mt2_event: the task tempvs)",
    )
    parser.add_argument(
        "--examples",
        choices=sorted(FIGURES),
        help="only the cards that make this paper figure, picked from the runs found under RUN_DIR (several runs: "
        "one per model): tempvs-figure4, the same question across models; catbench-figures5-6, "
        "A+E explanations by outcome (docs/browse.md)",
    )
    parser.add_argument("--examples-count", type=int, default=DEFAULT_COUNT, metavar="N", help=f"questions per task (tempvs-figure4) or per outcome class (catbench-figures5-6) (default: {DEFAULT_COUNT})")
    for role, width in WIDTHS.items():
        parser.add_argument(f"--{role}-width", type=int, default=width, metavar="PX", help=f"width of the {role} thumbnails in pixels (default: {width})")
    return parser


def main_browse(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    widths = {role: getattr(args, f"{role}_width") for role in WIDTHS}
    wanted = [task for item in args.tasks for task in item.split(",") if task]
    gc.disable()  # the run's million small objects (samples, records, cards) live to the end: collecting would scan them again and again
    try:
        output, notes = write_page(args.path, args.output, widths, args.examples, args.examples_count, wanted, progress=say)
    except (FileNotFoundError, ValueError) as error:
        parser.error(str(error))
    finally:
        gc.enable()
    for note in notes:
        print(f"note: {note}")
    print(output)
    return 0


if __name__ == "__main__":
    raise SystemExit(main_browse())
