"""The task folders' converters run alone, as a pull request's user runs them (``python tempvs_to_hf.py RELEASE OUT``,
in an interpreter of their own): the files ``temporal-bench build-dataset`` writes, byte for byte, then the counts read
next to the paper's and a non-zero status naming each that differs. What the converted datasets give the tasks:
tests/unit/test_hub_dataset.py."""

import subprocess
import sys

import pandas
import pytest

from temporal_bench.__main__ import main
from temporal_bench.isobench.fixtures import write_fixture as write_isobench
from temporal_bench.lmms_eval_tasks.isobench import isobench_to_hf
from temporal_bench.lmms_eval_tasks.tempvs import tempvs_to_hf
from tests.tempvs_fixture_copies import write_tempvs

PARQUET = "data/test-00000-of-00001.parquet"


def test_the_tempvs_converter_alone_writes_build_datasets_files_and_exits_1_naming_each_count_table_2_does_not_give(tmp_path):
    """``python tempvs_to_hf.py RELEASE OUT`` on the synthetic release (2 image sequences per source): the same files as
    build-dataset's, then the questions read next to Table 2's, and status 1 naming every count that differs."""
    release, converted = write_tempvs(tmp_path / "release", n_sequences=2), tmp_path / "built"
    assert main(["build-dataset", "tempvs", "--source", str(release), "--output-dir", str(converted)]) == 0
    done = subprocess.run([sys.executable, tempvs_to_hf.__file__, str(release), str(tmp_path / "out")], capture_output=True, text=True, timeout=600)
    assert done.returncode == 1, done.stderr
    for name in (PARQUET, "images.zip"):
        assert (tmp_path / "out" / name).read_bytes() == (converted / name).read_bytes(), name
    rows = pandas.read_parquet(converted / PARQUET, columns=["test", "source"])
    mt1 = int(((rows["test"] == "mt1_two") & (rows["source"] == "pororo")).sum())
    assert "| mt1_two | " in done.stdout and f"{mt1} (864)" in done.stdout and "| mt3_caption | " in done.stdout
    verdict = done.stderr.strip().splitlines()[-1]
    assert verdict.startswith("not the release the paper evaluated: mt1_two flintstones: ") and f"mt1_two pororo: {mt1} read, Table 2 gives 864" in verdict
    assert verdict.count("Table 2 gives") == 24


@pytest.mark.parametrize("with_source", [True, False])
def test_the_isobench_converter_alone_writes_build_datasets_rows(tmp_path, with_source):
    """``python isobench_to_hf.py RELEASE OUT`` and build-dataset on the same synthetic release (16 examples, with and
    without a source column): the same parquet file; the converter then prints its counts next to the paper's and exits
    with status 1 naming each that differs (the counts per source only where the rows name one)."""
    release = write_isobench(tmp_path / "release", "json", with_source=with_source)
    assert main(["build-dataset", "isobench", "--source", str(release), "--output-dir", str(tmp_path / "built")]) == 0
    done = subprocess.run([sys.executable, isobench_to_hf.__file__, str(release), str(tmp_path / "alone")], capture_output=True, text=True, timeout=600)
    assert done.returncode == 1, done.stderr
    assert (tmp_path / "alone" / PARQUET).read_bytes() == (tmp_path / "built" / PARQUET).read_bytes()
    verdict = done.stderr.strip().splitlines()[-1]
    assert verdict.startswith("not the release the paper evaluated: before, DEP: 4 read, the paper has 187; ") and "| after, NONDEP | 4 | 196 |" in done.stdout
    assert ("crosstask, before: 4 read, the paper has 72" in verdict) == with_source and verdict.count("the paper has") == (8 if with_source else 4)
