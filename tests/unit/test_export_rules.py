"""The export's rules on constructed inputs, exact outputs: the copy's one change (the import prefix) and the vocabulary
that stops it (export/task_folder.py), the benchmark's entry in lmms-eval's task list (export/task_list.py), the
requirements an exported folder adds (export/requirements.py), the tests step's outcome (export/pull_request.py) and
the pull request's description in lmms-eval's template (export/description.py)."""

import re
import shlex
import sys
from pathlib import Path

import pytest

from temporal_bench import benchmarks
from temporal_bench.export.description import pull_request_text, validation_row
from temporal_bench.export.errors import ExportError
from temporal_bench.export.facts import facts_of
from temporal_bench.export.pull_request import LIMIT, Step, upstream_tests
from temporal_bench.export.requirements import Requirement, extra_requirements, requirements_of
from temporal_bench.export.task_folder import ExportedFolder, checked, export_task_folders, sorted_imports, source_folder, upstream_text
from temporal_bench.export.task_list import TASK_LIST, task_list_entry, with_entry
from tests.paths import REPO, TESTS
from tests.unit.test_report import catbench_entry, write_json
from tests.unit.test_reproduction_verdicts import GPT_4O_A

SUPPORT = TESTS / "export_support"
TEMPLATE = (SUPPORT / "pull_request_template.md").read_text(encoding="utf-8")  # lmms-eval's .github/pull_request_template.md
TASK_LIST_TEXT = (SUPPORT / "current_tasks.md").read_text(encoding="utf-8")  # lmms-eval's docs/advanced/current_tasks.md


def test_the_copy_renames_the_import_prefixes_sorts_the_imports_and_nothing_else():
    source = "from temporal_bench.lmms_eval_tasks.tempvs.spec import SOURCES\ndataset_path: lmms-lab-eval/TempVS\n  aggregation: !function temporal_bench.lmms_eval_tasks.tempvs.metrics.gt_acc\n"
    expected = "from lmms_eval.tasks.tempvs.spec import SOURCES\ndataset_path: lmms-lab-eval/TempVS\n  aggregation: !function lmms_eval.tasks.tempvs.metrics.gt_acc\n"
    assert upstream_text(source, "tempvs") == expected
    assert upstream_text("import temporal_bench.report\n", "tempvs") == "import temporal_bench.report\n"  # no other rename: the vocabulary check stops it
    helper = "from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.yes_no import INVALID\nfrom temporal_bench.lmms_eval_tasks.isobench import prompts\n"
    assert upstream_text(helper, "isobench") == "from lmms_eval.tasks.isobench.yes_no import INVALID\nfrom lmms_eval.tasks.isobench import prompts\n"  # the helper copied into the folder
    assert sorted_imports("utils.py", upstream_text(helper, "isobench")) == "from lmms_eval.tasks.isobench import prompts\nfrom lmms_eval.tasks.isobench.yes_no import INVALID\n"


@pytest.mark.parametrize(
    "line, word",
    [
        ("# loads a one-row placeholder", "placeholder"),
        ("# set TEMPVS_DATA_DIR to a release folder", "_DATA_DIR"),
        ("# the report adds them", "the report"),
        ("# installed as a plugin", "plugin"),
        ("# lm-eval's --metadata", "lm-eval"),
        ("# see utils/classification.py", "utils/"),
        ("# temporal-bench compare shows it", "temporal-bench"),
        ("# the demo's fixtures", "demo"),
    ],
)
def test_a_copied_text_in_the_packages_vocabulary_stops_the_export_naming_file_and_line(line, word):
    with pytest.raises(ExportError, match=rf"the exported text names this package or its documentation: utils\.py:2: {re.escape(word)}"):
        checked("utils.py", f"x = 1\n{line}\n")
    assert checked("test_x.py", "@pytest.fixture\ndef docs():\n    return []\n")  # pytest's word, not the package's


