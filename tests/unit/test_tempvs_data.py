"""TempVS data (docs/protocol/tempvs.md): the fixture's released layout and images (§2, §5), loading
(pkl and JSON, re-rooted paths), the prompts of §4 byte for byte, the filters' counts (§7.2, §7.1)
and the request count."""

import json
import re
from collections import Counter
from pathlib import Path

import pandas
import pytest
from PIL import Image

from temporal_bench.lmms_eval_tasks.plugin.tempvs.records import metric_keys
from temporal_bench.lmms_eval_tasks.plugin.tempvs.release import LocalRelease
from temporal_bench.lmms_eval_tasks.tempvs import tempvs_to_hf as prompts
from temporal_bench.lmms_eval_tasks.tempvs import utils as hooks
from temporal_bench.lmms_eval_tasks.tempvs.spec import GROUNDING_TESTS, MAIN_TESTS, SOURCES, TempVSDataError
from temporal_bench.lmms_eval_tasks.tempvs.tempvs_to_hf import BLIND_MODELS, file_of, has_invalid_event, read_table, reroot
from temporal_bench.tempvs.breakdowns import metric_names
from temporal_bench.tempvs.fixtures import INVALID_EVENTS, TEMPLATES_DIR, blind_outcomes, write_fixture
from tests.paths import DATA
from tests.task_docs import tempvs_grounding_docs as build_grounding_docs
from tests.task_docs import tempvs_main_docs as build_main_docs

ANNOTATION_FILES = ("paired_event_discrimination", "triple_event_discrimination", "ordering_texts", "ordering_images", "single_grounding_paired", "single_grounding_triple", "single_grounding_all")


def read_annotations(root, source, name):
    """The rows of one annotation file (``name``) of the release in ``root``."""
    stem = f"{source}_{name}_test"
    path = next(p for p in (root / "benchmark_pkl" / f"{stem}.pkl", root / "benchmark" / f"{stem}.json") if p.is_file())
    return LocalRelease(root).rows_of(path, source)


def official_request_count(test, data_dir):
    """Requests the official per-task protocol makes for a main test's four numbers: inference on every row of the main
    file and of its grounding file (the filters act at evaluation time)."""
    spec = MAIN_TESTS[test]
    return sum(len(read_annotations(data_dir, source, file_of(task_id))) for source in SOURCES for task_id in (spec.task_id, GROUNDING_TESTS[spec.grounding_test]))


@pytest.fixture(scope="module")
def fixture_root(tmp_path_factory):
    return write_fixture(tmp_path_factory.mktemp("tempvs"))


def test_layout_is_complete(tmp_path):
    root = write_fixture(tmp_path / "d")
    for source in SOURCES:
        for name in ANNOTATION_FILES:
            assert (root / "benchmark_pkl" / f"{source}_{name}_test.pkl").is_file()
            assert (root / "benchmark" / f"{source}_{name}_test.json").is_file()
        for task_id in ("paired_event_discrimination", "triple_event_discrimination", "ordering_texts_opt_event", "ordering_texts_opt_story"):
            for model, suffix, _ in BLIND_MODELS:
                assert (root / "predictions" / "blind" / model / f"{source}_{task_id}_preds_{suffix}.pkl").is_file()
    assert (root / "pororo" / "combined").is_dir() and (root / "vist" / "combined_shuffled").is_dir()
    assert list((root / "flintstones" / "video_frames_sampled_jpg").glob("*.jpg"))
    assert list((root / "pororo" / "original_color" / "PororoSV" / "full" / "images").glob("*.png"))


def test_combined_image_geometry(fixture_root):
    row = read_annotations(fixture_root, "vwp", "ordering_texts")[1]
    frames = [Image.open(fixture_root / reroot(p, "vwp")) for p in row["img_path_list_gt"]]
    combined = Image.open(fixture_root / reroot(row["combined_img_path_gt"], "vwp"))
    n = len(frames)
    assert combined.size == (sum(f.width for f in frames) + 10 * (n + 1), max(f.height for f in frames) + 50)
    assert min(combined.getpixel((5, 60))) > 245  # the left margin is white (JPEG: nearly)
    vist = read_annotations(fixture_root, "vist", "paired_event_discrimination")[0]
    assert Image.open(fixture_root / reroot(vist["combined_img_path"], "vist")).size == (5 * 443 + 60, 290)  # §5 example
    name = Path(read_annotations(fixture_root, "vwp", "ordering_images")[0]["combined_img_path_shuffled"])
    assert name.parent.name == "combined_shuffled" and re.fullmatch(r"alpha4a-tt000_scene0-shot(_\d+){5}\.jpg", name.name)
    assert Path(read_annotations(fixture_root, "pororo", "ordering_texts")[0]["combined_img_path_gt"]).suffix == ".png"


