"""BM25 few-shot retrieval and the self-consistency vote."""

import pytest

from temporal_bench.catbench.fixtures import write_fixture
from temporal_bench.lm_eval_tasks.plugin.catbench.utils import custom_dataset, vote_each_doc
from temporal_bench.lmms_eval_tasks.catbench import prompts
from temporal_bench.lmms_eval_tasks.catbench.questions import CatBenchDataError
from temporal_bench.lmms_eval_tasks.plugin.catbench import fewshot
from temporal_bench.lmms_eval_tasks.plugin.catbench.utils import majority_vote, process_docs_catbench_fewshot
from tests.task_docs import catbench_split as load_split
from tests.task_docs import placeholder


def doc_to_text_fewshot(doc, k, pool_split="train"):
    """The few-shot prompt of ``doc`` with ``k`` exemplars of ``pool_split`` (as the task's process_docs writes it)."""
    return fewshot.ExemplarRetriever([q for q in load_split(pool_split, pool=True) if q["variant"] == "real"]).prompt(doc, k)


@pytest.fixture
def fixture_root(tmp_path, monkeypatch):
    root = write_fixture(tmp_path / "catbench", n_plans=4, pairs_per_class=5)
    monkeypatch.setenv("CATBENCH_DATA_DIR", str(root))
    return root


def test_prompt_carries_exactly_k_exemplars_from_the_pool_split(fixture_root):
    doc = load_split("test")[0]
    train_titles = {q["title"] for q in load_split("train")}
    for k in (1, 5):
        text = doc_to_text_fewshot(doc, k)
        assert text.count("Select between yes or no") == k + 1
        assert text.endswith(prompts.answer_only(doc))
        shown = [t for t in text.split("Goal: ")[1:-1]]
        assert all(block.split("\n")[0] in train_titles for block in shown)
        assert doc["title"] not in text.replace(prompts.answer_only(doc), "")
    assert doc_to_text_fewshot(doc, 5) == doc_to_text_fewshot(doc, 5) == process_docs_catbench_fewshot(placeholder())[0]["fewshot_prompt"]


def test_exemplars_end_with_their_gold_answer(fixture_root):
    doc = load_split("test")[0]
    shots = fewshot.ExemplarRetriever([q for q in load_split("train") if q["variant"] == "real"]).exemplars(doc, 5)
    text = doc_to_text_fewshot(doc, 5)
    for shot in shots:
        assert prompts.answer_only(shot) + shot["answer"].capitalize() + "\n\n" in text


def test_exemplars_never_come_from_the_same_plan(fixture_root):
    train = load_split("train")
    doc, pool = train[0], train[1:]
    assert any(q["title"] == doc["title"] for q in pool)  # the exclusion has something to exclude
    shots = fewshot.ExemplarRetriever(pool).exemplars(doc, len(pool))
    assert shots and all(shot["title"] != doc["title"] for shot in shots)


def test_scores_are_rank_bm25s_own_to_the_last_bit(catbench_val, tmp_path, monkeypatch):
    """The retriever's own BM25 gives rank_bm25's ``BM25Okapi`` scores, float for float (the real validation split:
    10 questions asked of a pool of 500 others), so the package needs no rank_bm25."""
    from rank_bm25 import BM25Okapi

    (tmp_path / "val_must_why").symlink_to(catbench_val)
    monkeypatch.setenv("CATBENCH_DATA_DIR", str(tmp_path))
    pool = [q for q in load_split("validation") if q["variant"] == "real"]
    retriever = fewshot.ExemplarRetriever(pool[10:510])
    index = BM25Okapi([fewshot._tokens(prompts.answer_only(q)) for q in pool[10:510]])
    for doc in pool[:10]:
        query = fewshot._tokens(prompts.answer_only(doc))
        assert (retriever.scores(query) == index.get_scores(query)).all()


def test_pool_must_not_be_the_evaluated_split(fixture_root):
    doc = load_split("test")[0]
    with pytest.raises(CatBenchDataError, match="pool holds the evaluated question"):
        fewshot.ExemplarRetriever(load_split("test")).exemplars(doc, 5)
    with pytest.raises(SystemExit, match="must not come from the evaluated split 'test'"):  # a data error ends the run
        custom_dataset(data_split="test", fewshot_k=5, pool_split="test")


@pytest.mark.parametrize(
    "samples, vote",
    [
        (["Yes", "No", "yes"], "yes"),
        (["No", "no", "Yes"], "no"),
        (["Yes", "I can't tell", "No"], "no"),
        (["Yes", "???", "???"], "yes"),
        (["???", "", "know"], ""),
        (["**Yes**", "Yes.", "No"], "yes"),
    ],
)
def test_majority_vote(samples, vote):
    assert majority_vote(samples) == vote


def test_vote_each_doc_gives_one_answer_per_doc():
    assert vote_each_doc([["Yes", "No", "No"], ["Yes", "Yes", "No"]], [{}, {}]) == ["no", "yes"]
