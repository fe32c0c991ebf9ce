"""Which published rows ``temporal-bench report`` judges a run against: a model's hub id and the papers' other
spellings find its published rows through each benchmark's alias table, which covers every published model row; an
API model's row only through the dated version its paper names; a run named like no published model is said so with
the nearest names; a differing TempVS cell of a model class with a known protocol gap names the gap; a published row
of another scoring rule gets no verdict. Whether a run's data is the release's: tests/tooling/test_release_gate.py."""

import pytest

from temporal_bench import benchmarks
from temporal_bench.published import load_table
from temporal_bench.report.cli import main_report
from temporal_bench.report.model_names import alias_table, api_version_note, is_model, model_key, normalised, run_key
from temporal_bench.report.rows import published_rows
from temporal_bench.report.verdicts import VERDICT_LEGEND
from tests.unit.test_report import catbench_entry, write_json
from tests.unit.test_reproduction_verdicts import GPT_4O_A

# the results files here hold no samples: their data is taken for the release's (the gate itself: tests/tooling/test_release_gate.py)
pytestmark = pytest.mark.usefixtures("read_as_release")


def _catbench_run(folder, model="gpt-4o-2024-05-13", name="20250101_000000_results.json"):
    data = {"results": {"catbench_switched": catbench_entry(GPT_4O_A)}, "model_name": model, "config": {"model": "openai", "model_args": f"model={model}", "limit": None}}
    return write_json(folder / model.replace("/", "__") / name, data)


def _report(capsys, *argv):
    status = main_report([*map(str, argv)])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.mark.parametrize("benchmark", benchmarks.names())
def test_the_alias_table_covers_every_published_model_row(benchmark):
    """Every model row of every published table is a key of the alias tables or one of its names, and
    every name of the tables names a model the paper prints; an API model's row knows the names its
    paper gives it."""
    entry = benchmarks.get(benchmark)
    table = alias_table(benchmark)
    listed = {normalised(name) for name in table}
    printed = [row.model for layout in entry.layouts for row in published_rows(layout) if is_model(benchmark, row.model)]
    assert printed and {name for name in printed if model_key(benchmark, name) not in listed} == set()
    assert listed <= {model_key(benchmark, name) for name in printed}  # no stale entry
    # no alias stands for two published models, and no model is both open and an API model
    aliases = [normalised(alias) for name, names in table.items() for alias in (name, *names)]
    assert len(aliases) == len(set(aliases)) and not set(entry.model_names) & set(entry.api_models)
    assert all(entry.api_models.values())


@pytest.mark.parametrize(
    "label, table, row",
    [
        ("OpenGVLab/InternVL2_5-78B-MPO", "14", "InternVL2_5-78B-MPO"),  # the default label: the hub id
        ("llava-hf/LLaVA-NeXT-Video-34B-DPO-hf", "12", "LLaVA-NeXT-Video-34B-DPO"),  # Table 12 drops -hf
        ("lmms-lab/llava-onevision-qwen2-72b-ov-sft", "19", "llava-onevision-qwen2-72b"),
        ("llava-onevision-72b-ov", "14", "llava-onevision-qwen2-72b-ov-sft"),  # Table 5's spelling
    ],
)
def test_a_hub_id_or_another_tables_spelling_finds_the_row(label, table, row):
    assert model_key("tempvs", label) == model_key("tempvs", row)
    assert row in {r["model"] for r in load_table("tempvs", table).rows}


