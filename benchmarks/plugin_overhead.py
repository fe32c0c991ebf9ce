"""What our tasks cost around the model, at full benchmark size (issue: performance targets).

For each task or group: the stage times measured in-process on the harness's own task objects
(dataset load + process_docs, doc_to_visual with every image decoded, doc_to_text,
process_results, aggregation; a group sums its tasks), the plugin overhead per request (median),
then an end-to-end run of the real lmms-eval CLI with the ``decode_only`` model (wall time, docs/s,
peak RSS of that run), and the start-up time our task folder adds to lmms-eval. (TempVS's requests
against the official protocol's: tempvs_requests.py.) Prints markdown tables; no assertions
(targets are checked by reading the figures).

    .venv/bin/python benchmarks/plugin_overhead.py --tasks catbench_switched
    .venv/bin/python benchmarks/plugin_overhead.py --tasks tempvs_mt1_two,tempvs
    .venv/bin/python benchmarks/plugin_overhead.py --tasks tempvs_protocol,tempvs --e2e-rounds 2
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from full_size_data import GENERATORS, TASK_BENCHMARK

BIN = Path(sys.executable).parent
OFFLINE = {"HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"}
STAGES = ("load_s", "visual_s", "text_s", "results_s", "aggregation_s")


def _timed(fn: Callable, *args):
    start = time.perf_counter()
    value = fn(*args)
    return value, time.perf_counter() - start


def leaf_tasks(name: str, task_manager) -> list[str]:
    """The tasks a name runs: itself, or a group's members (recursively, from its yaml)."""
    from lmms_eval import utils

    entry = task_manager.task_index[name]
    if entry["type"] != "group":
        return [name]
    members = utils.load_yaml_config(entry["yaml_path"], mode="simple")["task"]
    return [leaf for member in members for leaf in leaf_tasks(member, task_manager)]


def task_stage_times(task_name: str, task_manager) -> dict:
    """Stage sums (s) over one task's docs, and each doc's time in the per-request stages."""
    from lmms_eval.tasks import get_task_dict

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
    return {"docs": len(docs), "load_s": load_s, "visual_s": sum(visual), "text_s": sum(text), "results_s": sum(results), "aggregation_s": aggregation_s, "per_request_s": per_request}


def stage_times(name: str, task_manager, measured: dict[str, dict]) -> dict:
    """A task's or group's stage times; each task is measured once (``measured`` caches them)."""
    leaves = leaf_tasks(name, task_manager)
    for leaf in leaves:
        if leaf not in measured:
            measured[leaf] = task_stage_times(leaf, task_manager)
    parts = [measured[leaf] for leaf in leaves]
    total = {key: sum(part[key] for part in parts) for key in ("docs",) + STAGES}
    per_request = [t for part in parts for t in part["per_request_s"]]
    total["median_ms_per_request"] = 1000 * statistics.median(per_request)
    total["mean_ms_per_request_all_stages"] = 1000 * sum(total[stage] for stage in STAGES) / total["docs"]
    return total


