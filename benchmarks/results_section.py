"""A script's table in benchmarks/RESULTS.md, between the markers ``<!-- SCRIPT: begin -->`` and ``<!-- SCRIPT: end -->``."""

import re
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "RESULTS.md"


def replace_table(script: str, table: str) -> None:
    """Put ``table`` between ``script``'s markers in RESULTS.md (an error when the markers are missing)."""
    begin, end = f"<!-- {script}: begin -->", f"<!-- {script}: end -->"
    text = RESULTS.read_text(encoding="utf-8")
    if begin not in text:
        raise SystemExit(f"{RESULTS}: no {begin} marker")
    RESULTS.write_text(re.sub(rf"{re.escape(begin)}.*?{re.escape(end)}", lambda _: f"{begin}\n{table}\n{end}", text, flags=re.S), encoding="utf-8")