def test_stored_paths_are_rerooted(fixture_root):
    row = read_annotations(fixture_root, "flintstones", "paired_event_discrimination")[0]
    assert row["combined_img_path"].startswith("/data/flintstones/combined/")
    docs, _ = build_main_docs("mt1_two", data_dir=fixture_root)
    for doc in docs[:10]:
        assert doc["image"].startswith(str(fixture_root)) and Path(doc["image"]).is_file()
        assert all(Path(frame).is_file() for frame in doc["frames"])
    assert reroot("data/vist/images/test/1.jpg", "vist") == "vist/images/test/1.jpg"


def test_json_and_pickle_give_the_same_docs(tmp_path):
    pkl = write_fixture(tmp_path / "pkl", formats=("pkl",))
    js = write_fixture(tmp_path / "json", formats=("json",))
    for test in ("mt1_three", "mt3_caption"):
        a, _ = build_main_docs(test, data_dir=pkl)
        b, _ = build_main_docs(test, data_dir=js)
        strip = lambda docs, root: json.loads(json.dumps(docs).replace(str(root), "ROOT"))  # noqa: E731
        assert strip(a, pkl) == strip(b, js)


def test_missing_data_is_reported(tmp_path):
    with pytest.raises(TempVSDataError, match="no TempVS layout"):
        build_main_docs("mt1_two", data_dir=tmp_path)
    root = write_fixture(tmp_path / "d", formats=("json",))
    (root / "benchmark" / "vist_single_grounding_all_test.json").unlink()
    with pytest.raises(TempVSDataError, match="vist_single_grounding_all_test"):
        build_main_docs("mt2_event", data_dir=root)
    docs, _ = build_main_docs("mt1_two", data_dir=root)
    (Path(docs[0]["image"])).unlink()
    with pytest.raises(TempVSDataError, match=re.escape(docs[0]["doc_key"])):
        hooks.doc_to_visual(docs[0])


# ---- prompts (§4.2 worked examples) --------------------------------------------------------------

PORORO_EXAMPLE = """This is a description of the possible appearance of character(s) in the image(s): Pororo is a gentoo penguin with an orange-yellow beak wearing a tan aviator's helmet and orange goggles.
The statement is: A snowball dropped down a small snow hill after Pororo threw a snowball.
Is the statement completely accurate and consistent with the content in the sequence of images? When making the choice, focus on the evidence presented in the sequence of images from left to right. No need to give reasoning process. Submit only the right option letter as your answer, e.g., Option [Letter].
Options are: A. True; B. False.
The answer is: """

VWP_EXAMPLE = """
The shuffled sentences are:
Sentence a: John prepares to shoot again and fires.
Sentence b: The shadowy figure is hit with the rifle blast.
Sentence c: John takes aim at a shadowy figure up above.
Sentence d: Ken stops the horses and prepares to leave the stagecoach.
Sentence e: Ken is approaching a house out on the prairie on his stagecoach with his two horses.
You are given an ordered image sequence and several sentences in a random order. Your task is to analyze the content of the sequence of images from left to right and rearrange the sentences into the correct chronological or logical order. Read the image sequence from left to right. Use the images' content to guide your sentence ordering. Avoid assumptions not supported by the image seqeunce or sentences.
Do not provide explanations or repeat the prompt. Select from the following options and your answer should only be in the format: Option [Letter].
A. Sentence c -> Sentence b -> Sentence a -> Sentence e -> Sentence d;
B. Sentence b -> Sentence e -> Sentence d -> Sentence a -> Sentence c;
C. Sentence e -> Sentence b -> Sentence c -> Sentence d -> Sentence a;
D. Sentence c -> Sentence a -> Sentence e -> Sentence d -> Sentence b;
E. Sentence d -> Sentence c -> Sentence e -> Sentence b -> Sentence a.
The answer is: """


