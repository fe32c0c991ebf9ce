"""When does ``temporal-bench report`` give a reproduction verdict? The gate of issue 52 on the real CaT-Bench test split.

Takes a copy of the release (a folder holding ``test_must_why/``, e.g. the official repository github.com/Anjali295/CatBench
at commit f6f2639, its ``data/``; the split is 3.2 MB and not shipped here) and runs lmms-eval's ``openai`` model class
against a local OpenAI-compatible server (tests/api_backends/mock_server.py: answers by a hash of the prompt, or one
unparseable answer) on ``catbench``, recording the model it names (``--model_args model=...``), then ``temporal-bench
check`` and ``temporal-bench report --table`` on each run:

- the untouched split as the paper's dated GPT-4o (``gpt-4o-2024-05-13``): its fingerprint is the release's, verdicts;
- a copy with 200 Dep and 200 NonDep step pairs swapped within plan and distance class (every count the same, check
  content): no verdict;
- the moving alias ``gpt-4o`` on the untouched split, reported with ``--label gpt-4o-2024-05-13``: no verdict;
- every answer unparseable: check fails, no verdict;
- ISO-Bench (no fingerprint of its release recorded) as its paper's GPT-4o (``gpt-4o-2024-11-20``): the package's
  generator at Table 2's counts with its marker file deleted (generated data by its content), data of Table 2's counts
  that is not the generator's, and the same with every image another example's of the same size: no verdict.

Prints a markdown table; ``--write`` puts it into benchmarks/RESULTS.md.

    python benchmarks/verdict_gate.py /path/to/CatBench/data [--write]
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from results_section import replace_table  # noqa: E402

from temporal_bench.catbench.fixtures import swap_labels  # noqa: E402
from temporal_bench.isobench.fixtures import write_fixture as write_isobench  # noqa: E402
from temporal_bench.synthetic_data import MARKER  # noqa: E402
from tests.api_backends.mock_server import MockServer, prompt_text  # noqa: E402
from tests.api_backends.runs import api_env  # noqa: E402
from tests.recorded.release_gate import isobench_images_swapped, isobench_release_counts  # noqa: E402

BIN = Path(sys.executable).parent
CATBENCH_GPT_4O, ISOBENCH_GPT_4O = "gpt-4o-2024-05-13", "gpt-4o-2024-11-20"
MARKS = {"=": "reproduced", "≈": "close", "≠": "differs"}


def hashed_answer(body: dict, n: int) -> str:
    """Yes or No by a hash of the prompt: the same answer to the same question in every run."""
    return "Yes" if hashlib.sha256(prompt_text(body).encode()).digest()[0] % 2 else "No"


def unmarked_generator(root: Path) -> Path:
    write_isobench(root, "json", n=764)
    (root / MARKER).unlink()
    return root


def lmms_eval(out: Path, task: str, model: str, url: str, env: dict[str, str]) -> None:
    command = [str(BIN / "lmms-eval"), "--model", "openai", "--model_args", f"model={model},base_url={url},max_retries=1,retry_backoff_s=0", "--tasks", task, "--output_path", str(out), "--log_samples"]
    done = subprocess.run(command, env={**os.environ, **env, **api_env(url), "HF_DATASETS_OFFLINE": "1"}, capture_output=True, text=True, cwd=out.parent)
    if done.returncode != 0:
        raise SystemExit(f"lmms-eval failed on {out}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")


def verdict_cells(out: Path, table: str, model_row: str, label: str | None) -> tuple[int, str, str, str]:
    """check's exit status, the measured row's model cell, the published row's cells' marks, and why no verdict."""
    check = subprocess.run([str(BIN / "temporal-bench"), "check", str(out)], capture_output=True, text=True)
    report = subprocess.run([str(BIN / "temporal-bench"), "report", str(out), "--table", table, *(["--label", label] if label else [])], capture_output=True, text=True, check=True).stdout
    measured = next(line for line in report.splitlines() if "| measured |" in line)
    published = next(line for line in report.splitlines() if line.startswith("| ") and f"| {model_row} | A | published |" in line)
    cells = [cell.strip() for cell in published.strip("|").split("|")][4:]
    found = {name: sum(cell.endswith(" " + mark) for cell in cells) for mark, name in MARKS.items()}
    found["unverified"] = sum(cell.endswith(" unverified") for cell in cells)
    marks = ", ".join(f"{count} {name}" for name, count in found.items() if count) or "none"
    why = re.search(r"has no verdict: ([^;\n]*)", report) or re.search(r"^- (\*\*.*?\*\*.*? is a moving alias)", report, re.MULTILINE)
    return check.returncode, measured.split("|")[2].strip(), marks, why.group(1)[:110] if why else ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("release", type=Path, help="a copy of the CaT-Bench release: a folder holding test_must_why/")
    parser.add_argument("--write", action="store_true", help="write the table into benchmarks/RESULTS.md")
    args = parser.parse_args()
    if not (args.release / "test_must_why").is_dir():
        raise SystemExit(f"{args.release}: no test_must_why/ folder (a copy of the CaT-Bench release's data/)")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        swapped = swap_labels(args.release / "test_must_why", work / "swapped" / "test_must_why", each=200).parent
        iso = {
            "generator, marker deleted": unmarked_generator(work / "iso_generated"),
            "Table 2's counts, not the generator's": isobench_release_counts(work / "iso_counts"),
            "the same, every image another example's": isobench_images_swapped(work / "iso_images"),
        }
        cases = [
            ("CaT-Bench test split, untouched", "catbench", {"CATBENCH_DATA_DIR": str(args.release)}, CATBENCH_GPT_4O, None, hashed_answer),
            ("CaT-Bench test split, 400 labels swapped within plan and distance class", "catbench", {"CATBENCH_DATA_DIR": str(swapped)}, CATBENCH_GPT_4O, None, hashed_answer),
            ("CaT-Bench test split, untouched; moving alias relabelled", "catbench", {"CATBENCH_DATA_DIR": str(args.release)}, "gpt-4o", CATBENCH_GPT_4O, hashed_answer),
            ("CaT-Bench test split, untouched; every answer unparseable", "catbench", {"CATBENCH_DATA_DIR": str(args.release)}, CATBENCH_GPT_4O, None, lambda body, n: "Perhaps."),
            *((f"ISO-Bench, {name}", "isobench", {"ISOBENCH_DATA_DIR": str(folder)}, ISOBENCH_GPT_4O, None, hashed_answer) for name, folder in iso.items()),
        ]
        rows = ["| data | model recorded | --label | check | row | published GPT-4o cells | why no verdict |", "|---|---|---|--:|---|---|---|"]
        for i, (name, task, env, model, label, answer) in enumerate(cases):
            out = work / f"run{i}" / "out"
            out.parent.mkdir(parents=True)
            with MockServer(answer, max_requests=4000, lifetime_s=900) as server:
                lmms_eval(out, task, model, server.base_url, env)
            status, row, marks, why = verdict_cells(out, f"{task}-table1", "gpt-4o", label)
            rows.append(f"| {name} | {model} | {label or ''} | {'OK' if status == 0 else 'fails'} | {row} | {marks} | {why} |")
            print(rows[-1], flush=True)
    table = "\n".join(rows) + f"\n\nRun {datetime.date.today().isoformat()} on {args.release} (`python benchmarks/verdict_gate.py`)."
    print(table)
    if args.write:
        replace_table("verdict_gate.py", table)


if __name__ == "__main__":
    main()
