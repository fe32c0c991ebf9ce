"""The export's source rules on constructed inputs, exact outputs: dropping plugin-only code
(export/plugin_only.py), dropping citations of our docs pages (export/citations.py), the requirements
an exported folder adds (export/requirements.py), the converted-dataset route once a benchmark has one
(export/hub_route.py) and the validation lines of the pull request's description (export/description.py)."""

import sys
import types
from pathlib import Path

import pytest

from temporal_bench import benchmarks
from temporal_bench.export.citations import strip_doc_citations
from temporal_bench.export.description import validation_lines
from temporal_bench.export.errors import ExportError
from temporal_bench.export.hub_route import hub_route
from temporal_bench.export.plugin_only import strip_plugin_only
from temporal_bench.export.readme import render_readme
from temporal_bench.export.requirements import Requirement, extra_requirements, requirements_of
from temporal_bench.export.task_folder import export_task_folders
from tests.test_report import catbench_entry, write_json
from tests.test_reproduction_verdicts import GPT_4O_A

PLUGIN_SOURCE = '''"""Hooks."""

import os
from typing import Dict

from pkg.settings import RemovedSettingError, refuse_removed_env, with_defaults

# the errors a load may raise
DATA_ERRORS = (ValueError, RemovedSettingError, KeyError)
LAST = (ValueError, RemovedSettingError)

# Variables that used to set options.
REMOVED_ENV = {"OLD": "use the task setting"}


def process_docs(dataset: Dict) -> Dict:
    refuse_removed_env()
    return with_defaults(dataset)


@decorated
def custom_dataset(**metadata) -> Dict:
    """lm-eval only."""
    refuse_removed_env()
    return {"test": os.environ["X"]}
'''

STRIPPED = '''"""Hooks."""

from typing import Dict

from pkg.settings import with_defaults

# the errors a load may raise
DATA_ERRORS = (ValueError, KeyError)
LAST = (ValueError)



def process_docs(dataset: Dict) -> Dict:
    return with_defaults(dataset)


'''


def test_plugin_only_code_is_dropped_with_its_uses_and_the_imports_left_unused():
    names = frozenset({"REMOVED_ENV", "RemovedSettingError", "refuse_removed_env", "custom_dataset"})
    assert strip_plugin_only(PLUGIN_SOURCE, names, "hooks.py") == STRIPPED
    assert strip_plugin_only(PLUGIN_SOURCE, frozenset({"not_there"}), "hooks.py") == PLUGIN_SOURCE


def test_a_plugin_only_name_used_any_other_way_stops_the_export():
    source = "from pkg.settings import refuse_removed_env\n\nrun = 1 if refuse_removed_env else None\n"
    with pytest.raises(ExportError, match=r"^hooks\.py: `run = 1 if refuse_removed_env else None` still uses refuse_removed_env, which the export drops as plugin-only"):
        strip_plugin_only(source, frozenset({"refuse_removed_env"}), "hooks.py")


@pytest.mark.parametrize(
    "text, expected",
    [
        ('"""Per-doc records (docs/protocol/tempvs.md §7)."""', '"""Per-doc records."""'),
        ('"""What pairs with what (docs/protocol/tempvs.md §0-§3, §7)."""', '"""What pairs with what."""'),
        ("# drop the solved ones (MT1, MT2; docs/protocol/tempvs.md §7.1);", "# drop the solved ones (MT1, MT2);"),
        ('"""The prompt (docs/protocol/isobench.md §3; paper App. H): GOAL"""', '"""The prompt (paper App. H): GOAL"""'),
        ('# (the one place that says it; docs/catbench.md "Data")', "# (the one place that says it)"),
        ('"""Settings (docs/catbench.md "Settings").\n"""', '"""Settings.\n"""'),
        ('"""none by default (docs/tempvs.md\n    "Deviations and options");\n"""', '"""none by default;\n"""'),
        ('f"as that wrapper did (docs/tempvs.md, Image order)."', 'f"as that wrapper did."'),
        ("# (a variant YAML that includes isobench.yaml, docs/isobench.md), then", "# (a variant YAML that includes isobench.yaml), then"),
    ],
)
def test_citations_of_our_docs_pages_are_dropped(text, expected):
    assert strip_doc_citations(text, "m.py") == expected


def test_a_citation_that_carries_its_sentence_stops_the_export():
    with pytest.raises(ExportError, match=r"^m\.py:2: cites docs/tempvs\.md where the export cannot drop it"):
        strip_doc_citations('x = 1\nmessage = "docs/tempvs.md names the model"\n', "m.py")