@pytest.mark.parametrize(
    "benchmark, label, row",
    [
        ("tempvs", "gpt-4o-2024-11-20", "GPT-4o"),  # Section 4.1: GPT-4o [2024-11-20]
        ("isobench", "gpt-4o-2024-11-20", "gpt-4o"),
        ("catbench", "gpt-4o-2024-05-13", "gpt-4o"),  # Appendix A
        ("catbench", "claude-3-5-sonnet-20240620", "claude-3.5-sonnet"),
        ("isobench", "claude-3-5-sonnet-20241022", "claude-3.5-sonnet"),
        ("isobench", "o3-2025-04-16", "o3"),
        *[(benchmark, label, None) for benchmark in ("tempvs", "catbench", "isobench") for label in ("gpt-4o", "GPT-4o", "gpt-4o-latest")],  # moving aliases
        ("catbench", "gpt-4o-2024-11-20", None),  # another version
        ("catbench", "gpt-4o-mini", None),
        ("catbench", "claude-3-5-sonnet-latest", None),
        ("catbench", "gemini-1.5-pro-latest", None),  # the paper's own name for the row, a moving one
        ("catbench", "gpt-3.5-turbo", None),
        ("isobench", "claude-3-5-sonnet-20240620", None),
        ("isobench", "o3", None),
    ],
)
def test_an_api_models_row_is_found_only_by_the_version_its_paper_names(benchmark, label, row):
    found = run_key(benchmark, label)
    assert (found == model_key(benchmark, row)) if row else (found != model_key(benchmark, "gpt-4o") and found not in {model_key(benchmark, r) for r in benchmarks.get(benchmark).api_models})
    assert (api_version_note(benchmark, label) is None) is (row is not None)


def _three_benchmark_run(folder, model):
    """A full run of one model on a task of each benchmark (the release's data: nothing recorded says otherwise)."""
    results = {"catbench_switched": catbench_entry(GPT_4O_A)}
    results |= {task: {f"{key},none": value for key, value in TEMPVS_14.items()} for task in ("tempvs_mt1_two", "tempvs_mt1_three")}
    results["isobench"] = {f"paper_{key},none": value for key, value in GPT_4O_A.items()}
    return write_json(folder / model / "20250101_000000_results.json", {"results": results, "model_name": model, "config": {"model": "openai", "model_args": f"model={model}", "limit": None}})


MOVING = "is a moving alias (the provider serves a newer version under it from time to time), so it gets no {} verdict: the paper evaluated {} (a run of that version records it: --model_args model={}; --label names a row, never the model)"


@pytest.mark.parametrize(
    "model, judged, notes",
    [
        ("gpt-4o-2024-11-20", ["TempVS Table 14", "ISO-Bench Table 1"], ["is another version of gpt-4o than the CaT-Bench paper evaluated (gpt-4o-2024-05-13), so it gets no verdict"]),
        ("gpt-4o-2024-05-13", ["CaT-Bench Table 1"], [f"is another version of {row} than the {title} paper evaluated (gpt-4o-2024-11-20), so it gets no verdict" for row, title in (("GPT-4o", "TempVS"), ("gpt-4o", "ISO-Bench"))]),
        ("gpt-4o", [], [MOVING.format(title, version, version) for title, version in (("CaT-Bench", "gpt-4o-2024-05-13"), ("TempVS", "gpt-4o-2024-11-20"), ("ISO-Bench", "gpt-4o-2024-11-20"))]),
        (
            "gpt-4o-2024-08-06",
            [],
            [
                f"is another version of {row} than the {title} paper evaluated ({version}), so it gets no verdict"
                for row, title, version in (("gpt-4o", "CaT-Bench", "gpt-4o-2024-05-13"), ("GPT-4o", "TempVS", "gpt-4o-2024-11-20"), ("gpt-4o", "ISO-Bench", "gpt-4o-2024-11-20"))
            ],
        ),
    ],
)
def test_a_gpt_4o_run_is_judged_by_the_papers_that_evaluated_its_version(tmp_path, capsys, model, judged, notes):
    """The issue's case: TempVS and ISO-Bench evaluated gpt-4o-2024-11-20, CaT-Bench gpt-4o-2024-05-13;
    the moving alias gpt-4o and a version no paper evaluated get no verdict, and the report says why."""
    _three_benchmark_run(tmp_path, model)
    status, out, _ = _report(capsys, tmp_path, "--table", "catbench-table1", "--table", "tempvs-table14", "--table", "isobench-table1")
    assert status == 0
    summary = out.split("\n## Reproduction verdicts\n\n")[1].split("\n\n")[0].splitlines()
    assert [line.split(":")[0].removeprefix("- ") for line in summary if " published cells " in line] == judged
    assert [line for line in summary if " published cells " not in line] == [f"- **{model}** {note}" for note in notes]
    assert out.count("Verdict: ") == len(judged)


