"""CaT-Bench's hub route and its task settings, end to end through the real lmms-eval and lm-eval CLIs.

The hub dataset ``vanyacohen/CaT-Bench`` comes from a datasets cache seeded offline with the real
validation split in the hub's serialisation (one row per step pair), laid out as an online load
leaves it (``<cache>/vanyacohen___ca_t-bench/default/0.0.0/<revision>/``), so
``datasets.load_dataset("vanyacohen/CaT-Bench")`` resolves it exactly as it resolves a cached
download (datasets' CachedDatasetModuleFactory). The hub route is checked on ``catbench_switched`` (every other task
reads its data through the same loader: the self-consistency votes against sklearn on the validation split, in both
harnesses, in tests/e2e/test_catbench_cli.py)."""

import glob
import json
import shutil
from pathlib import Path

import pytest

from temporal_bench.catbench.fixtures import hf_rows, write_fixture
from temporal_bench.catbench.record_reader import RELEASE_FINGERPRINTS
from temporal_bench.lmms_eval_tasks.catbench.questions import questions_of_rows, with_switched_twins
from temporal_bench.paths import LMMS_EVAL_TASK_DIR
from temporal_bench.runs.logged import find_runs
from tests.e2e.test_catbench_cli import (
    CLASSIFICATION,
    VALIDATION,
    _plain_parse,
    all_metrics,
    expected_metrics,
    scripted_response,
    write_variants,
)
from tests.harness import lm_eval, lmms_eval, metric
from tests.task_docs import catbench_split as load_split

REVISION = "0123456789abcdef0123456789abcdef01234567"
SC_SETTINGS = {"catbench_sc": (3, 0.6), "catbench_sc_t08": (3, 0.8), "catbench_sc_k5": (5, 0.6), "catbench_sc_k5_t08": (5, 0.8)}
# each setting also with the NonDep-S twins (OCC)
SC_TASKS = {**SC_SETTINGS, **{f"{task}_switched": setting for task, setting in SC_SETTINGS.items()}}


@pytest.fixture(scope="module")
def hub_rows(catbench_val):
    """The validation split as hub rows, in the order the pairs first appear in the release files."""
    pairs = {}
    for q in load_split("validation", catbench_val):
        pairs.setdefault(q["pair_id"], ({"title": q["title"], "steps": q["steps"]}, q["step_a"], q["step_b"], q["dependency"] == "dep"))
    return hf_rows(list(pairs.values()))


@pytest.fixture(scope="module")
def hub_cache(tmp_path_factory, hub_rows):
    """A datasets cache holding ``vanyacohen/CaT-Bench`` (split validation) as the hub's json files load."""
    from datasets.packaged_modules.json.json import Json

    source = tmp_path_factory.mktemp("hub_files") / "val.jsonl"
    source.write_text("".join(json.dumps(row) + "\n" for row in hub_rows))
    build = tmp_path_factory.mktemp("build")
    builder = Json(cache_dir=str(build), dataset_name="ca_t-bench", config_name="default", data_files={"validation": str(source)})
    builder.download_and_prepare()
    cache = tmp_path_factory.mktemp("hf_datasets_cache")
    target = cache / "vanyacohen___ca_t-bench" / "default" / "0.0.0" / REVISION
    target.parent.mkdir(parents=True)
    shutil.move(builder.cache_dir, target)
    return cache


@pytest.fixture(scope="module")
def hub_docs(hub_rows):
    real = questions_of_rows(hub_rows, "validation")
    return {"real": real, "switched": with_switched_twins(real)}


