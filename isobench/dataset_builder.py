"""``temporal-bench build-dataset isobench``: an ISO-Bench release converted by the task folder's converter
(lmms_eval_tasks/isobench/isobench_to_hf.py: the normalised examples, each image embedded once), as the converter run
alone converts it (the same rows), with its dataset card."""

from pathlib import Path

from temporal_bench import __version__, converted_dataset
from temporal_bench.lmms_eval_tasks.isobench.isobench_to_hf import IsoBenchDataError, convert, differences, release_counts
from temporal_bench.lmms_eval_tasks.plugin.isobench.release import HUB_ID
from temporal_bench.synthetic_data import is_synthetic, mark_synthetic

RELEASE_ERROR = IsoBenchDataError  # what build() raises for a release it cannot read (build-dataset reports it in one line)
CARD_BODY = """# ISO-Bench

ISO-Bench (Image-State Ordering Benchmark; Sadana, Lal and Zhou, arXiv 2507.23135), converted from a copy of the official
release ({release_hub}) by `isobench_to_hf.py` of the lmms-eval task folder `isobench`: one row per example, its
image embedded.

Columns: `id`, `goal`, `snippet_steps` (the plan snippet, one step per item), `relation` (before/after), `anchor`
(first/last: the snippet step the question names), `question`, `label` and `answer` (yes = the pictured step must
come before/after, DEP; no = NONDEP), `choices`, `source` (youcook2, crosstask), `plan_id` (the video or plan the
example comes from), `image_step_idx`, `snippet_step_idxs` and `image`.

## Licence

The licence of the original release applies ({release_hub}); this conversion adds no terms.
"""


def build(release: Path, output: Path, command: str) -> dict[str, str]:
    """Write the converted dataset of the release folder ``release`` under ``output``; what it wrote -> its contents."""
    rows = convert(Path(release), output)
    differs = differences(release_counts(rows))
    provenance = {
        "source release": f"local folder {Path(release).resolve()}",
        "command": command,
        "converter": f"lmms-eval-temporal-bench {__version__}, lmms_eval_tasks/isobench/isobench_to_hf.py",
        "synthetic": "yes (generated test data, not the release)" if is_synthetic(release) else "no",
        "the paper's counts": f"{len(differs)} differ ({'; '.join(differs[:3])}{' ...' if len(differs) > 3 else ''})" if differs else "all equal",
    }
    body = CARD_BODY.format(release_hub=f"https://huggingface.co/datasets/{HUB_ID}")
    header = {"license": "other", "pretty_name": "ISO-Bench", "task_categories": ["visual-question-answering"], "language": ["en"]}
    converted_dataset.write_card(output, header, {"default": f"{len(rows)} examples"}, body + "\n" + converted_dataset.provenance_section(provenance))
    if is_synthetic(release):
        mark_synthetic(output, "ISO-Bench")
    return {"data": f"{len(rows)} examples, each with its image (the paper's counts: {f'{len(differs)} differ' if differs else 'all equal'})"}
