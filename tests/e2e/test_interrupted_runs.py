"""lmms-eval's response cache (--use_cache) with our tasks: a run that dies midway loses nothing
and duplicates nothing when rerun, and a finished run's answers are served from the cache."""

import json

from temporal_bench.catbench.fixtures import write_fixture
from tests.harness import BIN, lmms_eval, metric, run_cli
from tests.task_docs import catbench_split as load_split

TASK = "catbench"


def _script(path, n, answer_for, stop_at=None):
    entries = {f"{TASK}/{i}": answer_for(i) for i in range(n) if stop_at is None or i < stop_at}
    path.write_text(json.dumps(entries))
    return path


def test_interrupted_run_resumes_without_lost_or_duplicated_samples(tmp_path):
    root = write_fixture(tmp_path / "data")
    env = {"CATBENCH_DATA_DIR": str(root)}
    n = len(load_split("test", root))
    cache = tmp_path / "cache"
    answers = lambda i: "Yes" if i % 3 else "No"  # noqa: E731

    # 1. The model dies at doc 20 (its script ends there): no results file, whatever the exit code.
    crashing = _script(tmp_path / "crash.json", n, answers, stop_at=20)
    out = tmp_path / "crashed"
    out.mkdir()
    command = [str(BIN / "lmms-eval"), "--model", "scripted", "--model_args", f"policy=script,script={crashing}", "--tasks", TASK, "--output_path", str(out), "--use_cache", str(cache)]
    log = run_cli(command, out, env)
    assert not list(out.glob("**/*_results.json")), log.stderr[-2000:]

    # 2. The rerun with a working model gives what an uninterrupted run gives, over every doc once.
    full = _script(tmp_path / "full.json", n, answers)
    resumed = lmms_eval(tmp_path / "resumed", [TASK], model_args=f"policy=script,script={full}", env=env, extra=["--use_cache", str(cache)])
    reference = lmms_eval(tmp_path / "reference", [TASK], model_args=f"policy=script,script={full}", env=env)
    assert resumed["results"] == reference["results"]
    assert resumed["n-samples"][TASK] == {"original": n, "effective": n}

    # 3. A finished run's answers now come from the cache: the same model (same arguments) whose script
    #    now says otherwise is not asked again.
    _script(full, n, lambda i: "Yes")
    cached = lmms_eval(tmp_path / "cached", [TASK], model_args=f"policy=script,script={full}", env=env, extra=["--use_cache", str(cache)])
    assert cached["results"] == reference["results"]
    uncached = lmms_eval(tmp_path / "uncached", [TASK], model_args=f"policy=script,script={full}", env=env)
    assert metric(uncached, TASK, "f1_macro") == 1 / 3 != metric(reference, TASK, "f1_macro")
