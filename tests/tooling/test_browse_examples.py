"""``temporal-bench browse --examples`` (temporal_bench/browse/examples.py) on real lmms-eval CLI runs
of the scripted model: TempVS Figure 4 from two runs of ``tempvs_mt1_two`` (an oracle, and a script
whose answers cycle right, wrong, invalid over the docs), CaT-Bench Figures 5-6 from a
``catbench_explain`` run with scripted JSON answers and explanations. The tests name which
questions are picked; a figure whose runs are missing is an error naming what was found."""

import shutil

import pytest

from temporal_bench.browse.cli import main_browse
from tests.recorded.browse import OUTCOMES
from tests.recorded.browse_examples import TEMPVS_RUNS, catbench_docs, tempvs_docs
from tests.tooling.test_browse import read_page

COUNT = 3  # the default --examples-count


def browse(*argv):
    assert main_browse([str(a) for a in argv]) == 0


def examples_joins(card, strings, prefix):
    return [join for join in card.get("joins", []) if strings[join[0]].startswith(prefix)]


# ---- TempVS Figure 4 ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def tempvs_runs(recorded, tmp_path_factory):
    """Two runs under one folder, each in its own: the oracle (all right) and the cycling script
    (tests/recorded/browse_examples.py, which ran them into one folder, in that order)."""
    root = tmp_path_factory.mktemp("tempvs_runs")
    run = recorded("browse_examples_tempvs")
    for name, results in zip(TEMPVS_RUNS, sorted(run.out.glob("*_results.json")), strict=True):
        (root / name).mkdir()
        for path in run.out.glob(f"{results.name.removesuffix('_results.json')}_*"):
            shutil.copy(path, root / name)
    return root, tempvs_docs(run.env), run.work / "scripts" / "answers.json"


def test_tempvs_figure4_shows_the_same_questions_across_runs_disagreements_first(tempvs_runs):
    root, docs, script = tempvs_runs
    browse(root, "--examples", "tempvs-figure4")
    cards, _, missing, page = read_page(root / "browse-tempvs-figure4.html")
    strings = page["strings"]
    # the main questions in doc order; the cycling run answers doc i right when i % 3 == 0 (as the oracle)
    mains = [(i, doc["doc_key"]) for i, doc in enumerate(docs) if doc["kind"] == "main"]
    expected = [key for i, key in mains if i % 3][:COUNT]
    assert len(mains) == 74 and len(expected) == COUNT
    picked = [card for card in cards if examples_joins(card, strings, "TempVS Figure 4")]
    assert sorted(card["question"] for card in picked) == sorted(expected * 2)  # each question once per run
    by_id = {card["id"]: card for card in cards}
    models = {"scripted (policy=oracle)", f"scripted (policy=script,script={script})"}
    for card in picked:
        [join] = examples_joins(card, strings, "TempVS Figure 4")
        assert strings[join[0]] == "TempVS Figure 4: the same question answered by 2 runs (2 different answer(s))"
        [(label, other, status)] = join[2]
        assert by_id[other]["question"] == card["question"] and other != card["id"]
        assert strings[label].rpartition(":")[0] in models
        assert {card["status"], status} in ({"right", "wrong"}, {"right", "invalid"})
    # besides the picked main questions, only their grounding questions (linked by GT_strict)
    linked = {link[1] for card in picked for join in card["joins"] for link in join[2]}
    assert {card["id"] for card in cards} == {card["id"] for card in picked} | linked
    assert all("grounding question" in strings[card["facts"]] for card in cards if card not in picked)
    # only the kept cards' strips are in the page (the run's other sequences are not)
    assert set(page["thumbs"]) == {image[0] for card in cards for image in card["images"]}
    shown = {doc["image"] for doc in docs if doc["doc_key"] in {card["question"] for card in cards}}
    assert len(page["thumbs"]) == len(shown) < len({doc["image"] for doc in docs})
    assert missing == 0


def test_the_runs_of_two_models_are_shown_newest_first(tempvs_runs, tmp_path):
    """A newer run of another model supersedes nothing: both runs' cards, the newer run's first."""
    root, docs, _ = tempvs_runs
    older, newer = (next((root / name).glob("*_results.json")) for name in TEMPVS_RUNS)
    assert older.name < newer.name  # named by their dates
    browse(root, "--output", tmp_path / "page.html")
    _, table, _, _ = read_page(tmp_path / "page.html")
    assert {name: row["cards"] for name, row in table.items()} == {f"tempvs_mt1_two [{newer.name}]": len(docs), f"tempvs_mt1_two [{older.name}]": len(docs)}
    assert list(table) == [f"tempvs_mt1_two [{newer.name}]", f"tempvs_mt1_two [{older.name}]"]