def test_the_task_list_entry_goes_in_its_section_in_title_order_and_a_second_export_replaces_it():
    entry = task_list_entry("catbench", REPO / "lmms_eval_tasks" / "catbench")
    assert entry[0] == "- [CaT-Bench](https://github.com/StonyBrookNLP/CaT-Bench) (catbench)"
    assert entry[1:] == [
        "  - Answer only, with the NonDep-S twins for OCC (catbench_switched)",
        "  - Answer then explain, JSON output (catbench_explain)",
        "  - Answer then explain, with the NonDep-S twins (catbench_explain_switched)",
        "  - Explain then answer, JSON output (catbench_cot)",
        "  - Explain then answer, with the NonDep-S twins (catbench_cot_switched)",
    ]
    once = with_entry(TASK_LIST_TEXT, "catbench", entry)
    added = [line for line in once.splitlines() if line not in TASK_LIST_TEXT.splitlines()]
    assert added == entry
    lines = once.splitlines()
    at = lines.index(entry[0])
    assert lines[at - 1] == "- [ARC](https://allenai.org/data/arc) (arc)" and lines[at + len(entry)] == "- [GPQA](https://github.com/idavidrein/gpqa) (gpqa)"
    assert [line for line in lines[:at] if line.startswith("## ")][-1] == "## 8. Text-only Language Tasks"
    assert with_entry(once, "catbench", entry) == once
    assert with_entry(once, "catbench", entry[:2]).count("(catbench)") == 1 and "(catbench_cot)" not in with_entry(once, "catbench", entry[:2])
    last = with_entry(TASK_LIST_TEXT, "tempvs", ["- [TempVS](https://github.com/yjsong22/TempVS) (tempvs)"]).splitlines()
    at = last.index("- [TempVS](https://github.com/yjsong22/TempVS) (tempvs)")  # after the section's last entry and its indented lines
    assert last[at - 1] == "  - MEGA-Bench Open single-image subset (megabench_open_si)" and last[at + 1] == ""
    with pytest.raises(ExportError, match="has no section 'Text-only Language Tasks'; add the benchmark's entry by hand"):
        with_entry("# Current Tasks\n\n## 1. Image Tasks\n- [A](x) (a)\n", "catbench", entry)


def test_requirements_are_every_import_lmms_eval_does_not_install_at_load_or_where_used():
    source = (
        "import os\nimport numpy as np\nimport pandas\nfrom rank_bm25 import BM25Okapi\nfrom lmms_eval.api.filter import Filter\n"
        "try:\n    import loguru\nexcept ImportError:\n    pass\n\ndef f():\n    import huggingface_hub\n    import rank_bm25\n"
    )
    assert extra_requirements(source) == {"rank_bm25": "rank-bm25"}  # pandas: lmms-eval's datasets installs it
    assert extra_requirements(source, when_used=True) == {"rank_bm25": "rank-bm25"}
    lazy = "def retriever():\n    from rank_bm25 import BM25Okapi\n"
    assert requirements_of({"catbench/fewshot.py": lazy, "catbench/utils.py": "import os\n"}) == [Requirement("rank_bm25", "rank-bm25", ("catbench/fewshot.py",), True)]


def test_the_tests_step_says_why_no_test_ran():
    folder = ExportedFolder("isobench", Path("out"), {}, {"test_isobench_tasks.py": ""})
    outcome = {"passed": 0, "failed": [], "log": "ERROR: file or directory not found: out/test/eval/test_isobench_tasks.py"}
    step = upstream_tests({"test_isobench_tasks.py": outcome}, folder)
    assert step == Step("tests", False, "0 passed: pytest ran no test of test_isobench_tasks.py (ERROR: file or directory not found: out/test/eval/test_isobench_tasks.py)", size="0 tests")
    assert upstream_tests({"test_isobench_tasks.py": {"passed": 3, "failed": ["test_x"], "log": ""}}, folder) == Step("tests", False, "3 passed, failed: test_x", size="4 tests")