def test_a_row_whose_paper_names_no_dated_version_gets_no_run_verdict():
    assert api_version_note("catbench", "gemini-1.5-pro-latest") == (
        "**gemini-1.5-pro-latest** gets no CaT-Bench verdict: the paper names gemini-1.5-pro only by a moving alias (gemini-1.5-pro-latest), no dated version, so no run can be matched to its rows"
    )
    assert "names gpt-3.5-turbo only by a moving alias (gpt-3.5-turbo)" in api_version_note("catbench", "gpt-3.5-turbo-0125")
    assert "the paper evaluated claude-3-5-sonnet-20240620 (" in api_version_note("catbench", "claude-3-5-sonnet-latest")


TEMPVS_14 = {"gt_acc": 0.8, "gtstrict_rate": 0.5, "mt_acc": 0.5, "mt_given_gtstrict": 0.5}


def _tempvs_run(folder, label, model_class):
    results = {task: {f"{key},none": value for key, value in TEMPVS_14.items()} for task in ("tempvs_mt1_two", "tempvs_mt1_three")}
    return write_json(folder / label.replace("/", "__") / "20250101_000000_results.json", {"results": results, "model_name": label, "config": {"model": model_class, "model_args": f"pretrained={label}"}})


def test_the_hub_id_run_is_judged_and_its_cells_name_the_internvl_gap(tmp_path, capsys):
    _tempvs_run(tmp_path, "OpenGVLab/InternVL2_5-78B-MPO", "internvl2")
    status, out, _ = _report(capsys, tmp_path, "--table", "tempvs-table14")
    assert status == 0
    published = next(line for line in out.splitlines() if "| InternVL2_5-78B-MPO | published |" in line)
    assert published.count("≠ gap") == 8
    assert (
        "- **OpenGVLab/InternVL2_5-78B-MPO**: 0 reproduced, 0 close, 8 differs; differs; known protocol gap: lmms-eval's internvl2 "
        "cuts each image into at most 6 tiles of 448 px (plus a thumbnail) where the official run_inference.py allows 12"
    ) in out


@pytest.mark.parametrize("model_class, gap", [("llava_hf", True), ("llava_next_video_hf", False)])
def test_llava_next_video_cells_name_the_resize_gap_unless_the_tasks_resize(tmp_path, capsys, model_class, gap):
    _tempvs_run(tmp_path, "llava-hf/LLaVA-NeXT-Video-34B-hf", model_class)
    status, out, _ = _report(capsys, tmp_path, "--table", "tempvs-table14")
    assert status == 0 and "8 differs" in out
    assert ("known protocol gap: the official wrapper (models/model_hf_llava_video.py) resizes every image to 224 x 224" in out) is gap


def test_a_label_of_no_published_model_is_said_with_the_nearest_names(tmp_path, capsys):
    _catbench_run(tmp_path, model="gpt4o-minni")
    status, out, _ = _report(capsys, tmp_path, "--table", "catbench-table1")
    assert status == 0 and "Verdict:" not in out
    assert ("\n- **gpt4o-minni** is no model the CaT-Bench paper lists, so it gets no verdict (nearest published names: gpt-4o-mini, gpt-4o") in out