@pytest.fixture(scope="module")
def variants(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hub_variants")
    write_variants(folder, ["catbench_switched"])
    return ["--include_path", str(folder)]


def _script(tmp_path_factory, entries) -> Path:
    path = tmp_path_factory.mktemp("hub_script") / "script.json"
    path.write_text(json.dumps(entries))
    return path


@pytest.fixture(scope="module")
def script(hub_docs):
    return {f"catbench_switched/{i}": scripted_response(d, i) for i, d in enumerate(hub_docs["switched"])}


@pytest.fixture(scope="module")
def lmms_run(tmp_path_factory, hub_cache, script, variants):
    entries = {f"{key.split('/')[0]}_val/{key.split('/')[1]}": value for key, value in script.items()}
    path = _script(tmp_path_factory, entries)
    results = lmms_eval(path.parent, ["catbench_switched_val"], model_args=f"policy=script,script={path}", env={"HF_DATASETS_CACHE": str(hub_cache)}, extra=variants)
    return results, path.parent / "lmms_eval_out"


@pytest.fixture(scope="module")
def lm_eval_run(tmp_path_factory, hub_cache, script):
    path = _script(tmp_path_factory, script)
    output_dir = path.parent / "lm_eval_out"
    results = lm_eval(output_dir, ["catbench_switched"], f"policy=script,script={path}", {"HF_DATASETS_CACHE": str(hub_cache)}, VALIDATION)
    return results, output_dir


def _check(results, output_dir, docs, suffix):
    responses = [scripted_response(d, i) for i, d in enumerate(docs["switched"])]
    expected = expected_metrics(docs["switched"], responses, _plain_parse)
    values = all_metrics(results, output_dir, "catbench_switched" + suffix)
    for name in CLASSIFICATION + ["tc", "occ", "invalid_rate"]:
        assert values[name] == pytest.approx(expected[name], abs=1e-9), name
    assert results["n-samples"]["catbench_switched" + suffix]["effective"] == 1616 + 808
    # the data read is the validation split of the release: its fingerprint is the one recorded for it
    run = find_runs(Path(sorted(glob.glob(str(output_dir / "**" / "*results*.json"), recursive=True))[-1]))[0]
    read = run.data_read("catbench_switched" + suffix)
    assert (read.questions, read.fingerprint, read.synthetic, read.failed) == (1616 + 808, RELEASE_FINGERPRINTS["validation"], False, 0)


def test_lmms_eval_reads_the_hub_dataset(lmms_run, hub_docs, hub_cache):
    results, output_dir = lmms_run
    _check(results, output_dir, hub_docs, "_val")
    config = results["configs"]["catbench_switched_val"]
    assert config["test_split"] == "validation"
    assert config["metadata"] == {"version": 1.0, "switched": True, "close_max_distance": 3}


def test_lm_eval_loads_the_same_hub_dataset(lm_eval_run, hub_docs, hub_cache):
    _check(*lm_eval_run, hub_docs, "")


def test_the_upstream_folder_reads_the_hub_dataset_itself_and_scores_as_this_packages_task(tmp_path, hub_cache, lmms_run):
    """The upstream folder alone (this package's tasks opted out): its ``dataset_path`` loads the hub dataset, and the
    same answers give the same metrics as this package's task of the same name."""
    folder = tmp_path / "upstream_val"
    folder.mkdir()
    (folder / "catbench_switched_val.yaml").write_text(f"include: {LMMS_EVAL_TASK_DIR / 'catbench' / 'catbench_switched.yaml'}\ntask: catbench_switched_val\ntest_split: validation\n")
    script = next(lmms_run[1].parent.glob("script.json"))
    env = {"HF_DATASETS_CACHE": str(hub_cache), "TEMPORAL_BENCH_NO_AUTO_TASKS": "1"}
    results = lmms_eval(tmp_path, ["catbench_switched_val"], model_args=f"policy=script,script={script}", env=env, extra=["--include_path", str(folder)])
    assert results["configs"]["catbench_switched_val"]["dataset_path"] == "vanyacohen/CaT-Bench"
    assert results["results"]["catbench_switched_val"] == lmms_run[0]["results"]["catbench_switched_val"]


@pytest.mark.parametrize("harness", ["lmms-eval", "lm-eval"])
def test_self_consistency_tasks_record_k_and_t(tmp_path, harness):
    """Paper Table 7's four settings; the report labels a run from these recorded values (on the smallest fixture: a
    Dep and a NonDep pair)."""
    env = {"CATBENCH_DATA_DIR": str(write_fixture(tmp_path / "data", n_plans=1, pairs_per_class=1))}
    if harness == "lmms-eval":
        results = lmms_eval(tmp_path, list(SC_TASKS), model_args="policy=constant,response=Yes", env=env)
    else:
        results = lm_eval(tmp_path / "out", list(SC_TASKS), "policy=constant,response=Yes", env)
    for task, (k, temperature) in SC_TASKS.items():
        config = results["configs"][task]
        assert (config["repeats"], config["generation_kwargs"]["temperature"]) == (k, temperature), task
        assert metric(results, task, "recall_dep", "majority_vote") == 1.0
        # the same answer to a NonDep question and to its twin: consistent (undefined without twins)
        assert metric(results, task, "occ", "majority_vote") == (1.0 if task.endswith("_switched") else None), task
