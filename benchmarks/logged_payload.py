"""The bytes each logged sample line holds beyond its prompt and response, averaged per task (issue 39: at most 2 KB
for every task): a samples line less its ``input``, ``arguments``, ``resps`` and ``filtered_resps``.

    python benchmarks/logged_payload.py demo_output/results     # the demo's run (``temporal-bench demo``)
"""

import argparse
import json
from pathlib import Path

LEFT_OUT = ("input", "arguments", "resps", "filtered_resps")


def payload(line: dict) -> int:
    return len(json.dumps({key: value for key, value in line.items() if key not in LEFT_OUT}, ensure_ascii=False).encode())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", type=Path, help="a run's --output_path folder")
    folder = parser.parse_args(argv).folder
    print("| task | samples | mean B | max B |\n|---|--:|--:|--:|")
    for path in sorted(folder.rglob("*_samples_*.jsonl")):
        sizes = [payload(json.loads(line)) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        print(f"| {path.stem.split('_samples_')[1]} | {len(sizes)} | {sum(sizes) / len(sizes):,.0f} | {max(sizes):,} |")


if __name__ == "__main__":
    main()
