"""What ``check``, ``report``, ``compare`` and ``browse`` cost on full-size TempVS runs, against the floor: parsing the
same samples files with the standard library's ``json`` (issue 54).

Two runs of the one-task ``tempvs`` suite (the random baseline, seeds 1 and 2) on the full-size synthetic release
(benchmarks/full_size_data.py: 39,541 questions) are made once through lmms-eval under benchmarks/.data/runs/; the
10% and 50% sizes keep the samples of a share of the image sequences (every question of a kept sequence, so that
TempVS's joins stay whole). Each command runs as a whole process (``temporal-bench ...``), each size ``--rounds``
times; the table gives the median wall time, the largest peak RSS, and the time as a multiple of the floor (json
parsing of the run's samples files, best of the rounds). ``lmms-eval import`` is what importing the harness costs a
process (``check`` needs it for a model class of lmms-eval's own only).

    .venv/bin/python benchmarks/command_times.py                  # prints the table
    .venv/bin/python benchmarks/command_times.py --write          # and replaces it in RESULTS.md
    .venv/bin/python benchmarks/command_times.py --runs A B --sizes 0.5 --rounds 1   # two small runs (the suite's smoke run)
"""

import argparse
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from full_size_data import GENERATORS
from results_section import replace_table

DATA = Path(__file__).resolve().parent / ".data"
BIN = Path(sys.executable).parent
OFFLINE = {"HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"}
SEEDS = (1, 2)


def full_runs() -> dict[int, Path]:
    """The two full-size runs, made once (about two minutes each on 2 cores)."""
    env = {**os.environ, **OFFLINE, **GENERATORS["tempvs"](DATA / "tempvs")}
    runs = {}
    for seed in SEEDS:
        out = DATA / "runs" / f"seed{seed}"
        if not list(out.rglob("*_results.json")):
            command = [str(BIN / "lmms-eval"), "--model", "random_choice", "--model_args", f"seed={seed}", "--tasks", "tempvs", "--output_path", str(out), "--log_samples", "--verbosity", "WARNING"]
            subprocess.run(command, env=env, check=True, capture_output=True)
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


def json_floor(run: Path) -> float:
    """Seconds to parse the run's samples files line by line with ``json``."""
    start = time.perf_counter()
    for path in run.rglob("*.jsonl"):
        with open(path, encoding="utf-8") as lines:
            for line in lines:
                json.loads(line)
    return time.perf_counter() - start


def timed(command: list[str], cwd: Path) -> tuple[float, float]:
    """(wall seconds, peak RSS in MB) of one process."""
    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, env={**os.environ, **OFFLINE}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) not in (0, 1):  # check exits 1 on the generated data's counts
        raise SystemExit(f"{' '.join(command)} failed with status {os.waitstatus_to_exitcode(status)}")
    return wall, usage.ru_maxrss / 1024


def commands(a: Path, b: Path, work: Path) -> dict[str, list[str]]:
    program = str(BIN / "temporal-bench")
    return {
        "check": [program, "check", str(a)],
        "report": [program, "report", str(a)],
        "compare": [program, "compare", str(a), str(b)],
        "browse": [program, "browse", str(a), "--output", str(work / "page.html")],
    }


def harness_import() -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import lmms_eval.models, lmms_eval.tasks"], check=True, env={**os.environ, **OFFLINE})
    return time.perf_counter() - start


def measure(sizes: list[float], rounds: int, given: list[Path] | None = None) -> str:
    runs = dict(zip(SEEDS, given)) if given else full_runs()
    rows = ["| size | questions | json floor s | command | wall s (median) | x floor | peak RSS MB |", "|--:|--:|--:|---|--:|--:|--:|"]
    with tempfile.TemporaryDirectory(prefix="command-times-") as folder:
        work = Path(folder)
        for share in sizes:
            a, b = (sized_run(runs[seed], share, work / f"{share}" / f"seed{seed}") for seed in SEEDS)
            questions = sum(1 for path in a.rglob("*.jsonl") for _ in open(path, encoding="utf-8"))
            floor = min(json_floor(a) for _ in range(rounds))
            for name, command in commands(a, b, work).items():
                found = [timed(command, work) for _ in range(rounds)]
                wall = statistics.median(wall for wall, _ in found)
                rows.append(f"| {share:.0%} | {questions:,} | {floor:.2f} | `{name}` | {wall:.1f} | {wall / floor:.1f} | {max(rss for _, rss in found):,.0f} |")
    return "\n".join(rows) + f"\n\nlmms-eval import in a fresh process: {harness_import():.1f} s."


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="0.1,0.5,1.0", help="shares of the full size (default: %(default)s)")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each command per size (default: %(default)s)")
    parser.add_argument("--runs", type=Path, nargs=2, metavar="RUN_DIR", help="two runs of the tempvs suite task to time instead of the full-size ones (the suite's smoke run)")
    parser.add_argument("--write", action="store_true", help="replace the table in benchmarks/RESULTS.md")
    args = parser.parse_args()
    table = measure([float(size) for size in args.sizes.split(",")], args.rounds, args.runs)
    print(table)
    if args.write:
        replace_table("command_times.py", table)


if __name__ == "__main__":
    main()
