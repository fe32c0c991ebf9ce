"""TempVS at full size: the requests a run sends against the questions the official protocol asks,
and the logged payload per doc (issues 12 and 13).

Runs the real lmms-eval CLI with the ``random_choice`` baseline and ``--log_samples`` on the
full-size synthetic release (full_size_data.py), then prints per task and per main test the
requests sent (lmms-eval's ``n-samples``; the main/grounding split from the logged records as the report reads them,
``LoggedRun.breakdowns``; ``--tasks tempvs``: one task asking every distinct question of the six tests once) next to
the protocol's count, and the bytes each sample line logs beyond its prompt (``input``) and response (``filtered_resps``, and ``resps`` when logged). No assertions.

    .venv/bin/python benchmarks/tempvs_requests.py                 # --tasks tempvs
    .venv/bin/python benchmarks/tempvs_requests.py --tasks tempvs_protocol
    .venv/bin/python benchmarks/tempvs_requests.py --tasks tempvs_mt2_event,tempvs_mt3_event
    .venv/bin/python benchmarks/tempvs_requests.py --run benchmarks/.data/runs/seed1   # a run of the same command, read again
"""

import argparse
import json
import statistics
from pathlib import Path

from full_size_data import add_data_options, data_env, data_folder, tempvs_protocol_requests
from processes import BIN, run

from temporal_bench.runs.logged import find_runs
from temporal_bench.tempvs.task_tests import per_test_results


def payload_bytes(line: str) -> int:
    """The sample line's bytes less its prompt and response (as logged, JSON-encoded)."""
    sample = json.loads(line)
    logged = len(line.encode())
    for key in ("input", "filtered_resps", "resps"):
        if key in sample:
            logged -= len(json.dumps(sample[key], ensure_ascii=False).encode()) - len(b'""')
    return logged


def random_run(tasks: str, env: dict[str, str], out: Path) -> Path:
    """The random baseline (seed 1) on ``tasks`` with ``--log_samples`` into ``out``; its results file."""
    command = [BIN / "lmms-eval", "--model", "random_choice", "--model_args", "seed=1", "--tasks", tasks, "--output_path", out, "--log_samples", "--verbosity", "ERROR"]
    run(command, env, log=out / "lmms-eval.log").checked()
    return sorted(out.glob("**/*_results.json"))[-1]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tasks", default="tempvs")
    parser.add_argument("--run", type=Path, help="a run folder of the same command (e.g. command_times.py's seed 1): read it, run nothing")
    add_data_options(parser)
    args = parser.parse_args(argv)
    env = data_env(args.workdir, ["tempvs"], args.fraction)
    protocol = tempvs_protocol_requests(data_folder(args.workdir, "tempvs", args.fraction))
    if args.run:
        results_path = sorted(args.run.glob("**/*_results.json"))[-1]
    else:
        results_path = random_run(args.tasks, env, args.workdir / "runs" / f"requests_{args.tasks.replace(',', '_')}")
    logged = next(found for found in find_runs(results_path.parent) if found.results_path == results_path)
    results = logged.data
    print(f"\n`--tasks {args.tasks}`\n")
    print("| task | test | protocol main | protocol grounding | sent main | sent grounding | task requests sent |")
    print("|---|---|---|---|---|---|---|")
    sent_total, grounding_tests, payloads, size = 0, {}, [], 0
    for task, n in sorted(results["n-samples"].items()):
        samples = logged.samples[task]
        size += samples.stat().st_size
        payloads += [payload_bytes(line) for line in samples.read_text(encoding="utf-8").splitlines()]
        values = logged.breakdowns(task)  # as the report reads them back
        sent_total += n["effective"]
        if "asked_count" in values:  # --tasks tempvs: each distinct question asked once, served to every test holding it
            print(f"| {task} | (all six tests) | | | | | {values['asked_count']} asked for {values['served_count']} |")
        for test, counts in per_test_results(task, values).items():
            expected = protocol[test]
            grounding_tests[expected["grounding_test"]] = expected["grounding"]
            print(f"| {task} | {test} | {expected['main']} | {expected['grounding']} | {counts['main_count']} | {counts['grounding_count']} | {n['effective']} |")
    distinct = sum(protocol[test]["main"] for task in results["n-samples"] for test in per_test_results(task, {}) if test in protocol) + sum(grounding_tests.values())
    print(f"\nsent {sent_total} requests; the protocol asks {distinct} questions (each grounding test's once)")
    print(
        f"logged payload per doc beyond prompt and response: mean {statistics.mean(payloads):.0f} B, "
        f"median {statistics.median(payloads):.0f} B, max {max(payloads)} B over {len(payloads)} docs; "
        f"samples files {size / 1e6:.1f} MB in all"
    )


if __name__ == "__main__":
    main()
