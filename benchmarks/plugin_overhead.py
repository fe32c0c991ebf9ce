"""What our tasks cost around the model, at full benchmark size (issue: performance targets).

For each task or group: the stage times (CPU seconds) measured in-process on the harness's own task objects
(dataset load + process_docs, doc_to_visual with every image decoded, doc_to_text,
process_results, aggregation; a group sums its tasks), the plugin overhead per request (median),
the mean per doc of every stage but doc_to_visual (what the task adds over decoding the images; issue 54: at most
0.5 ms), then an end-to-end run of the real lmms-eval CLI with the ``decode_only`` model (wall time, docs/s,
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
import time
from collections.abc import Callable
from pathlib import Path

from full_size_data import TASK_BENCHMARK, add_data_options, data_env, data_folder
from processes import BIN, OFFLINE, run

STAGES = ("load_s", "visual_s", "text_s", "results_s", "aggregation_s")


def _timed(fn: Callable, *args):
    """``fn(*args)`` and the CPU seconds it took this process (the wall clock of a machine shared with other jobs
    counts their time too: 2026-11-29, load average 8, it read about 4 times the CPU time)."""
    start = time.process_time()
    value = fn(*args)
    return value, time.process_time() - start


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
    _, aggregation_s = _timed(lambda: [aggregate([r[metric] for r in records]) for metric, aggregate in task.aggregation().items()])
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
    total["mean_ms_per_doc_beyond_decoding"] = 1000 * sum(total[stage] for stage in STAGES if stage != "visual_s") / total["docs"]
    return total


def end_to_end(task_name: str, env: dict[str, str], runs: Path) -> dict:
    out = runs / task_name
    command = [BIN / "lmms-eval", "--model", "decode_only", "--tasks", task_name, "--output_path", out, "--verbosity", "ERROR"]
    finished = run(command, env, log=out / "lmms-eval.log").checked()
    wall, peak_mb = finished.wall_s, finished.peak_mb
    results = sorted(out.glob("**/*_results.json"))
    if not results:
        raise SystemExit(f"{task_name}: lmms-eval wrote no results file; see {out / 'lmms-eval.log'}")
    output = json.loads(results[-1].read_text())
    docs = sum(n["effective"] for n in output["n-samples"].values())
    return {"wall_s": wall, "docs_per_s": docs / wall, "peak_rss_mb": peak_mb, "output": output}


def startup_added(env: dict[str, str], rounds: int) -> tuple[float, float]:
    """Best-of-``rounds`` TaskManager indexing time (CPU s) with and without our task folder, in fresh
    processes, the two alternating so that load from other processes hits both alike."""
    code = "import time, lmms_eval.evaluator\nfrom lmms_eval.tasks import TaskManager\ns = time.process_time(); TaskManager('ERROR'); print(time.process_time() - s)"

    def index_time(extra: dict[str, str]) -> float:
        return float(run([BIN / "python", "-c", code], {**env, **extra}).checked().stdout)

    times = [(index_time({}), index_time({"TEMPORAL_BENCH_NO_AUTO_TASKS": "1"})) for _ in range(rounds)]
    return min(with_ for with_, _ in times), min(without for _, without in times)


def alternate_end_to_end(tasks: list[str], env: dict[str, str], runs: Path, rounds: int) -> None:
    """The end-to-end runs alone, alternating the tasks, so that a shared machine's load falls on each alike."""
    print("\n| `--tasks` | round | requests | e2e wall s | docs/s | peak RSS MB | load average |\n|---|---|---|---|---|---|---|")
    for number in range(1, rounds + 1):
        for task in tasks:
            e = end_to_end(task, env, runs / f"round{number}")
            requests = sum(n["effective"] for n in e["output"]["n-samples"].values())
            print(f"| {task} | {number} | {requests} | {e['wall_s']:.1f} | {e['docs_per_s']:.0f} | {e['peak_rss_mb']:.0f} | {os.getloadavg()[0]:.1f} |", flush=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tasks", default=",".join(TASK_BENCHMARK))
    parser.add_argument("--e2e-rounds", type=int, default=0, help="only the end-to-end runs, the tasks alternating, this many rounds (e.g. before/after a change)")
    parser.add_argument("--startup-rounds", type=int, default=5, help="fresh processes timed, with and without our task folder, for the start-up it adds (0: none)")
    add_data_options(parser)
    args = parser.parse_args(argv)
    tasks = args.tasks.split(",")
    env = {**OFFLINE, **data_env(args.workdir, sorted({TASK_BENCHMARK[t] for t in tasks}), args.fraction)}
    os.environ.update(env)
    runs = data_folder(args.workdir, "runs", args.fraction)
    if args.e2e_rounds:
        alternate_end_to_end(tasks, env, runs, args.e2e_rounds)
        return

    import lmms_eval.evaluator  # noqa: F401  (loads our entry point like a real run)
    from lmms_eval.tasks import TaskManager

    task_manager = TaskManager("ERROR")
    measured: dict[str, dict] = {}
    beyond_decoding = {}
    print("\n| task | docs | load+process_docs s | doc_to_visual s | doc_to_text s | process_results s | aggregation s | median ms/request | mean ms/request (all stages) | e2e wall s | docs/s | peak RSS MB |")
    print("|---|" + "---|" * 11)
    for task in tasks:
        s = stage_times(task, task_manager, measured)
        e = end_to_end(task, env, runs)
        print(
            f"| {task} | {s['docs']} | {s['load_s']:.2f} | {s['visual_s']:.2f} | {s['text_s']:.2f} | {s['results_s']:.2f} "
            f"| {s['aggregation_s']:.2f} | {s['median_ms_per_request']:.3f} | {s['mean_ms_per_request_all_stages']:.3f} "
            f"| {e['wall_s']:.1f} | {e['docs_per_s']:.0f} | {e['peak_rss_mb']:.0f} |",
            flush=True,
        )
        beyond_decoding[task] = s["mean_ms_per_doc_beyond_decoding"]
    print("\nmean ms per doc beyond decoding (every stage but doc_to_visual): " + ", ".join(f"{task} {ms:.3f}" for task, ms in beyond_decoding.items()))
    if args.startup_rounds:
        with_ours, without = startup_added(env, args.startup_rounds)
        print(f"\nstart-up added by our task folder (TaskManager indexing, CPU s, best of {args.startup_rounds}): {with_ours - without:.3f} s ({with_ours:.3f} s with, {without:.3f} s with TEMPORAL_BENCH_NO_AUTO_TASKS=1)")


if __name__ == "__main__":
    main()
