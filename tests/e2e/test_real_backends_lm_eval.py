"""lm-eval's own ``hf`` class (text LLMs) on CaT-Bench with a tiny random Qwen2, through the real CLI."""

import glob
import json
from pathlib import Path

from temporal_bench.runs.records import doc_record
from tests.harness import BIN, metric, read_results, run_cli


def test_lm_eval_hf_backend_runs_catbench_with_the_chat_template(tmp_path):
    """lm-eval's own ``hf`` class (text LLMs) on a tiny random Qwen2: chat-formatted full prompt,
    greedy decoding with the task's 2-token budget, answers parsed into the per-doc values."""
    from temporal_bench.catbench.fixtures import write_fixture
    from temporal_bench.lmms_eval_tasks.catbench.parsing import parse_answer_only
    from temporal_bench.paths import LM_EVAL_TASK_DIR
    from tests.real_backends.checkpoints import build_qwen2_text

    checkpoint = build_qwen2_text(tmp_path / "qwen2_text")
    data = write_fixture(tmp_path / "catbench")
    out = tmp_path / "lm_eval_out"
    out.mkdir()
    command = [
        str(BIN / "lm-eval"),
        "run",
        "--model",
        "hf",
        "--model_args",
        f"pretrained={checkpoint}",
        "--device",
        "cpu",
        "--apply_chat_template",
        "--tasks",
        "catbench",
        "--include_path",
        str(LM_EVAL_TASK_DIR),
        "--limit",
        "4",
        "--output_path",
        str(out),
        "--log_samples",
    ]
    log = run_cli(command, out, env={"CATBENCH_DATA_DIR": str(data), "OMP_NUM_THREADS": "1"})
    results = read_results(out, ["catbench"], log)
    (samples_file,) = glob.glob(str(out / "**" / "samples_catbench_*.jsonl"), recursive=True)
    samples = [json.loads(line) for line in Path(samples_file).read_text(encoding="utf-8").splitlines()]
    assert len(samples) == 4
    for sample in samples:
        prompt, gen_args = sample["arguments"]["gen_args_0"]["arg_0"], sample["arguments"]["gen_args_0"]["arg_1"]
        assert gen_args == {"until": [], "max_gen_toks": 2, "temperature": 0.0, "do_sample": False}
        assert prompt.startswith("<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n<|im_start|>user\nGiven a goal")
        assert prompt.endswith("Select between yes or no\n\n<|im_end|>\n<|im_start|>assistant\n")
        (response,) = sample["resps"][0]
        assert doc_record(sample)["pred"] == parse_answer_only(response)
    assert metric(results, "catbench", "invalid_count") == sum(doc_record(s)["pred"] == "invalid" for s in samples)
