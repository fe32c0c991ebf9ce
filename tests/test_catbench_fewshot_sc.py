"""BM25 few-shot retrieval and the self-consistency vote."""

import pytest

from temporal_bench.catbench import fewshot, prompts
from temporal_bench.catbench.fixtures import write_fixture
from temporal_bench.catbench.hooks import custom_dataset, doc_to_text_fewshot
from temporal_bench.catbench.loading import load_split
from temporal_bench.catbench.self_consistency import majority_vote, vote_each_doc


@pytest.fixture
def fixture_root(tmp_path, monkeypatch):
    root = write_fixture(tmp_path / "catbench", n_plans=4, pairs_per_class=5)
    monkeypatch.setenv("CATBENCH_DATA_DIR", str(root))
    fewshot.retriever_for.cache_clear()
    yield root
    fewshot.retriever_for.cache_clear()


def test_prompt_carries_exactly_k_exemplars_from_the_pool_split(fixture_root):
    doc = load_split("test")[0]
    train_titles = {q["title"] for q in load_split("train")}
    for k in (1, 5):
        text = doc_to_text_fewshot(doc, {"k": k, "pool_split": "train"})
        assert text.count("Select between yes or no") == k + 1
        assert text.endswith(prompts.answer_only(doc))
        shown = [t for t in text.split("Goal: ")[1:-1]]
        assert all(block.split("\n")[0] in train_titles for block in shown)
        assert doc["title"] not in text.replace(prompts.answer_only(doc), "")
    assert doc_to_text_fewshot(doc, {"k": 5, "pool_split": "train"}) == doc_to_text_fewshot(doc, {"k": 5, "pool_split": "train"})


def test_exemplars_end_with_their_gold_answer(fixture_root):
    doc = load_split("test")[0]
    shots = fewshot.retriever_for("train").exemplars(doc, 5)
    text = doc_to_text_fewshot(doc, {"k": 5, "pool_split": "train"})
    for shot in shots:
        assert prompts.answer_only(shot) + shot["answer"].capitalize() + "\n\n" in text


def test_exemplars_never_come_from_the_same_plan(fixture_root):
    train = load_split("train")
    doc, pool = train[0], train[1:]
    assert any(q["title"] == doc["title"] for q in pool)  # the exclusion has something to exclude
    shots = fewshot.ExemplarRetriever(pool).exemplars(doc, len(pool))
    assert shots and all(shot["title"] != doc["title"] for shot in shots)


def test_scores_are_rank_bm25s_own_to_the_last_bit(catbench_val, tmp_path, monkeypatch):
    """The retriever caches each term's share of the score; the sums are rank_bm25's, float for float
    (the real validation split: 10 questions asked of a pool of 500 others)."""
    (tmp_path / "val_must_why").symlink_to(catbench_val)
    monkeypatch.setenv("CATBENCH_DATA_DIR", str(tmp_path))
    pool = [q for q in load_split("validation") if q["variant"] == "real"]
    retriever = fewshot.ExemplarRetriever(pool[10:510])
    for doc in pool[:10]:
        query = fewshot._tokens(prompts.answer_only(doc))
        assert (retriever.scores(query) == retriever.index.get_scores(query)).all()


def test_pool_must_not_be_the_evaluated_split(fixture_root):
    doc = load_split("test")[0]
    with pytest.raises(ValueError, match="pool holds the evaluated question"):
        doc_to_text_fewshot(doc, {"k": 5, "pool_split": "test"})
    with pytest.raises(ValueError, match="must not come from the evaluated split 'test'"):
        custom_dataset(data_split="test", fewshot_k=5, pool_split="test")


@pytest.mark.parametrize("samples, vote", [
    (["Yes", "No", "yes"], "yes"), (["No", "no", "Yes"], "no"), (["Yes", "I can't tell", "No"], "no"),
    (["Yes", "???", "???"], "yes"), (["???", "", "know"], ""), (["**Yes**", "Yes.", "No"], "yes"),
])
def test_majority_vote(samples, vote):
    assert majority_vote(samples) == vote


def test_vote_each_doc_gives_one_answer_per_doc():
    assert vote_each_doc([["Yes", "No", "No"], ["Yes", "Yes", "No"]], [{}, {}]) == ["no", "yes"]
