"""Report renderer: results of lmms-eval / lm-eval runs laid out like the papers' tables.

``temporal-bench report`` (see :func:`temporal_bench.report.cli.main_report`) reads results JSON
files (:mod:`temporal_bench.runs.results`), builds each benchmark table layout
(:mod:`temporal_bench.report.layouts`) with the measured rows next to the published ones
(:mod:`temporal_bench.report.model`), and renders it (:mod:`temporal_bench.report.render`); each
benchmark's layouts, figures and published tables come from its registry entry
(:mod:`temporal_bench.benchmarks`).
"""

from temporal_bench.report.layouts import LAYOUTS, Column, Layout, Setting
from temporal_bench.report.model import build_report
from temporal_bench.report.render import render_report
from temporal_bench.report.rows import build_rows

__all__ = [
    "LAYOUTS",
    "Column",
    "Layout",
    "Setting",
    "build_report",
    "build_rows",
    "render_report",
]
