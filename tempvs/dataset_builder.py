"""``temporal-bench build-dataset tempvs``: the TempVS release converted by the task folder's converter
(lmms_eval_tasks/tempvs/tempvs_to_hf.py: the question rows, the images once in ``images.zip``), with its dataset card."""

import hashlib
from pathlib import Path

from temporal_bench import __version__, converted_dataset
from temporal_bench.lmms_eval_tasks.plugin.tempvs.release import HUB_RELEASE, LocalRelease, find_root
from temporal_bench.lmms_eval_tasks.tempvs.spec import MAIN_TESTS, TempVSDataError
from temporal_bench.lmms_eval_tasks.tempvs.tempvs_to_hf import BLIND_MODELS, differences, question_rows, table2_counts, write
from temporal_bench.synthetic_data import is_synthetic, mark_synthetic

RELEASE_ERROR = TempVSDataError  # what build() raises for a release it cannot read (build-dataset reports it in one line)
CARD_BODY = """# TempVS

TempVS (Song et al., "Burn After Reading: Do Multimodal Large Language Models Truly Capture Order of Events in Image
Sequences?", Findings of ACL 2025), converted from the official release ({release_hub}) by `tempvs_to_hf.py` of the
lmms-eval task folder `tempvs`: one row per question, every image once in `images.zip` (the paths the rows name).

Columns: `doc_key` (`<source>/<test>/<question_id>`), `kind` (`main` or `grounding`), `test` (mt1_two, mt1_three,
mt2_event, mt2_caption, mt3_event, mt3_caption; gt_paired, gt_triple, gt_all, gt_all_story), `task_id` (the official
task id), `source` (flintstones, pororo, vwp, vist), `img_seq_id`, `question_id`, `gt_option`, `answer`, `choices`,
`prompt` (as the official inference script builds it), `image` (the combined strip), `option_text`, `statement_type`, `event_distance`, `event_index`, `expected_partners`, `partners` (the
question ids of a main question's grounding questions, as the official evaluation joins them) and `blind_correct`
(how many of {blind} answered the question correctly; the text-only-LLM filter drops a question that two or more
answered correctly; -1 where no filter applies). Rows with an invalid event (the official invalid-event filter) are
left out.

## Licence

The licence of the original release applies ({release_hub}); this conversion adds no terms.
"""


def fingerprint(paths) -> str:
    """The first 12 hex digits of a SHA-256 over the files' names and contents, in name order."""
    digest = hashlib.sha256()
    for path in sorted(Path(p) for p in paths):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


def build(release: Path, output: Path, command: str) -> dict[str, str]:
    """Write the converted dataset of the release in ``release`` under ``output``; what it wrote -> its contents."""
    root = find_root(Path(release))
    rows = question_rows(LocalRelease(root), list(MAIN_TESTS))  # the converter's rows, read from the pickles or their JSON twins
    images = write(rows, root, output)
    differs = differences(table2_counts(rows))
    files = sorted((root / "benchmark_pkl").glob("*.pkl")) or sorted((root / "benchmark").glob("*"))
    provenance = {
        "source release": f"local folder {root}",
        "release annotations fingerprint": f"{fingerprint(files)} (SHA-256 of the {len(files)} annotation files)",
        "command": command,
        "converter": f"lmms-eval-temporal-bench {__version__}, lmms_eval_tasks/tempvs/tempvs_to_hf.py",
        "synthetic": "yes (generated test data, not the release)" if is_synthetic(root) else "no",
        "Table 2's counts": f"{len(differs)} differ ({'; '.join(differs[:3])}{' ...' if len(differs) > 3 else ''})" if differs else "all equal",
    }
    body = CARD_BODY.format(release_hub=f"https://huggingface.co/datasets/{HUB_RELEASE}", blind=", ".join(model for model, _, _ in BLIND_MODELS))
    header = {"license": "other", "pretty_name": "TempVS", "task_categories": ["visual-question-answering"], "language": ["en"]}
    configs = {"default": f"{len(rows)} questions; {images} images in images.zip"}
    converted_dataset.write_card(output, header, configs, body + "\n" + converted_dataset.provenance_section(provenance))
    if is_synthetic(root):
        mark_synthetic(output, "TempVS")
    return {"data": f"{len(rows)} questions (Table 2's counts: {f'{len(differs)} differ' if differs else 'all equal'})", "images.zip": f"{images} images, each once"}
