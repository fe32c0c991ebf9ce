"""The export's rules on constructed inputs, exact outputs: the copy's one change besides the declared lines (the
import prefix, export/task_folder.py), the requirements an exported folder adds (export/requirements.py) and the
validation lines of the pull request's description (export/description.py)."""

import sys
from pathlib import Path

import pytest

from temporal_bench import benchmarks
from temporal_bench.export.description import validation_lines
from temporal_bench.export.errors import ExportError
from temporal_bench.export.facts import Substitution
from temporal_bench.export.requirements import Requirement, extra_requirements, requirements_of
from temporal_bench.export.task_folder import upstream_text
from tests.test_report import catbench_entry, write_json
from tests.test_reproduction_verdicts import GPT_4O_A


def test_the_copy_changes_the_import_prefix_and_the_declared_lines_only():
    source = "from temporal_bench.lmms_eval_tasks.tempvs.spec import SOURCES\ndataset_path: json\nx = 1\n"
    data = Substitution("f", "dataset_path: json\n", "dataset_path: org/Name\n", "the data route")
    assert upstream_text(source, [data], "f") == "from lmms_eval.tasks.tempvs.spec import SOURCES\ndataset_path: org/Name\nx = 1\n"
    for text, found in (("x = 1\n", 0), ("dataset_path: json\n" * 2, 2)):
        with pytest.raises(ExportError, match=f"the declared substitution \\(the data route\\) expects its text once, found {found} times"):
            upstream_text(text, [data], "f")


def test_requirements_are_every_import_lmms_eval_does_not_install_at_load_or_where_used():
    source = (
        "import os\nimport numpy as np\nimport pandas\nfrom rank_bm25 import BM25Okapi\nfrom lmms_eval.api.filter import Filter\n"
        "try:\n    import loguru\nexcept ImportError:\n    pass\n\ndef f():\n    import huggingface_hub\n    import rank_bm25\n"
    )
    assert extra_requirements(source) == {"rank_bm25": "rank-bm25"}  # pandas: lmms-eval's datasets installs it
    assert extra_requirements(source, when_used=True) == {"rank_bm25": "rank-bm25"}
    lazy = "def retriever():\n    from rank_bm25 import BM25Okapi\n"
    assert requirements_of({"catbench/fewshot.py": lazy, "catbench/utils.py": "import os\n"}) == [Requirement("rank_bm25", "rank-bm25", ("catbench/fewshot.py",), True)]


def test_validation_lines_give_the_reports_verdicts_on_the_published_rows(tmp_path):
    write_json(
        tmp_path / "gpt-4o" / "20250101_000000_results.json",
        {"results": {"catbench_switched": catbench_entry(GPT_4O_A)}, "model_name": "gpt-4o-2024-05-13", "config": {"model": "openai", "model_args": "model=gpt-4o-2024-05-13", "limit": None}},
    )
    write_json(
        tmp_path / "other" / "mine" / "20250101_000000_results.json", {"results": {"catbench_switched": catbench_entry(GPT_4O_A)}, "model_name": "my-model", "config": {"model": "openai", "model_args": "model=my-model", "limit": None}}
    )
    lines = validation_lines(tmp_path / "gpt-4o")
    assert lines[0] == f"- `{tmp_path / 'gpt-4o'}`: **gpt-4o-2024-05-13** (1 tasks)"
    assert "  - CaT-Bench Table 1" in lines[1] and lines[1].endswith(": 3 reproduced, 3 close, 3 differs of 9 published cells (tolerance 1 point).")
    assert validation_lines(tmp_path / "other") == [
        f"- `{tmp_path / 'other'}`: **my-model** (1 tasks)",
        "  - **my-model** is no model the CaT-Bench paper lists, so it gets no verdict (no published name is close; if it is one of them, name the run with --label)",
    ]
    (tmp_path / "empty").mkdir()
    assert validation_lines(tmp_path / "empty") == [f"- `{tmp_path / 'empty'}`: no results files found"]
    assert validation_lines(tmp_path / "none") == [f"- `{tmp_path / 'none'}`: no results file or folder: {tmp_path / 'none'}"]


def test_every_benchmark_names_its_facts_and_its_bibtex_is_complete():
    from temporal_bench.export.facts import facts_of

    for benchmark in benchmarks.all_benchmarks():
        facts = facts_of(benchmark)
        assert facts.bibtex.startswith("@") and facts.bibtex.endswith("}") and "TODO" not in facts.bibtex
        assert all(f'{key} = "' in facts.bibtex for key in ("title", "author", "year", "eprint")), benchmark.name
    assert Path(sys.modules[benchmarks.get("tempvs").upstream].__file__).parent.name == "tempvs"
