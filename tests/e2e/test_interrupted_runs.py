"""lmms-eval's response cache (--use_cache) with our tasks: a run that dies midway loses nothing and duplicates nothing
when rerun, and a finished run's answers are served from the cache; for CaT-Bench and for ``--tasks tempvs`` (one task
asking each distinct TempVS question once), both in each run."""

import json

from temporal_bench.catbench.fixtures import write_fixture
from tests.e2e.test_tempvs_suite import DISTINCT
from tests.harness import BIN, lmms_eval, metric, run_cli
from tests.task_docs import catbench_split as load_split
from tests.task_docs import task_docs
from tests.tempvs_fixture_copies import write_tempvs
from tests.unit.test_tempvs_metrics import mixed_response

TASKS = ["catbench", "tempvs"]
CRASH_AT = {"catbench": 20, "tempvs": 200}  # the crashing model's script ends at these docs


def _script(path, docs, respond, crash=False):
    """``respond(task, i, doc)`` for every doc of :data:`TASKS` (``crash``: none from :data:`CRASH_AT` on for CaT-Bench, and
    none for that one TempVS doc)."""
    entries = {f"{task}/{i}": respond(task, i, doc) for task in TASKS for i, doc in enumerate(docs[task])}
    if crash:
        entries = {key: value for key, value in entries.items() if not (key == f"tempvs/{CRASH_AT['tempvs']}" or key.startswith("catbench/") and int(key.split("/")[1]) >= CRASH_AT["catbench"])}
    path.write_text(json.dumps(entries))
    return path


def answers(task, i, doc):
    return ("Yes" if i % 3 else "No") if task == "catbench" else mixed_response(doc)


def test_interrupted_run_resumes_without_lost_or_duplicated_samples(tmp_path):
    env = {"CATBENCH_DATA_DIR": str(write_fixture(tmp_path / "catbench")), "TEMPVS_DATA_DIR": str(write_tempvs(tmp_path / "tempvs"))}
    docs = {"catbench": load_split("test", env["CATBENCH_DATA_DIR"]), "tempvs": task_docs("tempvs", env["TEMPVS_DATA_DIR"])}
    n = len(docs["catbench"])
    cache = tmp_path / "cache"

    # 1. The model dies midway (its script ends there): no results file, whatever the exit code.
    crashing = _script(tmp_path / "crash.json", docs, answers, crash=True)
    out = tmp_path / "crashed"
    out.mkdir()
    command = [str(BIN / "lmms-eval"), "--model", "scripted", "--model_args", f"policy=script,script={crashing}", "--tasks", ",".join(TASKS), "--output_path", str(out), "--use_cache", str(cache)]
    log = run_cli(command, out, env)
    assert not list(out.glob("**/*_results.json")), log.stderr[-2000:]

    # 2. The rerun with a working model gives what an uninterrupted run gives, over every doc once (TempVS: each
    #    distinct question once).
    full = _script(tmp_path / "full.json", docs, answers)
    args = f"policy=script,script={full}"
    resumed = lmms_eval(tmp_path / "resumed", TASKS, model_args=args, env=env, extra=["--use_cache", str(cache)])
    reference = lmms_eval(tmp_path / "reference", TASKS, model_args=args, env=env)
    assert resumed["results"] == reference["results"]
    assert resumed["n-samples"]["catbench"] == {"original": n, "effective": n}
    assert resumed["n-samples"]["tempvs"]["effective"] == DISTINCT

    # 3. A finished run's answers now come from the cache: the same model (same arguments) whose script now says
    #    otherwise is not asked again.
    _script(full, docs, lambda task, i, doc: "Yes" if task == "catbench" else "I cannot tell.")
    cached = lmms_eval(tmp_path / "cached", TASKS, model_args=args, env=env, extra=["--use_cache", str(cache)])
    assert cached["results"] == reference["results"]
    uncached = lmms_eval(tmp_path / "uncached", ["catbench"], model_args=args, env=env)  # the script's new answers do change the scores
    assert metric(uncached, "catbench", "f1_macro") == 1 / 3 != metric(reference, "catbench", "f1_macro")