def test_validation_rows_give_the_reports_verdicts_on_the_published_rows(tmp_path, read_as_release):
    write_json(
        tmp_path / "gpt-4o" / "20250101_000000_results.json",
        {"results": {"catbench_switched": catbench_entry(GPT_4O_A)}, "model_name": "gpt-4o-2024-05-13", "config": {"model": "openai", "model_args": "model=gpt-4o-2024-05-13", "limit": None}},
    )
    write_json(
        tmp_path / "other" / "mine" / "20250101_000000_results.json", {"results": {"catbench_switched": catbench_entry(GPT_4O_A)}, "model_name": "my-model", "config": {"model": "openai", "model_args": "model=my-model", "limit": None}}
    )
    row = validation_row(tmp_path / "gpt-4o")
    verdicts = row.split(" | ")[2].split("<br>")  # one per table with a published row of the model
    assert row.startswith(f"| `{tmp_path / 'gpt-4o'}` | **gpt-4o-2024-05-13** (1 tasks) | ") and row.endswith(" |") and len(verdicts) == 4
    assert verdicts[0] == "CaT-Bench Table 1: Step Order Prediction, per class and macro average: 3 reproduced, 3 close, 3 differs of 9 published cells (tolerance 1 point)."
    assert validation_row(tmp_path / "other") == (
        f"| `{tmp_path / 'other'}` | **my-model** (1 tasks) | **my-model** is no model the CaT-Bench paper lists, so it gets no verdict (no published name is close; a run of one of them records its name as the model, e.g. --model_args model=NAME) |"
    )
    (tmp_path / "empty").mkdir()
    assert validation_row(tmp_path / "empty") == f"| `{tmp_path / 'empty'}` | no results files found | |"
    assert validation_row(tmp_path / "none") == f"| `{tmp_path / 'none'}` | no results file or folder: {tmp_path / 'none'} | |"


def _steps(passed: bool = True):
    smoke = [{"task": "isobench", "metrics": {"f1_weighted": 0.333, "f1_macro": 0.333}, "input": "QUESTION: Does this image show ...", "output": "<answer>YES</answer>"}]
    return [
        Step("lint", True, "black 25.1.0 and isort 6.0.1 change none of them", size="12 Python files"),
        Step("imports", True, "utils.py imports offline with no data, no connection and no exit, and defines the 6 functions the YAMLs name", size="6 hooks"),
        Step("task manager", True, "lmms-eval's TaskManager registers all 3 tasks and groups; every YAML loads in full", size="3 tasks and groups"),
        Step("tests", passed, "4 passed" if passed else "3 passed, failed: test_x", size="4 tests"),
        Step("run", True, "all 2 tasks ran", smoke, size=f"{LIMIT} docs per task, 2 tasks, synthetic data (generated in the release's layout, not the release)"),
    ]


def _sections(text: str) -> dict:
    parts = re.split(r"^## (.+)$", text, flags=re.M)
    return {title: body.strip() for title, body in zip(parts[1::2], parts[2::2])}