def _templates():
    load = lambda name: json.loads((TEMPLATES_DIR / "prompt_templates" / name).read_text())  # noqa: E731
    return load("task_instructions.json"), load("requirement_templates.json"), load("answer_format_templates.json")


def test_prompt_worked_examples_byte_exact():
    instructions, requirements, formats = _templates()
    key = "paired_event_discrimination"
    row = {
        "data_source": "pororo",
        "character_info": json.loads((TEMPLATES_DIR / "characters_pororo.json").read_text())["pororo"],
        "statement_text": "A snowball dropped down a small snow hill after Pororo threw a snowball.",
        "task_instruction": " ".join([instructions[key][0], requirements[key][0], formats[key][0]]),
        "option_text": "A. True; B. False.",
    }
    assert prompts.prompt(row, key) == PORORO_EXAMPLE
    story = [
        "John prepares to shoot again and fires.",
        "The shadowy figure is hit with the rifle blast.",
        "John takes aim at a shadowy figure up above.",
        "Ken stops the horses and prepares to leave the stagecoach.",
        "Ken is approaching a house out on the prairie on his stagecoach with his two horses.",
    ]
    options = ";\n".join(VWP_EXAMPLE.split("Option [Letter].\n")[1].split(".\nThe answer")[0].split(";\n"))
    row = {
        "data_source": "vwp",
        "character_info": "Pororo is a penguin.",
        "texts_shuffled": str(story),
        "task_instruction": instructions["ordering_texts"][0] + " " + requirements["ordering_texts"][0],
        "answer_format_opt": formats["ordering_texts_opt"][0],
        "options": options,
    }
    assert prompts.prompt(row, "ordering_texts_opt_story") == VWP_EXAMPLE  # VWP: no character description


def test_fixture_prompts_follow_the_assembly(fixture_root):
    docs, _ = build_main_docs("mt3_event", mode="cot", data_dir=fixture_root)
    main = next(d for d in docs if d["kind"] == "main" and d["source"] == "flintstones")
    row = next(r for r in read_annotations(fixture_root, "flintstones", "ordering_images") if r["question_id"] == main["question_id"])
    assert main["prompt"] == (
        prompts.CHAR_PREFIX + row["character_info"] + "\nThe events are: " + row["events_gt"] + "\n" + row["task_instruction_cot_opt"] + prompts.IMGIDX + "\n" + row["answer_format_opt"] + "\n" + row["options"] + "." + "\nThe answer is: "
    )
    grounding = next(d for d in docs if d["kind"] == "grounding" and d["source"] == "vist")
    assert grounding["prompt"].startswith("\nThe event is: ")  # VIST: empty character prefix, even with character_info
    assert read_annotations(fixture_root, "vist", "single_grounding_all")[0]["character_info"]
    blind, _ = build_main_docs("mt1_two", mode="blind", with_grounding=False, blind_filter=False, data_dir=fixture_root)
    assert all(d["kind"] == "main" for d in blind) and blind[0]["prompt"].startswith("\nThe statement is: ")


def test_answers_spread_over_all_options(fixture_root):
    for test, letters in (("mt1_two", "AB"), ("mt2_event", "ABCDE"), ("mt3_caption", "ABCDE")):
        docs, _ = build_main_docs(test, blind_filter=False, with_grounding=False, data_dir=fixture_root)
        assert set(Counter(d["answer"] for d in docs)) == set(letters)
        assert all(d["answer"] in d["choices"] for d in docs)
    docs, _ = build_grounding_docs("single_grounding_all", data_dir=fixture_root)
    assert {d["answer"] for d in docs} == {str(k) for k in range(1, 9)}  # VWP sequences reach 8 images
    separate, _ = build_grounding_docs("single_grounding_all", visual="separate", data_dir=fixture_root)  # docs list the frames shown
    assert [d["choices"] for d in docs] == [d["choices"] for d in separate]
    assert all(d["choices"] == [str(k) for k in range(1, len(d["frames"]) + 1)] for d in separate)


# ---- filters -------------------------------------------------------------------------------------


def test_invalid_event_filter_is_a_substring_match_over_event_columns():
    assert has_invalid_event({"event_pre": "Pororo and Eddy behave funny"})  # "have fun"
    assert has_invalid_event({"events_shuffled": ["a", "We HAD FUN"]})
    assert has_invalid_event({"event_to_test": "NO_EVENT"})
    assert not has_invalid_event({"text_pre": "we had fun", "event_pre": "We swim"})  # captions are not checked


