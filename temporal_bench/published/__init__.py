"""The papers' published numbers, as data.

One CSV per paper table, named ``<benchmark>_table<N>.csv`` (``catbench_table6_7.csv`` holds
Tables 6 and 7 together), in the benchmark's ``published/`` folder (``tempvs/published/``; the
registry's ``Benchmark.published``). Each file starts with ``# key: value`` lines carrying its provenance
(paper, arXiv id, table, a caption-level description, units, the percent columns, the id
columns, the meaning of its flags, the paper table it was transcribed from),
then one wide CSV table: one row per printed row, one column per printed value column, values
exactly as printed (a trailing ``%`` dropped), followed by two columns:

- ``flags``: ``;``-separated tokens, ``kind:column`` for a cell or a bare ``kind`` for the row:
  ``typo`` (the printed value contradicts the rest of its row), ``ocr_uncertain`` (the cell was
  reconstructed from a damaged text extraction and contradicts the rest of its row),
  ``suspect`` (the value disagrees with its definition), ``dagger`` (ISO-Bench rows whose
  aggregate F does not fit their per-class F), ``other_rule`` (a row that fits only another
  scoring rule than the one the table's measured rows use: no reproduction verdict).
- ``note``: a short explanation for the flags.

An empty value cell means the paper prints ``-`` (undefined) or nothing. Values are never
corrected: a flagged cell keeps the printed value.
Every cell is checked against a transcription of the papers' text
(``tests/unit/test_published_transcription.py``).

>>> t = load_table("catbench", 1)
>>> t.value(model="gpt-4o", setting="A")["macro_f"]
0.49
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from temporal_bench import benchmarks

__all__ = ["PublishedTable", "list_tables", "load_table", "parse_flags"]


def _folders():
    """(benchmark name, its published folder) of every benchmark that has one."""
    return [(b.name, b.published) for b in benchmarks.all_benchmarks() if b.published is not None]


def _table_id(table: int | str) -> str:
    return str(table).strip().lower().removeprefix("table").strip().replace("-", "_").replace("/", "_")


def list_tables() -> list[tuple[str, str]]:
    """(benchmark, table) of every published table of the registered benchmarks, sorted."""
    out = []
    for benchmark, folder in _folders():
        for entry in folder.iterdir():
            name = entry.name
            if name.startswith(f"{benchmark}_table") and name.endswith(".csv"):
                out.append((benchmark, name[len(f"{benchmark}_table") : -len(".csv")]))

    def key(item):
        head = item[1].split("_")[0]
        return (item[0], int(head) if head.isdigit() else 10**6, item[1])

    return sorted(out, key=key)


def parse_flags(text: str | None) -> dict[str, set[str]]:
    """``"dagger;ocr_uncertain:avg_f"`` -> ``{"dagger": {""}, "ocr_uncertain": {"avg_f"}}``."""
    out: dict[str, set[str]] = {}
    for token in (text or "").split(";"):
        token = token.strip()
        if not token:
            continue
        kind, _, column = token.partition(":")
        out.setdefault(kind, set()).add(column)
    return out


@dataclass
class PublishedTable:
    benchmark: str
    table: str
    meta: dict[str, str]
    columns: list[str]
    rows: list[dict[str, Any]]
    raw: list[dict[str, str]] = field(repr=False, default_factory=list)

    @property
    def id_columns(self) -> list[str]:
        return [c for c in self.meta.get("id_columns", "").split(",") if c]

    @property
    def percent_columns(self) -> set[str]:
        return {c for c in self.meta.get("percent_columns", "").split(",") if c}

    def flags(self, row: dict[str, Any]) -> dict[str, set[str]]:
        return parse_flags(row.get("flags"))

    def flagged(self, kind: str | None = None) -> list[dict[str, Any]]:
        """Rows carrying a flag (of ``kind`` when given)."""
        return [r for r in self.rows if (self.flags(r) and kind is None) or (kind in self.flags(r))]

    def value(self, **ids: Any) -> dict[str, Any]:
        """The single row matching ``ids`` (KeyError when there is not exactly one)."""
        found = [r for r in self.rows if all(r.get(k) == v for k, v in ids.items())]
        if len(found) != 1:
            raise KeyError(f"{self.benchmark} table {self.table}: {len(found)} rows match {ids}")
        return found[0]

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)

    def to_dataframe(self):
        import pandas as pd

        frame = pd.DataFrame(self.rows, columns=self.columns)
        frame.attrs["meta"] = dict(self.meta)
        return frame


def load_table(benchmark: str, table: int | str, *, as_frame: bool = False):
    """Load one published table: ``load_table("tempvs", 14)``, ``load_table("catbench", "6_7")``.

    Returns a :class:`PublishedTable` (rows are dicts; numbers are floats, empty cells ``None``),
    or a pandas DataFrame with the provenance in ``.attrs["meta"]`` when ``as_frame``.
    """
    name = f"{benchmark.lower()}_table{_table_id(table)}.csv"
    folder = dict(_folders()).get(benchmark.lower())
    entry = folder / name if folder is not None else None
    if entry is None or not entry.is_file():
        known = ", ".join(f"{b} {t}" for b, t in list_tables())
        raise FileNotFoundError(f"no published table {name}; known: {known}")
    text = entry.read_text(encoding="utf-8")
    meta: dict[str, str] = {}
    body: list[str] = []
    for line in text.splitlines(keepends=True):
        if line.startswith("#") and not body:
            key, _, value = line[1:].strip().partition(":")
            meta[key.strip()] = value.strip()
        else:
            body.append(line)
    reader = csv.DictReader(io.StringIO("".join(body)))
    columns = list(reader.fieldnames or [])
    raw = list(reader)
    textual = set(meta.get("id_columns", "").split(",")) | set(meta.get("text_columns", "").split(",")) | {"flags", "note"}
    # a column holding any non-number is text too
    numeric = {c for c in columns if c not in textual and all(_is_number(r[c]) for r in raw if r[c] != "")}
    rows = [{c: None if r[c] == "" else float(r[c]) if c in numeric else r[c] for c in columns} for r in raw]
    result = PublishedTable(
        meta.get("benchmark", benchmark),
        meta.get("table", _table_id(table)),
        meta,
        columns,
        rows,
        raw,
    )
    return result.to_dataframe() if as_frame else result


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True
