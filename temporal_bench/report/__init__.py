"""Report renderer: results of lmms-eval / lm-eval runs laid out like the papers' tables.

``temporal-bench report`` (see :func:`temporal_bench.report.cli.main_report`) reads results JSON
files, and renders each benchmark table layout (:mod:`temporal_bench.report.layouts`) with the
measured rows next to the published ones (:mod:`temporal_bench.published`); each benchmark's
layouts, figures and published tables come from its registry entry (:mod:`temporal_bench.benchmarks`).
"""

from temporal_bench.report.layouts import LAYOUTS, Column, Layout, Setting
from temporal_bench.report.render import (
    build_rows,
    render_csv,
    render_markdown,
    render_report,
)
from temporal_bench.report.results import Run, find_result_files, load_runs

__all__ = [
    "LAYOUTS",
    "Column",
    "Layout",
    "Run",
    "Setting",
    "build_rows",
    "find_result_files",
    "load_runs",
    "render_csv",
    "render_markdown",
    "render_report",
]
