"""The export's source rules on constructed inputs, exact outputs: dropping plugin-only code
(export/plugin_only.py), dropping citations of our docs pages (export/citations.py), the requirements
an exported folder adds (export/requirements.py), the hub-dataset route (export/hub_route.py, the YAMLs'
data keys export/yaml_data.py, the redirected imports export/redirects.py) and the validation lines of the pull request's description (export/description.py)."""

import sys
from pathlib import Path

import pytest

from temporal_bench import benchmarks
from temporal_bench.export.citations import strip_doc_citations
from temporal_bench.export.description import validation_lines
from temporal_bench.export.errors import ExportError
from temporal_bench.export.hub_route import hub_route
from temporal_bench.export.plugin_only import strip_plugin_only
from temporal_bench.export.redirects import redirect_imports
from temporal_bench.export.requirements import Requirement, extra_requirements, requirements_of
from temporal_bench.export.source_modules import names_for
from temporal_bench.export.task_yaml import TaskYaml
from temporal_bench.export.yaml_data import upstream_yaml
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


def test_the_hub_route_names_the_dataset_its_configs_and_the_command_that_builds_it():
    route = hub_route("isobench")
    assert (route.dataset_id, route.process_docs_module) == ("lmms-lab-eval/ISO-Bench", "temporal_bench.isobench.hub_dataset")
    assert route.data_keys({"data_split": "validation"}) == {"dataset_path": "lmms-lab-eval/ISO-Bench", "dataset_name": "validation"}
    assert route.data_keys({}) == {"dataset_path": "lmms-lab-eval/ISO-Bench", "dataset_name": "default"}
    assert route.imported_from == {"make_process_docs": "temporal_bench.isobench.hub_dataset"}
    assert route.build_command() == "temporal-bench build-dataset isobench --source RELEASE --output-dir DIR --push-to-hub lmms-lab-eval/ISO-Bench"
    assert hub_route("catbench").build_command() is None  # its hub dataset is the release itself
    assert hub_route("toy") is None  # no temporal_bench.toy.hub_dataset


def test_an_exported_task_yaml_names_the_hub_dataset_and_loses_the_placeholder_route():
    route = hub_route("isobench")
    template = (
        "# Shared by the tasks: the examples come from process_docs (hub or ISOBENCH_DATA_DIR); the json placeholder only\n"
        "# satisfies the harness. Greedy.\ndataset_path: json\ndataset_kwargs: !function utils.dataset_kwargs\ntest_split: test\n"
    )
    assert upstream_yaml(template, None, route, "t") == "# Shared by the tasks: the examples come from process_docs. Greedy.\ntest_split: test\n"
    task = TaskYaml(Path("isobench_val.yaml"), {"task": "isobench_val", "metadata": {"data_split": "validation"}})
    text = "# (A) answer only\ninclude: _default_template_yaml\ntask: isobench_val\nmetadata: {data_split: validation}\n"
    assert upstream_yaml(text, task, route, "t") == (
        "# (A) answer only\ninclude: _default_template_yaml\ntask: isobench_val\ndataset_path: lmms-lab-eval/ISO-Bench\ndataset_name: validation\nmetadata: {data_split: validation}\n"
    )


def test_redirected_names_are_imported_from_their_module():
    source = "from pkg.hooks import *\nfrom pkg.loading import Error, load\n\nrun = make_process_docs(load)\nraise Error\n"
    assert redirect_imports(source, {"make_process_docs": "pkg.hub", "Error": "pkg.spec"}, "pkg.utils", "u.py") == (
        "from pkg.hooks import *\nfrom pkg.loading import load\nfrom pkg.spec import Error\nfrom pkg.hub import make_process_docs\n\nrun = make_process_docs(load)\nraise Error\n"
    )
    assert redirect_imports(source, {"load": "pkg.utils"}, "pkg.utils", "u.py") == source  # the module itself defines it


def test_validation_lines_give_the_reports_verdicts_on_the_published_rows(tmp_path):
    write_json(tmp_path / "gpt-4o" / "20250101_000000_results.json", {"results": {"catbench_switched": catbench_entry(GPT_4O_A)}, "model_name": "gpt-4o", "config": {"model": "openai", "model_args": "model=gpt-4o", "limit": None}})
    write_json(
        tmp_path / "other" / "mine" / "20250101_000000_results.json", {"results": {"catbench_switched": catbench_entry(GPT_4O_A)}, "model_name": "my-model", "config": {"model": "openai", "model_args": "model=my-model", "limit": None}}
    )
    lines = validation_lines(tmp_path / "gpt-4o")
    assert lines[0] == f"- `{tmp_path / 'gpt-4o'}`: **gpt-4o** (1 tasks)"
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


def test_a_module_scoped_name_goes_from_its_module_only_with_its_all_entry_and_a_tuple_assignment():
    source = 'from pkg.data import data_source\n\nPATH, KWARGS = data_source()\n__all__ = ["keep", "make_process_docs"]\n\n\ndef keep():\n    return 1\n\n\ndef make_process_docs():\n    return 2\n'
    names = frozenset({"hooks.make_process_docs", "PATH", "KWARGS", "loading.keep"})
    assert names_for("pkg.hooks", names) == {"make_process_docs", "PATH", "KWARGS"}
    assert strip_plugin_only(source, names_for("pkg.hooks", names), "hooks.py") == '\n__all__ = ["keep"]\n\n\ndef keep():\n    return 1\n\n\n'
    assert "def make_process_docs" in strip_plugin_only(source, names_for("pkg.hub_dataset", names), "hub_dataset.py")