def test_tempvs_figure4_from_one_run_is_an_error_naming_what_was_found(tempvs_runs, capsys):
    root, _, _ = tempvs_runs
    with pytest.raises(SystemExit) as raised:
        main_browse([str(root / "oracle"), "--examples", "tempvs-figure4"])
    assert raised.value.code == 2
    assert ("tempvs-figure4 needs the same TempVS task logged by at least two runs (one per model); found: tempvs_mt1_two (scripted (policy=oracle))") in capsys.readouterr().err


def test_examples_count_must_be_positive(tempvs_runs, capsys):
    root, _, _ = tempvs_runs
    with pytest.raises(SystemExit):
        main_browse([str(root), "--examples", "tempvs-figure4", "--examples-count", "0"])
    assert "--examples-count must be at least 1, not 0" in capsys.readouterr().err


def test_catbench_figures_need_an_answer_and_explain_run(tempvs_runs, capsys):
    root, _, _ = tempvs_runs
    with pytest.raises(SystemExit):
        main_browse([str(root), "--examples", "catbench-figures5-6"])
    assert "catbench-figures5-6 needs an A+E run (tasks catbench_explain*" in capsys.readouterr().err


# ---- CaT-Bench Figures 5 and 6 --------------------------------------------------------------------


def names_other(doc, i):
    return OUTCOMES[i % 3] == "wrong" and i % 2 == 0 and doc["step_b"] + 1 < len(doc["steps"])


@pytest.fixture(scope="module")
def catbench_run(recorded):
    """The answers cycle right, wrong, invalid; a wrong explanation names the step after the pair when i % 2 == 0 and
    that step exists (an irrelevant step), else one of the asked steps (tests/recorded/browse_examples.py)."""
    run = recorded("browse_examples_catbench_explain")
    return run.out, catbench_docs(run.env)


def test_catbench_figures5_6_pick_explanations_per_outcome_class(catbench_run):
    out, docs = catbench_run
    browse(out, "--examples", "catbench-figures5-6")
    cards, table, missing, page = read_page(out / "browse-catbench-figures5-6.html")
    strings = page["strings"]
    indexed = list(enumerate(docs))

    def ids(selected):
        return [doc["question_id"] for _, doc in selected]

    wrong_dep = [(i, d) for i, d in indexed if OUTCOMES[i % 3] == "wrong" and d["dependency"] == "dep"]
    wrong_dep.sort(key=lambda item: item[1]["step_a"] - item[1]["step_b"])  # farthest apart first (stable)
    members = {
        "good, Dep": [(i, d) for i, d in indexed if OUTCOMES[i % 3] == "right" and d["dependency"] == "dep"],
        "good, NonDep": [(i, d) for i, d in indexed if OUTCOMES[i % 3] == "right" and d["dependency"] == "nondep"],
        "bad, Dep": wrong_dep,
        "bad, NonDep": [(i, d) for i, d in indexed if OUTCOMES[i % 3] == "wrong" and d["dependency"] == "nondep"],
        "bad, names another step": [(i, d) for i, d in indexed if names_other(d, i)],
        "invalid": [(i, d) for i, d in indexed if OUTCOMES[i % 3] == "invalid"],
    }
    assert {name: len(found) for name, found in members.items()} == {"good, Dep": 8, "good, NonDep": 8, "bad, Dep": 8, "bad, NonDep": 8, "bad, names another step": 8, "invalid": 16}
    picked = {}
    for card in cards:
        for join in examples_joins(card, strings, "CaT-Bench Figures 5-6"):
            title = strings[join[0]]
            name = title.removeprefix("CaT-Bench Figures 5-6, ").partition(":")[0]
            assert title.endswith(f"({len(members[name])} such)") and join[2] == []
            picked.setdefault(name, []).append(card["question"])
    assert {name: sorted(q) for name, q in picked.items()} == {name: sorted(ids(found[:COUNT])) for name, found in members.items()}
    # the picked questions and their TC twins (the other relation of the same step pair), nothing else
    questions = {card["question"] for card in cards}
    twins = {q.rsplit("|", 1)[0] + "|" + {"before": "after", "after": "before"}[q.rsplit("|", 1)[1]] for names in picked.values() for q in names}
    assert questions == {q for names in picked.values() for q in names} | (twins & {d["question_id"] for d in docs})
    assert missing == 0 and table["catbench_explain"]["cards"] == len(cards)
