"""CaT-Bench loading on the real validation split and on the Hugging Face layout."""

import json
from collections import Counter

import pytest

from temporal_bench.catbench.fixtures import hf_rows
from temporal_bench.lmms_eval_tasks.catbench.questions import CatBenchDataError, with_switched_twins
from tests.task_docs import catbench_split as load_split


@pytest.fixture(scope="module")
def val_questions(catbench_val):
    return load_split("validation", catbench_val)


def test_real_validation_split_statistics(val_questions):
    assert len(val_questions) == 1616
    assert Counter(q["dependency"] for q in val_questions) == {"dep": 808, "nondep": 808}
    assert Counter(q["answer"] for q in val_questions) == {"yes": 808, "no": 808}
    assert Counter(q["relation"] for q in val_questions) == {"before": 808, "after": 808}
    assert sum((q["step_b"] - q["step_a"]) <= 3 for q in val_questions) == 746
    assert sum((q["step_b"] - q["step_a"]) > 3 for q in val_questions) == 870
    assert len({q["title"] for q in val_questions}) == 28


def test_every_pair_has_one_before_and_one_after_question(val_questions):
    relations = Counter((q["pair_id"], q["relation"]) for q in val_questions)
    pairs = {q["pair_id"] for q in val_questions}
    assert len(pairs) == 808
    assert all(relations[pair, "before"] == 1 and relations[pair, "after"] == 1 for pair in pairs)


def test_questions_keep_the_released_strings(val_questions, catbench_val):
    released = Counter()
    for path in catbench_val.glob("*.jsonl"):
        released.update(json.loads(line)["binary_question"] for line in path.read_text().splitlines())
    assert Counter(q["question"] for q in val_questions) == released
    after = [q for q in val_questions if q["relation"] == "after"]
    assert all(q["question"] == f"Must Step {q['step_b'] + 1} happen after Step {q['step_a'] + 1}?" for q in after)


def test_hf_layout_loads_the_same_questions(tmp_path, catbench_val, val_questions):
    # Rebuild the Hugging Face serialisation (one row per step pair) from the real split.
    pairs = {}
    for q in val_questions:
        plan = {"title": q["title"], "steps": q["steps"]}
        pairs[q["pair_id"]] = (plan, q["step_a"], q["step_b"], q["dependency"] == "dep")
    with open(tmp_path / "val.jsonl", "w") as handle:
        handle.writelines(json.dumps(row) + "\n" for row in hf_rows(list(pairs.values())))
    from_hf = load_split("validation", tmp_path)
    key = lambda q: q["question_id"]  # noqa: E731
    assert sorted(from_hf, key=key) == sorted(val_questions, key=key)


def test_release_root_with_split_folders(tmp_path, catbench_val):
    (tmp_path / "val_must_why").symlink_to(catbench_val)
    assert len(load_split("validation", tmp_path)) == 1616


def test_unknown_layout_names_what_was_found(tmp_path):
    (tmp_path / "notes.txt").write_text("x")
    with pytest.raises(CatBenchDataError, match=r"no CaT-Bench 'test' split, which this task evaluates.*notes\.txt"):
        load_split("test", tmp_path)


def test_data_dir_env_var_must_name_a_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("CATBENCH_DATA_DIR", str(tmp_path / "missing"))
    with pytest.raises(FileNotFoundError, match="CATBENCH_DATA_DIR"):
        load_split("test")


def _copy_release(catbench_val, target, edit_first_row=None):
    target.mkdir()
    for path in catbench_val.iterdir():
        lines = path.read_text().splitlines()
        if edit_first_row and path.name == "dependent_real_after.jsonl":
            lines[0] = edit_first_row(json.loads(lines[0]))
        (target / path.name).write_text("\n".join(lines) + "\n")


def test_malformed_row_names_file_and_line(tmp_path, catbench_val):
    def drop_steps(row):
        del row["steps"]
        return json.dumps(row)

    _copy_release(catbench_val, tmp_path / "val", drop_steps)
    with pytest.raises(CatBenchDataError, match=r"dependent_real_after\.jsonl:1: missing field\(s\) \['steps'\]"):
        load_split("validation", tmp_path / "val")


def test_truncated_row_names_file_and_line(tmp_path, catbench_val):
    _copy_release(catbench_val, tmp_path / "val", lambda row: json.dumps(row)[:50])
    with pytest.raises(CatBenchDataError, match=r"dependent_real_after\.jsonl:1: not valid JSON"):
        load_split("validation", tmp_path / "val")


def test_question_that_disagrees_with_its_step_pair_is_rejected(tmp_path, catbench_val):
    def swap_numbers(row):
        a, b = row["step_pair_idx_asked_about"]
        row["binary_question"] = f"Must Step {a + 1} happen after Step {b + 1}?"
        return json.dumps(row)

    _copy_release(catbench_val, tmp_path / "val", swap_numbers)
    with pytest.raises(CatBenchDataError, match="does not ask about steps"):
        load_split("validation", tmp_path / "val")


def test_switched_twins_swap_the_two_step_texts_only(val_questions):
    questions = with_switched_twins(val_questions)
    twins = [q for q in questions if q["variant"] == "switched"]
    assert len(twins) == 808 and all(q["answer"] == "no" for q in twins)
    originals = {q["question_id"]: q for q in val_questions}
    for twin in twins[:50]:
        original = originals[twin["question_id"].replace("switched|", "real|", 1)]
        a, b = twin["step_a"], twin["step_b"]
        assert twin["question"] == original["question"]
        assert twin["steps"][a] == original["steps"][b] and twin["steps"][b] == original["steps"][a]
        assert [s for i, s in enumerate(twin["steps"]) if i not in (a, b)] == [s for i, s in enumerate(original["steps"]) if i not in (a, b)]


def test_pair_ids_agree_with_the_released_question_idx_pairing(val_questions, catbench_val):
    """TC pairs by (title, a, b); the release pairs by question_idx within Dep/NonDep: the same 808 pairs."""
    released = {}
    for path in catbench_val.glob("*.jsonl"):
        dependent = path.name.startswith("dependent")
        for line in path.read_text().splitlines():
            row = json.loads(line)
            a, b = row["step_pair_idx_asked_about"]
            released.setdefault((dependent, row["question_idx"]), set()).add(f"{row['title']}|{a}|{b}")
    assert all(len(ids) == 1 for ids in released.values())
    assert {ids.pop() for ids in released.values()} == {q["pair_id"] for q in val_questions}
    assert len(released) == 808


@pytest.mark.parametrize(
    "settings, named",
    [
        ({"close_max_distance": -1}, "close_max_distance -1: the largest step distance a pair counts as close, a whole number >= 0"),
        ({"close_max_distance": "3"}, "close_max_distance '3'"),
        ({"close_max_distance": True}, "close_max_distance True"),
        ({"switched": "no"}, "switched 'no': true or false"),
    ],
)
def test_a_task_setting_of_the_wrong_kind_or_range_is_refused_when_the_yaml_loads(settings, named):
    from temporal_bench.lmms_eval_tasks.plugin.catbench.utils import variant

    with pytest.raises(CatBenchDataError, match="CaT-Bench task settings: ") as error:
        variant(**settings)
    assert named in str(error.value)
    variant(close_max_distance=0, switched=False)  # the smallest threshold is a setting like any other
    with pytest.raises(TypeError, match="unexpected keyword argument 'close_max'"):
        variant(close_max=2)  # a misspelt setting
