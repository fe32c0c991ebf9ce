"""TempVS published rows that are not one printed CSV: Table 3's model rows (the paper's Tables
14-16 x 100), and Tables 5 and 6 turned to one row per model (the paper prints statement types and
tests as rows)."""

from __future__ import annotations

from typing import Any

from temporal_bench.published import load_table, parse_flags

# Table 5's statement types in the paper's order: (statement_type code, column header)
STATEMENT_TYPES = {
    "two": (
        ("after", "2ev after"),
        ("before", "2ev before"),
        ("earlier", "2ev earlier"),
        ("then", "2ev then"),
        ("implictpair", "2ev implicit"),
    ),
    "three": (
        ("beforeafter", "3ev before/after"),
        ("firstsecondthird", "3ev first/second/third"),
        ("laterfinally", "3ev later/finally"),
        ("implicttriple", "3ev implicit"),
    ),
}


def table3_rows() -> list[dict[str, Any]]:
    """Table 3's Random row as printed, then one row per model of Tables 14-16, in percent."""
    rows = [dict(row) for row in load_table("tempvs", 3).rows]
    merged: dict[str, dict[str, Any]] = {}
    for table in ("14", "15", "16"):
        for row in load_table("tempvs", table).rows:
            target = merged.setdefault(row["model"], {"model": row["model"], "flags": "", "note": ""})
            for key, value in row.items():
                if key not in ("model", "flags", "note"):
                    target[key] = None if value is None else value * 100.0
    return rows + list(merged.values())


def table5_rows() -> list[dict[str, Any]]:
    """One row per model of Table 5 (and its Top-5 average), columns ``<task>_<type>_<pos|neg>``."""
    table = load_table("tempvs", 5)
    names = dict(item.strip().split(" = ", 1) for item in table.meta.get("models", "").split(";") if " = " in item)
    out = []
    for prefix, name in names.items():
        row: dict[str, Any] = {"model": "Top-5 average" if prefix == "top5" else name}
        flags, notes = [], []
        for printed in table.rows:
            for polarity in ("pos", "neg"):
                column = f"{printed['task']}_{printed['statement_type_code']}_{polarity}"
                row[column] = printed[f"{prefix}_{polarity}"]
                if f"{prefix}_{polarity}" in parse_flags(printed.get("flags")).get("suspect", set()):
                    flags.append(f"suspect:{column}")
                    if printed.get("note") not in notes:
                        notes.append(printed["note"])
        row["flags"] = ";".join(flags)
        row["note"] = " ".join(notes)
        out.append(row)
    return out


TABLE6_MODELS = {"internvl2_5_78b": "InternVL2_5-78B", "gpt_4o": "GPT-4o"}  # column prefix -> Table 14's name


def table6_rows() -> list[dict[str, Any]]:
    """One row per model of Table 6, columns ``<task_key>_<wo|cot|delta>``."""
    printed = load_table("tempvs", 6).rows
    return [{"model": name, "flags": "", "note": "", **{f"{row['task_key']}_{what}": row[f"{prefix}_{what}"] for row in printed for what in ("wo", "cot", "delta")}} for prefix, name in TABLE6_MODELS.items()]