def _expected_counts(root, test):
    spec = MAIN_TESTS[test]
    expected = {}
    for source in SOURCES:
        frame = pandas.read_pickle(root / "benchmark_pkl" / f"{source}_{spec.task_id[:-10] if test.startswith('mt2') else spec.task_id}_test.pkl")
        valid = [r for r in frame.to_dict("records") if not any(any(m.lower() in str(v).lower() for m in ("have fun", "had fun")) for k, v in r.items() if k.startswith("event"))]
        kept = [r for r in valid if sum(blind_outcomes(source, spec.task_id, r["question_id"])) < 2]
        expected[source] = {"rows": len(frame), "after_invalid_event_filter": len(valid), "after_blind_filter": len(kept)}
    return expected


@pytest.mark.parametrize("test", ["mt1_two", "mt1_three", "mt2_event", "mt2_caption"])
def test_filter_counts(fixture_root, test):
    docs, report = build_main_docs(test, data_dir=fixture_root)
    expected = _expected_counts(fixture_root, test)
    assert report.counts[MAIN_TESTS[test].task_id] == expected
    # the fixture exercises both filters: the invalid events and both sides of the 2-of-3 threshold
    assert expected["pororo"]["after_invalid_event_filter"] < expected["pororo"]["rows"]
    assert expected["vist"]["after_invalid_event_filter"] < expected["vist"]["rows"]
    assert sum(s["after_blind_filter"] for s in expected.values()) < sum(s["after_invalid_event_filter"] for s in expected.values())
    assert sum(1 for d in docs if d["kind"] == "main") == sum(s["after_blind_filter"] for s in expected.values())
    unfiltered, report = build_main_docs(test, blind_filter=False, data_dir=fixture_root)
    assert "after_blind_filter" not in report.counts[MAIN_TESTS[test].task_id]["vwp"]
    assert sum(1 for d in unfiltered if d["kind"] == "main") == sum(s["after_invalid_event_filter"] for s in expected.values())


def test_blind_filter_thresholds_exercised(fixture_root):
    outcomes = Counter(sum(blind_outcomes(s, "paired_event_discrimination", r["question_id"])) for s in SOURCES for r in read_annotations(fixture_root, s, "paired_event_discrimination"))
    assert all(outcomes[k] > 5 for k in range(4))  # 0, 1 (kept) and 2, 3 (dropped) correct LLMs


def test_mt3_has_no_blind_filter(fixture_root):
    _, report = build_main_docs("mt3_event", data_dir=fixture_root)
    assert all("after_blind_filter" not in s for s in report.counts["ordering_images_opt_event"].values())


def test_invalid_event_grounding_rows_dropped(fixture_root):
    docs, report = build_grounding_docs("single_grounding_all", data_dir=fixture_root)
    assert {s: c["rows"] - c["after_invalid_event_filter"] for s, c in report.counts["single_grounding_all"].items()} == {"flintstones": 0, "pororo": 1, "vwp": 0, "vist": 1}
    assert not any(d["prompt"].count(event) for d in docs for event in INVALID_EVENTS.values())


# ---- the join and the request count --------------------------------------------------------------


def test_grounding_partners_and_request_count(fixture_root):
    counts = {}
    for test, spec in MAIN_TESTS.items():
        docs, _ = build_main_docs(test, data_dir=fixture_root)
        keys = [d["doc_key"] for d in docs]
        assert len(keys) == len(set(keys))  # each grounding question asked once
        grounding = {(d["source"], d["question_id"]): d for d in docs if d["kind"] == "grounding"}
        for main in (d for d in docs if d["kind"] == "main"):
            partners = [grounding[main["source"], question_id] for question_id in main["partners"]]
            assert all(p["img_seq_id"] == main["img_seq_id"] for p in partners)
            assert len(partners) == main["expected_partners"]
            if spec.family == "mt1":
                row_tuple = [p["event_index"] for p in partners]
                assert row_tuple == sorted(row_tuple) and len(set(row_tuple)) == len(row_tuple)
        ours = len(docs)
        assert ours == sum(d["kind"] == "main" for d in docs) + len(grounding)
        counts[test] = (ours, official_request_count(test, data_dir=fixture_root))
    # ours: main questions after the filters + the grounding file after the invalid-event filter;
    # official: inference on every row of the main and the grounding file
    assert counts == {"mt1_two": (152, 240), "mt1_three": (138, 180), "mt2_event": (111, 126), "mt2_caption": (110, 126), "mt3_event": (122, 126), "mt3_caption": (122, 126)}
    # MT2 and MT3 of one text kind in one task: their main questions, the shared grounding questions once
    for text in ("event", "caption"):
        both, _ = build_main_docs((f"mt2_{text}", f"mt3_{text}"), data_dir=fixture_root)
        alone = {test: build_main_docs(test, data_dir=fixture_root)[0] for test in (f"mt2_{text}", f"mt3_{text}")}
        assert sorted(d["doc_key"] for d in both) == sorted({d["doc_key"] for docs in alone.values() for d in docs})
        asked = lambda d: {k: v for k, v in d.items() if k != "tests"}  # noqa: E731 - the same doc, in a task of other tests
        assert {d["doc_key"]: asked(d) for d in both} == {d["doc_key"]: asked(d) for docs in alone.values() for d in docs}


