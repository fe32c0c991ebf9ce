"""What ``check``, ``report``, ``compare`` and ``browse`` cost on full-size TempVS runs, against the floor: parsing the
same samples files with the standard library's ``json`` (issue 54).

Two runs of the one-task ``tempvs`` suite (the random baseline, seeds 1 and 2) on the full-size synthetic release
(benchmarks/full_size_data.py: 39,541 questions) are made once through lmms-eval under benchmarks/.data/runs/; the
10% and 50% sizes keep the samples of a share of the image sequences (every question of a kept sequence, so that
TempVS's joins stay whole). Each command runs as a whole process (``temporal-bench ...``), each size ``--rounds``
times; the table gives the median wall time and CPU time (user and system, the process's and its children's: what a
machine shared with other jobs changes least), the largest peak RSS, and each time as a multiple of the floor (json
parsing of the run's samples files, best of the rounds). ``lmms-eval import`` is what importing the harness costs a
process (``check`` needs it for a model class of lmms-eval's own only).

    .venv/bin/python benchmarks/command_times.py                  # prints the table
    .venv/bin/python benchmarks/command_times.py --write          # and replaces it in RESULTS.md
    .venv/bin/python benchmarks/command_times.py --runs A B --sizes 0.5 --rounds 1 --import-rounds 0   # two small runs (the suite's smoke run)
"""

import argparse
import hashlib
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from full_size_data import add_data_options, data_env, data_folder
from processes import BIN, Finished, run
from results_section import replace_table

SEEDS = (1, 2)


def full_runs(workdir: Path, fraction: float) -> dict[int, Path]:
    """The two full-size runs, made once (about two minutes each on 2 cores)."""
    env = data_env(workdir, ["tempvs"], fraction)
    runs = {}
    for seed in SEEDS:
        out = data_folder(workdir, "runs", fraction) / f"seed{seed}"
        if not list(out.rglob("*_results.json")):
            command = [BIN / "lmms-eval", "--model", "random_choice", "--model_args", f"seed={seed}", "--tasks", "tempvs", "--output_path", out, "--log_samples", "--verbosity", "WARNING"]
            run(command, env).checked()
        runs[seed] = out
    return runs


def _kept(line: dict, share: float) -> bool:
    """Whether a sample line's image sequence is among the share kept (by a digest of its source and sequence)."""
    record = next(value for value in line.values() if isinstance(value, dict) and "img_seq_id" in value)
    digest = hashlib.sha256(f"{record['source']}/{record['img_seq_id']}".encode()).digest()
    return int.from_bytes(digest[:4], "big") / 2**32 < share


def sized_run(full: Path, share: float, folder: Path) -> Path:
    """``full`` with the samples of ``share`` of the image sequences (the whole run at 1.0)."""
    if share >= 1:
        return full
    for path in full.rglob("*"):
        if path.is_file() and path.suffix in (".json", ".jsonl"):
            target = folder / path.relative_to(full)
            target.parent.mkdir(parents=True, exist_ok=True)
            if path.suffix == ".json":
                shutil.copy(path, target)
                continue
            with open(path, encoding="utf-8") as lines, open(target, "w", encoding="utf-8") as kept:
                kept.writelines(line for line in lines if _kept(json.loads(line), share))
    return folder


def json_floor(folder: Path) -> tuple[float, float]:
    """(wall, CPU) seconds to parse the run's samples files line by line with ``json``."""
    start, cpu = time.perf_counter(), time.process_time()
    for path in folder.rglob("*.jsonl"):
        with open(path, encoding="utf-8") as lines:
            for line in lines:
                json.loads(line)
    return time.perf_counter() - start, time.process_time() - cpu


def timed(command: list, cwd: Path) -> Finished:
    return run(command, cwd=cwd).checked(ok=(0, 1))  # check exits 1 on the generated data's counts


def commands(a: Path, b: Path, work: Path) -> dict[str, list]:
    program = BIN / "temporal-bench"
    return {
        "check": [program, "check", a],
        "report": [program, "report", a],
        "compare": [program, "compare", a, b],
        "browse": [program, "browse", a, "--output", work / "page.html"],
    }


def harness_import(rounds: int) -> float:
    """Seconds a fresh interpreter takes to import lmms-eval's models and tasks, best of ``rounds``."""
    return min(run([sys.executable, "-c", "import lmms_eval.models, lmms_eval.tasks"]).checked().wall_s for _ in range(rounds))


def measure(sizes: list[float], rounds: int, runs: dict[int, Path]) -> str:
    rows = ["| size | questions | json floor s (CPU s) | command | wall s (median) | x floor | CPU s (median) | CPU x floor | peak RSS MB |", "|--:|--:|--:|---|--:|--:|--:|--:|--:|"]
    with tempfile.TemporaryDirectory(prefix="command-times-") as folder:
        work = Path(folder)
        for share in sizes:
            a, b = (sized_run(runs[seed], share, work / f"{share}" / f"seed{seed}") for seed in SEEDS)
            questions = sum(1 for path in a.rglob("*.jsonl") for _ in open(path, encoding="utf-8"))
            floor, floor_cpu = min(json_floor(a) for _ in range(rounds))
            for name, command in commands(a, b, work).items():
                found = [timed(command, work) for _ in range(rounds)]
                wall, cpu = statistics.median(f.wall_s for f in found), statistics.median(f.cpu_s for f in found)
                peak = max(f.peak_mb for f in found)
                rows.append(f"| {share:.0%} | {questions:,} | {floor:.2f} ({floor_cpu:.2f}) | `{name}` | {wall:.1f} | {wall / floor:.1f} | {cpu:.1f} | {cpu / floor_cpu:.1f} | {peak:,.0f} |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="0.1,0.5,1.0", help="shares of the full size (default: %(default)s)")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each command per size (default: %(default)s)")
    parser.add_argument("--runs", type=Path, nargs=2, metavar="RUN_DIR", help="two runs of the tempvs suite task to time instead of the full-size ones (the suite's smoke run)")
    parser.add_argument("--import-rounds", type=int, default=3, help="fresh processes importing lmms-eval, the best taken (0: not measured)")
    parser.add_argument("--write", action="store_true", help="replace the table in benchmarks/RESULTS.md")
    add_data_options(parser)
    args = parser.parse_args(argv)
    runs = dict(zip(SEEDS, args.runs)) if args.runs else full_runs(args.workdir, args.fraction)
    table = measure([float(size) for size in args.sizes.split(",")], args.rounds, runs)
    if args.import_rounds:
        table += f"\n\nlmms-eval import in a fresh process (best of {args.import_rounds}): {harness_import(args.import_rounds):.1f} s."
    print(table)
    if args.write:
        replace_table("command_times.py", table)


if __name__ == "__main__":
    main()
