"""What the export says about one benchmark beyond its code: the paper, the data upstream reads and where lmms-eval's
task list names it.

Each benchmark keeps its facts in its own folder (``temporal_bench.<benchmark>.upstream``, named by the
manifest's ``upstream``: temporal_bench/manifest.py), so adding a benchmark to the export touches that folder only.
"""

import importlib
import re
from dataclasses import dataclass

from temporal_bench import benchmarks
from temporal_bench.benchmarks import Benchmark


@dataclass(frozen=True)
class UpstreamFacts:
    summary: str  # what is asked, one paragraph
    hub_dataset: str  # the dataset the upstream YAMLs name in dataset_path
    build_command: str | None  # how that dataset is made from the official release (None: it is the release)
    reference: str  # the paper as the folder's README and the description cite it: "Authors. Title. Venue Year"
    bibtex: str  # the paper's BibTeX entry, for the pull request's description
    homepage: str  # the official repository or paper page, linked from lmms-eval's docs/advanced/current_tasks.md
    task_list_section: str  # the heading of docs/advanced/current_tasks.md whose list names the benchmark
    task_titles: dict[str, str]  # each task and group of the folder but the benchmark's own: its line in the task list
    smoke_response: str  # what lmms-eval's dummy model answers in the description's smoke run: every task's format
    out_of_scope: str = ""  # what the pull request leaves out of the paper's settings, and why
    lm_eval_description: str = ""  # the benchmark's row in lm-eval's task table (a benchmark with an lm-eval folder)


class NoUpstreamFacts(LookupError):
    """A registered benchmark that names no facts module cannot be exported."""


def exportable() -> list[str]:
    """The registered benchmarks that name their facts module: those the export writes."""
    return [name for name in benchmarks.names() if benchmarks.get(name).manifest.upstream]


def facts_of(benchmark: Benchmark) -> UpstreamFacts:
    """The facts module's ``UPSTREAM`` of ``benchmark``."""
    if not benchmark.manifest.upstream:
        raise NoUpstreamFacts(f"benchmark {benchmark.name!r} names no upstream facts module (Manifest.upstream)")
    return importlib.import_module(benchmark.manifest.upstream).UPSTREAM


def paper_reference(facts: UpstreamFacts) -> tuple[str, str]:
    """(reference, arXiv id or ""): the facts' reference and its BibTeX's ``eprint``."""
    eprint = re.search(r'eprint = "([\d.]+)"', facts.bibtex)
    return facts.reference, eprint.group(1) if eprint else ""
