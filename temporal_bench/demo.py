"""The README's main job: write the demo data, evaluate it with a no-download baseline through the
real lmms-eval CLI, print its results table, fail loudly when the results file is missing (the
lmms-eval CLI exits 0 even when an evaluation fails), and write the paper-layout report."""

import glob
import json
import os
import subprocess
import sys
from functools import partial
from pathlib import Path
from typing import Callable, Dict, List, NamedTuple

from temporal_bench.catbench import fixtures as catbench_fixtures
from temporal_bench.isobench import fixtures as isobench_fixtures
from temporal_bench.tempvs import fixtures as tempvs_fixtures


class DemoBenchmark(NamedTuple):
    data_dir_env: str
    write_data: Callable[[Path], Path]
    tasks: List[str]
    extra_env: Dict[str, str]


DEMO_BENCHMARKS = {
    "catbench": DemoBenchmark("CATBENCH_DATA_DIR", partial(catbench_fixtures.write_fixture, n_plans=8, pairs_per_class=5),
                              ["catbench_switched"], {}),
    "isobench": DemoBenchmark("ISOBENCH_DATA_DIR", partial(isobench_fixtures.write_fixture, n=96), ["isobench"], {}),
    # TempVS's generator fills the released instruction templates (../shared/data/tempvs or TEMPVS_TEMPLATES_DIR)
    "tempvs": DemoBenchmark("TEMPVS_DATA_DIR", partial(tempvs_fixtures.write_fixture, n_sequences=30), ["tempvs"], {}),
}


def run_demo(output: Path, model: str = "random_choice", model_args: str = "seed=1234") -> Dict:
    output = output.resolve()
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"}
    tasks = []
    for name, benchmark in DEMO_BENCHMARKS.items():
        env[benchmark.data_dir_env] = str(benchmark.write_data(output / "data" / name))
        env.update(benchmark.extra_env)
        tasks += benchmark.tasks
    results_dir = output / "results"
    before = set(glob.glob(str(results_dir / "**" / "*_results.json"), recursive=True))
    command = [str(Path(sys.executable).parent / "lmms-eval"), "--model", model, "--model_args", model_args,
               "--tasks", ",".join(tasks), "--output_path", str(results_dir), "--log_samples", "--verbosity", "WARNING"]
    subprocess.run(command, env=env, check=True)
    written = sorted(set(glob.glob(str(results_dir / "**" / "*_results.json"), recursive=True)) - before)
    if not written:
        raise SystemExit(f"lmms-eval wrote no results file under {results_dir}: the evaluation failed (see its log above)")
    with open(written[-1], encoding="utf-8") as handle:
        results = json.load(handle)
    missing = [task for task in tasks if task not in results["results"]]
    if missing:
        raise SystemExit(f"lmms-eval results {written[-1]} lack tasks {missing}")
    print(f"\nresults: {written[-1]}")
    print(write_report(results_dir, output / "report"))
    print(write_browse_page(Path(written[-1]), output / "browse.html", {b.data_dir_env: env[b.data_dir_env] for b in DEMO_BENCHMARKS.values()}))
    return results


def write_report(results_dir: Path, folder: Path) -> str:
    """The papers' tables (markdown, CSV) and figures (PNG) for the demo run, beside the published rows."""
    from temporal_bench.report.cli import write_output_dir
    from temporal_bench.report.layouts import LAYOUTS
    from temporal_bench.report.render import layouts_for
    from temporal_bench.report.results import load_runs

    runs = load_runs([Path(os.path.relpath(results_dir))])
    listing = write_output_dir(folder, runs, layouts_for(runs, LAYOUTS.values()), include_published=True)
    return "Paper-layout report (temporal-bench report):" + listing


def write_browse_page(results_file: Path, page: Path, data_dirs: Dict[str, str]) -> str:
    """One card per question of the demo run, with its images (read from the demo data)."""
    from temporal_bench.browse.cli import write_page
    from temporal_bench.report.rescore import scoring_environment

    with scoring_environment(data_dirs):
        return f"\nThe model's answers, one card per question (temporal-bench browse): {write_page(results_file, page)}"
