"""The report's model, built from the runs in one pass: each table's rows with their intervals and notes (rows.py), its
reproduction verdicts (verdicts.py), and the notes on the runs themselves. render.py only formats it."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from temporal_bench.report.layouts import Layout
from temporal_bench.report.model_names import OUR_MODEL_CLASSES, is_baseline
from temporal_bench.report.notes import Notes, collect_notes
from temporal_bench.report.rows import MEASURED, RunPart, TableRow, provenance, published_rows, ranked, resolve_setting, run_parts
from temporal_bench.report.verdicts import DEFAULT_TOLERANCES, Verdict, judged, other_rule, unmatched_models, unverified, verdicts, with_published
from temporal_bench.runs.results import Run


@dataclass
class Table:
    """One layout's rows, verdicts and notes."""

    layout: Layout
    rows: list[TableRow]  # the published rows, then the measured ones, ranked where the layout ranks
    parts: list[RunPart]  # each run's part, in run order
    verdicts: list[Verdict]
    tolerance: float  # the benchmark's, in points
    other_rule: list[TableRow]  # judged measured rows whose published row fits another scoring rule: no verdict
    judged_models: list[str]  # the runs of a model (no baseline, no model class of ours) with a judged or unverified row
    provenance: str = ""  # where the published rows were printed ('' without them)


@dataclass
class Report:
    """The tables, and what the report says of the runs under them."""

    tables: list[Table]
    labels: list[str]  # the runs, in order
    partial: list[tuple[str, str, str, Path]]  # each task shown from a partial run: label, task, limit, results file
    set_aside: list[tuple[str, str]]  # each task more than one results file of a model holds: label, Run.sources_note
    without_samples: list[str]  # each run whose tasks have no samples beside their results: ``label: tasks``
    unmatched: dict[tuple[str, str], str]  # (benchmark, label) -> why the run's judged rows get no verdict

    @property
    def notes(self) -> Notes:
        """The notes on its tables' measured rows and its runs, each once, numbered (notes.py)."""
        return collect_notes([(table.rows, table.parts) for table in self.tables], self.partial, self.set_aside)


def without_samples(runs: Sequence[Run]) -> list[str]:
    """``label: tasks`` for each run whose tasks logged no samples (no breakdowns, intervals or data check)."""
    return [f"{run.label}: {', '.join(sorted(set(run.without_samples)))}" for run in runs if run.without_samples]


def beside_their_run(rows: list[TableRow]) -> list[TableRow]:
    """The rows, each of a run shown beside another run of its model (``beside``) right after that run's row of the same
    setting (ranked or not: the model's run on the release's data, or on the most questions, first)."""
    beside = [row for row in rows if row.beside]
    out = [row for row in rows if not row.beside]
    for row in beside:
        main = next((i for i, other in enumerate(out) if other.source == MEASURED and (other.model, other.setting) == (row.model, row.setting) and not other.beside), None)
        follows = next((i for i in range(main + 1, len(out)) if not out[i].beside), len(out)) if main is not None else len(out)
        out.insert(follows, row)
    return out


def build_table(layout: Layout, parts: list[RunPart], include_published: bool, tolerances: dict[str, float] | None) -> Table:
    """The layout's table from the runs' parts of it: the rows ranked, judged against the published ones."""
    published = published_rows(layout) if include_published else []
    rows = beside_their_run(ranked(layout, published + [row for part in parts for row in part.rows]))
    return Table(
        layout,
        rows,
        parts,
        verdicts=verdicts(layout, rows, tolerances),
        tolerance=(tolerances or DEFAULT_TOLERANCES)[layout.benchmark],
        other_rule=[row for row, paper in with_published(layout, rows) if other_rule(paper)],
        judged_models=[part.label for part in parts if not part.model_classes <= set(OUR_MODEL_CLASSES) and any((judged(row) or unverified(row)) and not is_baseline(row.judged_as or "") for row in part.rows)],
        provenance=provenance(layout) if include_published and layout.published else "",
    )


def build_report(runs: Sequence[Run], layouts: Sequence[Layout], include_published: bool = True, tolerances: dict[str, float] | None = None) -> Report:
    """The report on ``runs`` of each of ``layouts``, with the published rows unless not ``include_published``."""
    runs = [shown for run in runs for shown in (run, *run.beside_runs())]  # a model's runs that no newer one supersedes, each in rows of its own
    parts = []
    for run in runs:  # each run read once, for every table
        parts.append(run_parts(run, layouts))
    tables = [build_table(layout, [of_run[i] for of_run in parts], include_published, tolerances) for i, layout in enumerate(layouts)]
    partial = [(run.label, task, str(limit), run.sources[task]) for run in runs for task, limit in sorted(run.partial.items())]
    set_aside = [(run.label, run.sources_note(task)) for run in runs for task in sorted(run.set_aside)]
    unmatched: dict[tuple[str, str], str] = {}
    for benchmark in dict.fromkeys(table.layout.benchmark for table in tables) if include_published else []:
        labels = dict.fromkeys(label for table in tables if table.layout.benchmark == benchmark for label in table.judged_models)
        records = {label: list(dict.fromkeys(name for table in tables if table.layout.benchmark == benchmark for row in table.rows if row.source == MEASURED and row.model == label for name in row.recorded)) for label in labels}
        unmatched.update(((benchmark, label), line) for label, line in unmatched_models(benchmark, records).items())
    return Report(tables, list(dict.fromkeys(run.label for run in runs)), partial, set_aside, without_samples(runs), unmatched)


def layouts_for(runs: Sequence[Run], layouts: Iterable[Layout]) -> list[Layout]:
    """The layouts that at least one run has a task for."""
    return [layout for layout in layouts if any(resolve_setting(run, setting) for run in runs for setting in layout.settings)]
