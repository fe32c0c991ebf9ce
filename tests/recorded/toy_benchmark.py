"""The runs of the toy fourth benchmark (tests/toy_benchmark/, tests/tooling/test_toy_benchmark.py): its task folder
given to lmms-eval with --include_path, the scripted model answering every question right, and every one wrong."""

from tests.recorded import recording

TASK = "toy_order"


def toy_run(recorder, policy: str):
    from tests.toy_benchmark.paper import TASK_FOLDER

    recorder.lmms_eval([TASK], model_args=f"policy={policy}", extra=["--include_path", str(TASK_FOLDER)])


@recording("toy_oracle")
def oracle(recorder):
    """Every answer right."""
    toy_run(recorder, "oracle")


@recording("toy_wrong")
def wrong(recorder):
    """Every answer wrong."""
    toy_run(recorder, "wrong")