def test_missing_grounding_rows_in_the_data(tmp_path):
    root = write_fixture(tmp_path / "d", missing_grounding=True)
    docs, _ = build_main_docs("mt1_two", blind_filter=False, data_dir=root)
    short = [d for d in docs if d["kind"] == "main" and len(d["partners"]) < d["expected_partners"]]
    # flintstones sequence 0 lost event 0: the pairs (0, 1) and (0, 4), two statements each
    assert len(short) == 4 and {d["img_seq_id"] for d in short} == {"test_0000"}


# ---- task folder ---------------------------------------------------------------------------------


def test_no_metric_name_contains_another():
    """lmms-eval matches group metrics by substring: keep every name of a task out of every other."""
    tasks = [(test,) for test in (*MAIN_TESTS, *GROUNDING_TESTS)] + [("mt2_event", "mt3_event"), ("mt2_caption", "mt3_caption")]
    for names in [metric_names(family) for family in ("mt1_two", "mt1_three", "ordering", "grounding")] + [[name for name, _, _ in metric_keys(tests, suite)] for tests, suite in [*((t, False) for t in tasks), (tuple(MAIN_TESTS), True)]]:
        assert not [(a, b) for a in names for b in names if a != b and a in b], names


# ---- the release's pickles: pandas/numpy classes only ----------------------------------------------


def tampered_pickle(path: Path, marker: Path) -> None:
    """A protocol-0 pickle whose load would call ``os.system`` to create ``marker``."""
    path.write_bytes(b"cos\nsystem\n(S'touch " + str(marker).encode() + b"'\ntR.")


def test_a_pickle_naming_another_callable_is_refused(tmp_path):
    root = write_fixture(tmp_path / "d", n_sequences=2, formats=("pkl",))
    path = root / "benchmark_pkl" / "vwp_paired_event_discrimination_test.pkl"
    marker = tmp_path / "code_ran"
    tampered_pickle(path, marker)
    with pytest.raises(TempVSDataError) as error:
        build_main_docs("mt1_two", data_dir=root)
    assert str(error.value) == (
        f"{path}: refused to unpickle: it names os.system, which is not among the pandas/numpy classes a pickled DataFrame of the TempVS release holds; unpickling it could run arbitrary code (a tampered file?), so it was not loaded"
    )
    assert not marker.exists()


def test_a_pickle_written_by_pandas_2_and_numpy_1_loads():
    """tests/data/tempvs/PROVENANCE.md: a prediction-file-like DataFrame (lists, NaN, a non-range index) as
    pandas 2.2.3 with numpy 1.26.4 pickles it, read by the restricted unpickler under the installed versions."""
    rows = read_table(DATA / "tempvs" / "pandas2_prediction_rows.pkl")
    assert rows == [
        {"data_source": "vwp", "img_seq_id": "s1", "question_id": "s1_q0", "gt_option": "Option A", "img_path_list": ["vwp/s1/0.png", "vwp/s1/1.png"], "event_distance": 1, "character_info": None, "preds": "Option A", "_index": 0},
        {"data_source": "vwp", "img_seq_id": "s2", "question_id": "s2_q2", "gt_option": "Option A", "img_path_list": [], "event_distance": 3, "character_info": "", "preds": "option b", "_index": 2},
    ]