def test_requirements_are_every_import_lmms_eval_does_not_install_at_load_or_where_used():
    source = (
        "import os\nimport numpy as np\nimport pandas\nfrom rank_bm25 import BM25Okapi\nfrom lmms_eval.api.filter import Filter\n"
        "try:\n    import loguru\nexcept ImportError:\n    pass\n\ndef f():\n    import huggingface_hub\n    import rank_bm25\n"
    )
    assert extra_requirements(source) == {"rank_bm25": "rank-bm25"}  # pandas: lmms-eval's datasets installs it
    assert extra_requirements(source, when_used=True) == {"rank_bm25": "rank-bm25"}
    lazy = "def retriever():\n    from rank_bm25 import BM25Okapi\n"
    assert requirements_of({"catbench/fewshot.py": lazy, "catbench/utils.py": "import os\n"}) == [Requirement("rank_bm25", "rank-bm25", ("catbench/fewshot.py",), True)]


@pytest.fixture()
def converted_route(monkeypatch):
    """A stand-in for the data branch's ``temporal_bench.isobench.hub_dataset``."""
    module = types.ModuleType("temporal_bench.isobench.hub_dataset")
    module.HUB_DATASET_ID = "lmms-lab-eval/ISO-Bench"
    module.config_name = lambda settings: f"{settings.get('data_split', 'test')}"
    module.docs_from_dataset = lambda dataset, settings: dataset
    monkeypatch.setitem(sys.modules, module.__name__, module)
    return module


def test_without_a_hub_dataset_module_there_is_no_converted_route():
    assert [hub_route(name) for name in ("tempvs", "isobench", "catbench")] == [None, None, None]


def test_the_converted_route_replaces_a_task_yamls_data_keys(converted_route):
    route = hub_route("isobench")
    assert (route.dataset_id, route.process_docs_module) == ("lmms-lab-eval/ISO-Bench", "temporal_bench.isobench.hub_dataset")
    config = {"task": "isobench_val", "dataset_path": "json", "dataset_kwargs": {"data_files": {"test": "placeholder.jsonl"}}, "test_split": "test", "metadata": {"data_split": "validation"}}
    assert route.data_section(config, config["metadata"]) == {"task": "isobench_val", "test_split": "test", "metadata": {"data_split": "validation"}, "dataset_path": "lmms-lab-eval/ISO-Bench", "dataset_name": "validation"}
    assert route.build_command() == "temporal-bench build-dataset isobench --source RELEASE --output DIR --push-to-hub lmms-lab-eval/ISO-Bench"


def test_with_a_converted_route_the_readme_names_its_hub_id_and_build_command(converted_route, tmp_path):
    folder = export_task_folders(["isobench"], tmp_path)[0]
    readme = render_readme(benchmarks.get("isobench"), folder.path, folder.modules, folder.requirements)
    data = readme.split("## Data\n\n", 1)[1].split("\n## ", 1)[0]
    assert data == (
        "The tasks load the hub dataset `lmms-lab-eval/ISO-Bench` (`dataset_path`, one `dataset_name` per configuration), "
        "converted from the official release `StonyBrookNLP/ISO-Bench` by:\n\n```bash\n"
        "temporal-bench build-dataset isobench --source RELEASE --output DIR --push-to-hub lmms-lab-eval/ISO-Bench\n```\n"
    )
    assert "| Dataset | [`lmms-lab-eval/ISO-Bench`](https://huggingface.co/datasets/lmms-lab-eval/ISO-Bench) |" in readme


def test_validation_lines_give_the_reports_verdicts_on_the_published_rows(tmp_path):
    write_json(tmp_path / "gpt-4o" / "20250101_000000_results.json", {"results": {"catbench_switched": catbench_entry(GPT_4O_A)}, "model_name": "gpt-4o", "config": {"model": "openai", "model_args": "model=gpt-4o", "limit": None}})
    write_json(
        tmp_path / "other" / "mine" / "20250101_000000_results.json", {"results": {"catbench_switched": catbench_entry(GPT_4O_A)}, "model_name": "my-model", "config": {"model": "openai", "model_args": "model=my-model", "limit": None}}
    )
    lines = validation_lines(tmp_path / "gpt-4o")
    assert lines[0] == f"- `{tmp_path / 'gpt-4o'}`: **gpt-4o** (1 tasks)"
    assert "  - CaT-Bench Table 1" in lines[1] and lines[1].endswith(": 3 reproduced, 3 close, 3 differs of 9 published cells (tolerance 1 point).")
    assert validation_lines(tmp_path / "other") == [f"- `{tmp_path / 'other'}`: **my-model** (1 tasks)", "  no published row of this model in the papers' tables: no verdict"]
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