def test_a_published_row_of_another_scoring_rule_gets_no_verdict_and_the_table_says_so(tmp_path, capsys):
    """ISO-Bench's o3 E→A row fits only the discarding rule (docs/isobench.md), the measured rows are Table 1's
    rule: a run of o3's version gets no verdict on it, and the table says why; another model's row is judged."""
    for model in ("o3-2025-04-16", "gpt-4o-2024-11-20"):
        results = {"isobench_cot": {f"paper_{key},none": value for key, value in GPT_4O_A.items()}}
        write_json(tmp_path / model / "20250101_000000_results.json", {"results": results, "model_name": model, "config": {"model": "openai", "model_args": f"model={model}", "limit": None}})
    status, out, _ = _report(capsys, tmp_path, "--table", "isobench-table1")
    assert status == 0
    assert "| o3‡ | E→A | published | 0.61 | 0.61 | 0.62? | 0.62 | 0.61 | 0.61 | 0.62 | 0.62? | 0.62 |" in out
    assert (
        "\nMeasured rows whose published row fits another scoring rule (‡, no reproduction verdict):\n"
        "- **o3-2025-04-16** (E→A): its published row fits another scoring rule than the measured row (the flagged published cells above say which)\n"
    ) in out
    assert "fits only the discarding rule (unparsed answers dropped), not the third-label rule of the other rows and the measured ones, so it gets no verdict" in out
    details = out.split("Reproduction verdicts of its measured rows")[1].split("\nVerdict: ")[0]  # the table's verdicts
    assert "- **gpt-4o-2024-11-20** (E→A): " in details and "**o3-2025-04-16**" not in details and VERDICT_LEGEND in out
    assert "Verdict: 0 reproduced, 0 close, 6 differs of 6 published cells (tolerance 2 points)." in out


@pytest.mark.parametrize(
    "label, model_class, gap",
    [
        ("OpenGVLab/InternVL2_5-8B", "internvl3", "decode as the task asks (greedy) where the official InternVL2.5 inference sampled"),
        ("llava-hf/llava-interleave-qwen-7b-hf", "llava_hf", "llava_hf under its own name gets the tasks' default section (images first in the turn)"),
        ("lmms-lab/LongVA-7B-DPO", "longva", "writes one <image> per image where the official wrapper (models/model_longva.py) wrote one for all the frames"),
        ("Qwen/Qwen2-VL-7B-Instruct", "qwen2_vl", "caps every image at max_pixels=602112 where the official run_inference.py (line 203) loads the processor with the checkpoint's defaults"),
        ("microsoft/Phi-3.5-vision-instruct", "phi3v", "loads the processor with its default num_crops (it takes no num_crops argument) where the official run_inference.py (lines 330-332) sets num_crops=len(img_path)"),
        ("lmms-lab/llava-onevision-qwen2-72b-ov-sft", "llava_onevision", "the official run_inference.py (lines 161-164) loads every model whose id contains 72b, 78b or 110b in 8 bits"),
    ],
)
def test_a_protocol_gap_is_named_by_report_check_and_compare_whatever_the_verdict(tmp_path, capsys, label, model_class, gap):
    from temporal_bench.check import protocol_gap_warnings
    from temporal_bench.report.compare import compare_runs, single_run
    from temporal_bench.runs.logged import find_runs

    path = _tempvs_run(tmp_path, label, model_class)
    status, out, _ = _report(capsys, tmp_path, "--table", "tempvs-table14")
    assert status == 0 and f"] **{label}** ({model_class}): " in out and gap in out  # a numbered note
    (run,) = find_runs(path.parent)
    assert any(gap in warning and warning.startswith(f"{label} ({model_class}): known protocol gap of TempVS: ") for warning in protocol_gap_warnings(run))
    _, notes = compare_runs(single_run(path.parent), single_run(path.parent))
    assert any(note.startswith(f"run A ({model_class}): known protocol gap: TempVS: ") and gap in note for note in notes)


def test_a_class_without_a_gap_for_the_model_is_not_named(tmp_path, capsys):
    _tempvs_run(tmp_path, "OpenGVLab/InternVL2_5-8B", "llava_hf")
    status, out, _ = _report(capsys, tmp_path, "--table", "tempvs-table14")
    assert status == 0 and "known protocol gaps" not in out
