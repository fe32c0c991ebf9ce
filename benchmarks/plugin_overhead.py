"""What our tasks cost around the model, at full benchmark size (issue: performance targets).

For each task: the stage times measured in-process on the harness's own task objects (dataset load
+ process_docs, doc_to_visual with every image decoded, doc_to_text, process_results, aggregation),
the plugin overhead per request (median), then an end-to-end run of the real lmms-eval CLI with the
``decode_only`` model (wall time, docs/s, peak RSS), and the start-up time our task folder adds to
lmms-eval. Prints a markdown table; no assertions (targets are checked by reading the figures).

    .venv/bin/python benchmarks/plugin_overhead.py --tasks catbench_switched
"""

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable, Dict, List

from full_size_data import GENERATORS, TASK_BENCHMARK

BIN = Path(sys.executable).parent
OFFLINE = {"HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"}


def _timed(fn: Callable, *args):
    start = time.perf_counter()
    value = fn(*args)
    return value, time.perf_counter() - start


def stage_times(task_name: str) -> Dict:
    import lmms_eval.evaluator  # noqa: F401  (loads our entry point like a real run)
    from lmms_eval.tasks import TaskManager, get_task_dict

    task_manager = TaskManager("ERROR")
    task, load_s = _timed(lambda: get_task_dict([task_name], task_manager)[task_name])
    docs = list(task.test_docs())
    visual, text, results, per_request = [], [], [], []
    for doc in docs:
        images, t_visual = _timed(task.doc_to_visual, doc)
        for image in images:
            image.load()
        _, t_text = _timed(task.doc_to_text, doc)
        _, t_results = _timed(task.process_results, doc, [doc["answer"]])
        visual.append(t_visual)
        text.append(t_text)
        results.append(t_results)
        per_request.append(t_visual + t_text + t_results)
    records = [task.process_results(doc, [doc["answer"]]) for doc in docs]
    start = time.perf_counter()
    for metric, aggregate in task.aggregation().items():
        aggregate([r[metric] for r in records])
    aggregation_s = time.perf_counter() - start
    return {
        "docs": len(docs), "load_s": load_s, "visual_s": sum(visual), "text_s": sum(text),
        "results_s": sum(results), "aggregation_s": aggregation_s,
        "median_ms_per_request": 1000 * statistics.median(per_request),
        "mean_ms_per_request_all_stages": 1000 * (load_s + sum(per_request) + aggregation_s) / len(docs),
    }


def end_to_end(task_name: str, env: Dict[str, str], workdir: Path) -> Dict:
    out = workdir / "runs" / task_name
    command = [str(BIN / "lmms-eval"), "--model", "decode_only", "--tasks", task_name, "--output_path", str(out),
               "--verbosity", "ERROR"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.perf_counter()
    subprocess.run(command, env={**os.environ, **env}, check=True, capture_output=True)
    wall = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    results = sorted(out.glob("**/*_results.json"))
    if not results:
        raise SystemExit(f"{task_name}: lmms-eval wrote no results file")
    n = json.loads(results[-1].read_text())["n-samples"][task_name]["effective"]
    return {"wall_s": wall, "docs_per_s": n / wall, "peak_rss_mb": max(before, peak) / 1024}


def startup_added(env: Dict[str, str]) -> float:
    code = ("import time, lmms_eval.evaluator\nfrom lmms_eval.tasks import TaskManager\n"
            "s = time.perf_counter(); TaskManager('ERROR'); print(time.perf_counter() - s)")

    def run(extra):
        times = [float(subprocess.run([str(BIN / "python"), "-c", code], env={**os.environ, **env, **extra},
                                      capture_output=True, text=True, check=True).stdout) for _ in range(3)]
        return min(times)

    return run({}) - run({"TEMPORAL_BENCH_NO_AUTO_TASKS": "1"})


def main(argv: List[str] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tasks", default=",".join(TASK_BENCHMARK))
    parser.add_argument("--workdir", type=Path, default=Path(__file__).resolve().parent / ".data")
    args = parser.parse_args(argv)
    env = dict(OFFLINE)
    tasks = args.tasks.split(",")
    for benchmark in sorted({TASK_BENCHMARK[t] for t in tasks}):
        env.update(GENERATORS[benchmark](args.workdir / benchmark))
    os.environ.update(env)
    print("| task | docs | load+process_docs s | doc_to_visual s | doc_to_text s | process_results s | aggregation s "
          "| median ms/request | mean ms/request (all stages) | e2e wall s | docs/s | peak RSS MB |")
    print("|---|" + "---|" * 11)
    for task in tasks:
        s = stage_times(task)
        e = end_to_end(task, env, args.workdir)
        print(f"| {task} | {s['docs']} | {s['load_s']:.2f} | {s['visual_s']:.2f} | {s['text_s']:.2f} | {s['results_s']:.2f} "
              f"| {s['aggregation_s']:.2f} | {s['median_ms_per_request']:.3f} | {s['mean_ms_per_request_all_stages']:.3f} "
              f"| {e['wall_s']:.1f} | {e['docs_per_s']:.0f} | {e['peak_rss_mb']:.0f} |")
    print(f"\nstart-up added by our task folder (TaskManager indexing, best of 3): {startup_added(env):.3f} s")


if __name__ == "__main__":
    main()
