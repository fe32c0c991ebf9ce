"""Report renderer: results of lmms-eval / lm-eval runs laid out like the papers' tables.

``temporal-bench report`` (see :func:`temporal_bench.report.cli.main_report`) reads results JSON
files, and renders each benchmark table layout (:mod:`temporal_bench.report.layouts`) with the
measured rows next to the published ones (:mod:`temporal_bench.published`).
"""

from temporal_bench.report.layouts import (
    LAYOUTS,
    Column,
    Layout,
    Setting,
    register_layout,
)
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
    "register_layout",
    "render_csv",
    "render_markdown",
    "render_report",
]
