"""What a new user meets when a command is given the wrong thing: each a message naming the file or folder and the
fix, and a non-zero exit status (docs/cli.md)."""

from PIL import Image

from tests.cli import temporal_bench


def test_report_on_an_image_names_the_file(tmp_path):
    png = tmp_path / "figure.png"
    Image.new("RGB", (4, 4)).save(png)
    log = temporal_bench("report", png, cwd=tmp_path)
    assert log.returncode != 0 and f"{png}: not a readable results JSON file" in log.stderr, log.stderr
    assert "Traceback" not in log.stderr


def test_compare_with_an_empty_folder_says_there_is_no_run_there(recorded, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    log = temporal_bench("compare", empty, recorded("catbench_complete").out, cwd=tmp_path)
    assert log.returncode != 0 and f"{empty}: no lmms-eval or lm-eval results file of a model's run here: give the --output_path folder of a run made with --log_samples" in log.stderr


def test_the_program_s_help_names_where_every_option_is_described_beyond_the_installed_package(capsys, tmp_path):
    log = temporal_bench("--help", cwd=tmp_path)
    assert "COMMAND --help shows a command's options and an example (docs/cli.md of the source repository describes them all)" in " ".join(log.stdout.split())


def test_the_demo_ends_saying_what_to_do_with_one_s_own_data():
    """The demo's closing lines: how to point a benchmark at its real data and evaluate a model (the demo's own output is
    checked whole by tests/e2e/test_documented_demo.py)."""
    from temporal_bench.demo import NEXT_STEPS

    assert "TEMPVS_DATA_DIR=/data/TempVS lmms-eval --model qwen2_5_vl" in NEXT_STEPS and "temporal-bench check out && temporal-bench report out" in NEXT_STEPS


def test_a_person_watching_sees_each_slow_step_and_a_script_sees_none(recorded, tmp_path, monkeypatch):
    """check, report and compare say each step that can take seconds at full size on standard error in a terminal, and
    nothing there when their output goes to a file or a script (its exit status and problems are what it reads)."""
    from temporal_bench import cli_style

    run = recorded("catbench_complete")
    quiet = temporal_bench("check", run.out, cwd=tmp_path)
    assert quiet.returncode == 0 and quiet.stderr == ""
    monkeypatch.setattr(cli_style, "watched", lambda: True)  # a terminal
    for command, step in ((["check", run.out], "check: reading"), (["report", run.out], "report: computing"), (["compare", run.out, run.out], "compare: comparing the runs")):
        log = temporal_bench(*command, cwd=tmp_path)
        assert f"temporal-bench {step}" in log.stderr, (command, log.stderr)