@pytest.mark.parametrize("benchmark", ["isobench", "catbench"])
def test_the_description_follows_lmms_evals_template_as_it_is(tmp_path, benchmark):
    """The template's headings in its order; at most 3 Summary and 3 Validation bullets, each Validation bullet in the
    template's format and naming the commands the steps ran; 1-2 Risk bullets; every Type of Change box, only "New
    benchmark/task" ticked; the data's host and converter; what is synthetic; what was not validated."""
    folder = export_task_folders([benchmark], tmp_path)[0]
    text = pull_request_text(folder, _steps(), [])
    template = _sections(TEMPLATE)
    sections = _sections(text)
    assert list(sections) == list(template) == ["Summary", "In scope", "Out of scope", "Validation", "Risk / Compatibility", "Type of Change"]
    bullets = {title: [line for line in body.splitlines() if line.startswith("- ")] for title, body in sections.items()}
    assert len(bullets["Summary"]) == 3 and len(bullets["Validation"]) == 3 and 1 <= len(bullets["Risk / Compatibility"]) <= 2
    boxes = [line[6:] for line in template["Type of Change"].splitlines()]
    assert bullets["Type of Change"] == [f"- [{'x' if box == 'New benchmark/task' else ' '}] {box}" for box in boxes]
    pattern = re.compile(r"^- .*`[^`]+` \| sample size: `N=[^`]+` \| key metrics: .+ \| result: `(pass|fail)`$")
    assert all(pattern.match(line) for line in bullets["Validation"]), bullets["Validation"]
    lint, load, run = bullets["Validation"]
    assert lint.startswith(f"- `python -m black --check --line-length=240 lmms_eval/tasks/{benchmark} test/eval` and `python -m isort --check-only --profile black ")
    assert load.startswith(f"- offline with every connection refused, `import utils` of the folder, lmms-eval's `TaskManager(include_path=['lmms_eval/tasks/{benchmark}']")
    assert f"then `python -m pytest test/eval/test_{benchmark}_tasks.py` | sample size: `N=6 hooks, 3 tasks and groups, 4 tests` |" in load
    response = facts_of(benchmarks.get(benchmark)).smoke_response
    assert (
        f"- `python -m lmms_eval --model dummy --model_args {shlex.quote('response=' + response)} --tasks {benchmark}," in run
        and "sample size: `N=8 docs per task, 2 tasks, synthetic data (generated in the release's layout, not the release)`" in run
    )
    assert "pre-commit" not in text and "--tasks list" not in text  # --check runs neither
    assert run.endswith("result: `pass`") and load.endswith("tests: 4 passed | result: `pass`")
    assert "(8 docs per task, 2 tasks, synthetic data" in sections["Validation"] and "| `isobench` | f1_weighted 0.333, f1_macro 0.333 |" in sections["Validation"]
    assert "No model run is compared with the papers' rows" in sections["Validation"]
    assert "Not validated: no real model ran for this description" in sections["Risk / Compatibility"]
    assert f"- `{TASK_LIST.as_posix()}`: `- [" in sections["In scope"] and f"- `{benchmark}/README.md`" in sections["In scope"]
    data = bullets["Summary"][2]
    if benchmark == "isobench":
        assert data.startswith("- Data: `lmms-lab-eval/ISO-Bench` is not on the hub yet. A maintainer of `lmms-lab-eval` hosts it: the official release converted by the folder's converter, ")
        assert "`python lmms_eval/tasks/isobench/isobench_to_hf.py RELEASE_FOLDER ISO-Bench-hf" in data
    else:
        assert data == "- Data: `vanyacohen/CaT-Bench`, the official release as its authors published it on the hub; nothing to host."
        assert sections["Out of scope"].startswith("- Few-shot and self-consistency prompting (Tables 6-7)") and "catbench_" not in sections["Out of scope"]
    failing = _sections(pull_request_text(folder, _steps(passed=False), []))["Validation"]
    assert "| key metrics: imports: utils.py imports offline" in failing and "tests: 3 passed, failed: test_x | result: `fail`" in failing


def test_every_benchmark_names_its_facts_and_its_bibtex_is_complete():
    """Complete facts, and the description cites the paper as the folder's README does (its title, and the venue and
    year of the reference)."""
    for benchmark in benchmarks.all_benchmarks():
        facts = facts_of(benchmark)
        readme = Path(source_folder(benchmark.name)) / "README.md"
        if readme.is_file():
            title, venue = re.fullmatch(r"[^.]+\. (.+?[.?]) ([^.?]+)", facts.reference).groups()
            title = title.removesuffix(".")
            paper = next(line for line in readme.read_text(encoding="utf-8").splitlines() if line.startswith("| Paper |"))
            assert f"[{title}]" in paper and venue.replace(" ", "").lower() in paper.replace(" ", "").lower(), benchmark.name
        assert facts.bibtex.startswith("@") and facts.bibtex.endswith("}") and "TODO" not in facts.bibtex
        assert all(f'{key} = "' in facts.bibtex for key in ("title", "author", "year", "eprint")), benchmark.name
        assert facts.homepage.startswith("https://") and "## " not in facts.task_list_section
        assert any(re.match(rf"^#{{2,3}} (\d+\. )?{re.escape(facts.task_list_section)}$", line) for line in TASK_LIST_TEXT.splitlines()), benchmark.name
    assert Path(sys.modules[benchmarks.get("tempvs").manifest.upstream].__file__).parent.name == "tempvs"


def test_a_run_step_that_wrote_nothing_has_no_rows_instead_of_a_traceback(tmp_path):
    """export --check's run step on data lmms-eval could not load (e.g. CaT-Bench's release layout given as the converted
    dataset) writes no output folder: the step fails with lmms-eval's reason, it does not crash reading the run."""
    from temporal_bench.export.pull_request import _smoke_rows

    assert _smoke_rows(tmp_path / "never_written", ["catbench"]) == []
