"""JSON-lines reading whose errors name the file and the line."""

import json
from pathlib import Path
from typing import Dict, List, Tuple, Type


def json_lines(path: Path, text: str, error: Type[Exception]) -> List[Tuple[int, Dict]]:
    """(line number, object) for every non-blank line; a line that is not a JSON object raises ``error``."""
    rows = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise error(f"{path}:{number}: not valid JSON ({exc.msg}); a truncated or corrupt row?") from None
        if not isinstance(row, dict):
            raise error(f"{path}:{number}: not a JSON object but {row!r:.80}")
        rows.append((number, row))
    return rows


def json_lines_after(whole: json.JSONDecodeError, path: Path, text: str, error: Type[Exception]) -> List[Tuple[int, Dict]]:
    """A file the whole-file JSON parse rejected: its JSON lines when the first line is an object on
    its own, else ``error`` naming where the whole-file parse failed (a truncated or corrupt file)."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    try:
        is_lines = isinstance(json.loads(first), dict)
    except json.JSONDecodeError:
        is_lines = False
    if not is_lines:
        raise error(f"{path}: neither JSON nor JSON lines: line {whole.lineno}, column {whole.colno} ({whole.msg}); a truncated or corrupt file?") from None
    return json_lines(path, text, error)