def run_measured(command: list[str], env: dict[str, str], log: Path) -> tuple[float, float]:
    """Wall time (s) and peak RSS (MB) of one command; wait4 gives this child's own peak, not the
    running maximum over every child so far that RUSAGE_CHILDREN reports."""
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "w") as output:
        start = time.perf_counter()
        process = subprocess.Popen(command, env={**os.environ, **env}, stdout=output, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode:
        raise SystemExit(f"{' '.join(command)} failed ({process.returncode}); see {log}")
    return wall, usage.ru_maxrss / 1024


def end_to_end(task_name: str, env: dict[str, str], workdir: Path) -> dict:
    out = workdir / "runs" / task_name
    command = [str(BIN / "lmms-eval"), "--model", "decode_only", "--tasks", task_name, "--output_path", str(out), "--verbosity", "ERROR"]
    wall, peak_mb = run_measured(command, env, out / "lmms-eval.log")
    results = sorted(out.glob("**/*_results.json"))
    if not results:
        raise SystemExit(f"{task_name}: lmms-eval wrote no results file; see {out / 'lmms-eval.log'}")
    output = json.loads(results[-1].read_text())
    docs = sum(n["effective"] for n in output["n-samples"].values())
    return {"wall_s": wall, "docs_per_s": docs / wall, "peak_rss_mb": peak_mb, "output": output}


def startup_added(env: dict[str, str], rounds: int = 5) -> tuple[float, float]:
    """Best-of-``rounds`` TaskManager indexing time (s) with and without our task folder, in fresh
    processes, the two alternating so that load from other processes hits both alike."""
    code = "import time, lmms_eval.evaluator\nfrom lmms_eval.tasks import TaskManager\ns = time.perf_counter(); TaskManager('ERROR'); print(time.perf_counter() - s)"

    def index_time(extra: dict[str, str]) -> float:
        return float(subprocess.run([str(BIN / "python"), "-c", code], env={**os.environ, **env, **extra}, capture_output=True, text=True, check=True).stdout)

    times = [(index_time({}), index_time({"TEMPORAL_BENCH_NO_AUTO_TASKS": "1"})) for _ in range(rounds)]
    return min(with_ for with_, _ in times), min(without for _, without in times)


def alternate_end_to_end(tasks: list[str], env: dict[str, str], workdir: Path, rounds: int) -> None:
    """The end-to-end runs alone, alternating the tasks, so that a shared machine's load falls on each alike."""
    print("\n| `--tasks` | round | requests | e2e wall s | docs/s | peak RSS MB | load average |\n|---|---|---|---|---|---|---|")
    for number in range(1, rounds + 1):
        for task in tasks:
            e = end_to_end(task, env, workdir / f"round{number}")
            requests = sum(n["effective"] for n in e["output"]["n-samples"].values())
            print(f"| {task} | {number} | {requests} | {e['wall_s']:.1f} | {e['docs_per_s']:.0f} | {e['peak_rss_mb']:.0f} | {os.getloadavg()[0]:.1f} |", flush=True)


def main(argv: list[str] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tasks", default=",".join(TASK_BENCHMARK))
    parser.add_argument("--workdir", type=Path, default=Path(__file__).resolve().parent / ".data")
    parser.add_argument("--e2e-rounds", type=int, default=0, help="only the end-to-end runs, the tasks alternating, this many rounds (e.g. before/after a change)")
    args = parser.parse_args(argv)
    env = dict(OFFLINE)
    tasks = args.tasks.split(",")
    benchmarks = sorted({TASK_BENCHMARK[t] for t in tasks})
    for benchmark in benchmarks:
        env.update(GENERATORS[benchmark](args.workdir / benchmark))
    os.environ.update(env)
    if args.e2e_rounds:
        alternate_end_to_end(tasks, env, args.workdir, args.e2e_rounds)
        return

    import lmms_eval.evaluator  # noqa: F401  (loads our entry point like a real run)
    from lmms_eval.tasks import TaskManager

    task_manager = TaskManager("ERROR")
    measured: dict[str, dict] = {}
    print("\n| task | docs | load+process_docs s | doc_to_visual s | doc_to_text s | process_results s | aggregation s | median ms/request | mean ms/request (all stages) | e2e wall s | docs/s | peak RSS MB |")
    print("|---|" + "---|" * 11)
    for task in tasks:
        s = stage_times(task, task_manager, measured)
        e = end_to_end(task, env, args.workdir)
        print(
            f"| {task} | {s['docs']} | {s['load_s']:.2f} | {s['visual_s']:.2f} | {s['text_s']:.2f} | {s['results_s']:.2f} "
            f"| {s['aggregation_s']:.2f} | {s['median_ms_per_request']:.3f} | {s['mean_ms_per_request_all_stages']:.3f} "
            f"| {e['wall_s']:.1f} | {e['docs_per_s']:.0f} | {e['peak_rss_mb']:.0f} |",
            flush=True,
        )
    with_ours, without = startup_added(env)
    print(f"\nstart-up added by our task folder (TaskManager indexing, best of 5): {with_ours - without:.3f} s ({with_ours:.3f} s with, {without:.3f} s with TEMPORAL_BENCH_NO_AUTO_TASKS=1)")


if __name__ == "__main__":
    main()
