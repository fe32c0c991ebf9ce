"""Every cell of the published CSVs (each benchmark's published/ folder) equals the paper's printed value, as
transcribed once from the papers' text in ``tests/published_transcription.py``: every row and every
value column of every CSV is covered, except the columns the CSVs derive from row labels or from the
table a row is printed in (listed in ``DERIVED``, checked on their own below)."""

from fractions import Fraction

import pytest

from temporal_bench.published import list_tables, load_table
from tests.published_transcription import BLOCKS, CATBENCH_TABLE6, CATBENCH_TABLE7

# CSV columns not printed as values: a label's code, a garbled label, a flag for the table a row is in
DERIVED = {
    ("tempvs", "5"): {"statement_type_code"},
    ("tempvs", "6"): {"task_key"},
    ("catbench", "6_7"): {"method", "in_table6", "in_table7"},
    ("isobench", "1"): {"ocr_label"},
}
BLANK = {"-", "_"}  # a printed dash, a blank cell: both an empty CSV cell


def printed_value(text: str) -> Fraction | None:
    return None if text in BLANK else Fraction(text)


def csv_value(text: str) -> Fraction | None:
    return None if text == "" else Fraction(text)


def blocks_of(benchmark: str, table: str):
    return [block for block in BLOCKS if (block.benchmark, block.table) == (benchmark, table)]


@pytest.mark.parametrize("benchmark,table", list_tables())
def test_every_csv_cell_equals_the_papers_printed_value(benchmark, table):
    t = load_table(benchmark, table)
    blocks = blocks_of(benchmark, table)
    assert blocks, f"{benchmark} table {table} has no transcription"
    value_columns = set(t.columns) - set(t.id_columns) - {"flags", "note"}
    assert set().union(*(block.columns for block in blocks)) | DERIVED.get((benchmark, table), set()) == value_columns
    raw = {tuple(row[c] for c in t.id_columns): t.raw[i] for i, row in enumerate(t.rows)}
    covered, disagreements = set(), []
    for block in blocks:
        for ids, printed in block.rows.items():
            assert ids in raw, f"{block.cite}: row {ids} is not in the CSV"
            values = printed.split()
            assert len(values) == len(block.columns), (block.cite, ids)
            covered.add(ids)
            for column, value in zip(block.columns, values):
                if csv_value(raw[ids][column]) != printed_value(value):
                    disagreements.append((ids, column, raw[ids][column], value))
    assert disagreements == []
    assert covered == set(raw), f"CSV rows not transcribed: {set(raw) - covered}"


def test_every_transcribed_table_is_shipped():
    assert {(block.benchmark, block.table) for block in BLOCKS} == set(list_tables())


def test_catbench_table_membership_flags_follow_the_printed_tables():
    t = load_table("catbench", "6_7")
    for flag, block in (("in_table6", CATBENCH_TABLE6), ("in_table7", CATBENCH_TABLE7)):
        assert {row["setting"] for row in t if row[flag] == 1} == {ids[0] for ids in block.rows}
        assert {row[flag] for row in t} <= {0, 1}
    assert [row["method"] for row in t] == ["zero-shot", *["self-consistency"] * 4, "few-shot-bm25"]


def test_the_comparison_can_fail():
    """A transcribed value differing from the CSV in the last printed digit is a disagreement."""
    assert printed_value("0.4971") != csv_value("0.4972") and printed_value("+1.90") == csv_value("1.90")
    assert printed_value("0.6") == csv_value("0.60") and printed_value("-") is None is csv_value("")
