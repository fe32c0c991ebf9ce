"""What the API and server backend tests share: the environment and command of an lmms-eval run,
the scripted answers of the mock server and stand-in engines, and the metrics those answers give."""

from tests.api_backends.tasks import LIMIT, TASKS
from tests.harness import BIN, read_results, run_cli

MOCK_MODEL = "mock-model"
UNPARSEABLE = "Maybe"  # the scripted answer of each yes/no task's first doc


def api_env(url: str) -> dict[str, str]:
    """Dummy key; the base URL where each class reads it (gpt4v: the OpenAI client's own variable)."""
    return {"OPENAI_API_KEY": "dummy-key", "OPENAI_API_BASE": url, "OPENAI_BASE_URL": url}


def api_run(root, model: str, model_args: str, extra, env: dict[str, str], tasks=TASKS, limit: int = LIMIT):
    out = root / "lmms_eval_out"
    command = [str(BIN / "lmms-eval"), "--model", model, "--model_args", model_args, "--tasks", ",".join(tasks), "--limit", str(limit), "--output_path", str(out), "--log_samples", *extra]
    log = run_cli(command, root, env)
    return read_results(out, tasks, log), log


def check_output(root) -> str:
    """What ``temporal-bench check`` prints about the run of :func:`api_run` (its protocol warnings among it)."""
    from tests.cli import temporal_bench

    log = temporal_bench("check", root / "lmms_eval_out", cwd=root)
    return log.stdout + log.stderr


def oracle_text(request) -> str:
    gold = request.gold
    if request.task == "isobench":
        return gold.upper()
    return gold.capitalize() if gold in ("yes", "no") else gold


def answer_script(request):
    """Correct answers, except an unparseable one for the first doc of catbench and isobench, and for
    catbench_sc the samples right, wrong, right (the vote is right)."""
    if request.task in ("catbench", "isobench") and request.doc_id == 0:
        return UNPARSEABLE
    if request.task == "catbench_sc":
        wrong = "No" if request.gold == "yes" else "Yes"
        return [oracle_text(request), wrong, oracle_text(request)]
    return oracle_text(request)


def check_scripted_metrics(results: dict, expected) -> None:
    """The metrics ``answer_script`` must give over the ``expected`` requests of a run."""
    n = {task: sum(item.task == task for item in expected) for task in TASKS}
    catbench = results["catbench"]
    assert catbench["accuracy,none"] == (n["catbench"] - 1) / n["catbench"]
    assert (catbench["invalid_count,none"], catbench["failed_count,none"]) == (1, 0)
    sc = results["catbench_sc"]
    assert (sc["accuracy,majority_vote"], sc["invalid_count,majority_vote"], sc["failed_count,majority_vote"]) == (1.0, 0, 0)
    iso = results["isobench"]
    # every parsed answer right: weighted F1 1 on the parsed answers, the unparsed one outside coverage
    assert (iso["coverage,none"], iso["f1_weighted,none"], iso["failed_count,none"]) == ((n["isobench"] - 1) / n["isobench"], 1.0, 0)
    for task in ("tempvs_mt1_two", "tempvs_mt3_event_separate"):
        tempvs = results[task]
        assert (tempvs["gt_acc,none"], tempvs["mt_acc,none"], tempvs["invalid_rate,none"], tempvs["failed_count,none"]) == (1.0, 1.0, 0.0, 0)
        assert tempvs["main_count,none"] >= 1 and tempvs["grounding_count,none"] >= 1
