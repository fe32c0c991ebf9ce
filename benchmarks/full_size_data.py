"""Synthetic benchmarks at the papers' full size, written once into a work folder.

Each generator returns the environment variables that point the tasks at its data; a folder that
already holds complete data is reused. ``python benchmarks/full_size_data.py tempvs`` writes (or
finds) the data and prints its counts. ``--fraction`` writes a share of the size instead (its own folder,
``tempvs_0.01``), for the suite's smoke runs of the scripts (tests/e2e/test_benchmark_scripts.py).
"""

import argparse
import ast
import json
import random
from collections.abc import Callable, Iterable
from pathlib import Path

from temporal_bench.catbench.fixtures import synthetic_pairs, write_release_split
from temporal_bench.isobench.fixtures import write_fixture as write_isobench
from temporal_bench.lmms_eval_tasks.tempvs.spec import GROUNDING_TESTS, MAIN_TESTS, SOURCES
from temporal_bench.lmms_eval_tasks.tempvs.tempvs_to_hf import BLIND_MODELS, file_of
from temporal_bench.tempvs import fixtures as tempvs_fixtures
from temporal_bench.tempvs.record_reader import TABLE2_COUNTS


def scaled(count: int, fraction: float, smallest: int = 1) -> int:
    return max(smallest, round(count * fraction))


def catbench(root: Path, fraction: float = 1.0) -> dict[str, str]:
    """The test split's size: 1,420 step pairs = 2,840 questions (+1,420 NonDep-S twins)."""
    split = root / "test_must_why"
    if not split.is_dir():
        write_release_split(split, synthetic_pairs("test", n_plans=scaled(71, fraction), pairs_per_class=10))
    return {"CATBENCH_DATA_DIR": str(root)}


def isobench(root: Path, fraction: float = 1.0) -> dict[str, str]:
    """764 rows with the paper's Table 2 counts (json + image files)."""
    if not (root / "isobench.json").is_file():
        write_isobench(root, layout="json", n=scaled(764, fraction, smallest=8))
    return {"ISOBENCH_DATA_DIR": str(root)}


# ---- TempVS -------------------------------------------------------------------------------------

# Image sequences per source after the paper's last filter (Table 9; = MT3 questions, Table 2).
TEMPVS_SEQUENCES = {"flintstones": 565, "pororo": 395, "vwp": 316, "vist": 809}
# Native frame sizes (w, h). FlintstonesSV ships 128 x 128 frame arrays; PororoSV frames are taken
# as 128 x 128 too (StoryGAN's frame size); VWP shots as 16:9 movie key frames of 640 x 360; VIST
# as Flickr 500 x 375 photos (the strips resize VIST frames to 443 x 240, docs/protocol/tempvs.md §5). The
# resulting 5-frame strips: 700 x 178 (FlintstonesSV, PororoSV), 3,260 x 410 (VWP), 2,275 x 290 (VIST).
TEMPVS_FRAME_SIZES = {"flintstones": (128, 128), "pororo": (128, 128), "vwp": (640, 360), "vist": (500, 375)}
# The 61 VWP sequences longer than 5 frames (paper §3); how they split over 6-9 frames is assumed.
TEMPVS_VWP_LONG = {6: 25, 7: 18, 8: 11, 9: 7}
TEMPVS_COUNTS_FILE = "counts.json"  # written last: its presence marks a complete release


def _spread(total: int, slots: int) -> list[int]:
    """``total`` split over ``slots`` as evenly as possible, e.g. 7 over 3 -> [2, 2, 3]."""
    return [(q + 1) * total // slots - q * total // slots for q in range(slots)]


def _vwp_lengths() -> tuple[int, ...]:
    """316 VWP sequence lengths: 5 frames, with the longer sequences spread evenly."""
    longer = [length for length, count in sorted(TEMPVS_VWP_LONG.items()) for _ in range(count)]
    lengths = [5] * TEMPVS_SEQUENCES["vwp"]
    for i, length in enumerate(longer):
        lengths[i * len(lengths) // len(longer)] = length
    return tuple(lengths)


def _keep_mt1_groups(rows: list[dict], n_sequences: int, kept_groups: int) -> list[dict]:
    """The fixture writes every event pair (triple) of its list for every sequence, a true and a false
    statement each; keep ``kept_groups`` of them, spread over the sequences and rotating which of a
    sequence's groups survive, so every statement type and event distance occurs."""
    width = len(rows) // n_sequences
    groups = width // 2
    kept: list[dict] = []
    for q, count in enumerate(_spread(kept_groups, n_sequences)):
        for group in sorted((q + j) % groups for j in range(count)):
            kept += rows[q * width + 2 * group : q * width + 2 * group + 2]
    return kept


def _event_tuple(row: dict) -> tuple[int, ...]:
    return ast.literal_eval(row.get("event_pair_tuple") or row["event_triple_tuple"])


def _grounding_for(mt1_rows: list[dict], grounding_rows: list[dict]) -> list[dict]:
    """One grounding row per (sequence, event) that a kept MT1 statement tests, as in the release."""
    tested = {(row["img_seq_id"], event) for row in mt1_rows for event in _event_tuple(row)}
    return [row for row in grounding_rows if (row["img_seq_id"], int(row["gt_option"].split()[-1]) - 1) in tested]


def _blind_solved(source: str, task_id: str, rows: list[dict]) -> set[str]:
    """Question ids that >= 2 of the 3 text-only LLMs answer correctly (the blind filter drops them).
    MT2: as many as Table 2 lost to the filter (e.g. FlintstonesSV events: 565 rows, 501 kept). MT1,
    whose Table 2 counts are before the filter: half, the chance level of three True/False guessers."""
    kept = TABLE2_COUNTS[task_id][source] * len(rows) // TEMPVS_SEQUENCES[source] if task_id.startswith("ordering_texts") else len(rows) // 2
    ids = [row["question_id"] for row in rows]
    return set(random.Random(f"{source}|{task_id}").sample(ids, len(rows) - kept))


def _write_blind_predictions(root: Path, source: str, task_id: str, rows: list[dict]) -> int:
    """The three LLMs' prediction files for one main task; returns the rows the filter keeps."""
    solved = _blind_solved(source, task_id, rows)
    rng = random.Random(f"{source}|{task_id}|outcomes")
    outcomes = []
    for row in rows:
        right = rng.sample(range(3), rng.choice((2, 3)) if row["question_id"] in solved else rng.choice((0, 1)))
        outcomes.append([model in right for model in range(3)])
    for model, (name, suffix, _) in enumerate(BLIND_MODELS):
        preds = [tempvs_fixtures.blind_pred(row, task_id, model, outcome[model]) for row, outcome in zip(rows, outcomes)]
        path = root / "predictions" / "blind" / name / f"{source}_{task_id}_preds_{suffix}.pkl"
        tempvs_fixtures.write_table(rows, path, None, preds)
    return len(rows) - len(solved)


def _write_tempvs_source(root: Path, source: str, templates, fraction: float) -> dict:
    """One source's frames, strips, 7 annotation files and blind predictions (built with the test
    fixture's row and image writers); returns its counts. A ``fraction`` of the sequences keeps the counts' ratios."""
    n = scaled(TEMPVS_SEQUENCES[source], fraction)
    kept_groups = lambda file: max(1, TABLE2_COUNTS[file][source] * n // TEMPVS_SEQUENCES[source] // 2)  # noqa: E731
    sequences = [tempvs_fixtures.sequence_record(source, q, invalid_events=False, vwp_lengths=_vwp_lengths()) for q in range(n)]
    shuffles = [tempvs_fixtures.shuffled_order(len(sequence["events"]), seed=q) for q, sequence in enumerate(sequences)]
    paths = [tempvs_fixtures.write_images(root, sequence, order, TEMPVS_FRAME_SIZES[source]) for sequence, order in zip(sequences, shuffles)]
    paired = _keep_mt1_groups(tempvs_fixtures.mt1_rows(sequences, paths, templates, triple=False), n, kept_groups("paired_event_discrimination"))
    triple = _keep_mt1_groups(tempvs_fixtures.mt1_rows(sequences, paths, templates, triple=True), n, kept_groups("triple_event_discrimination"))
    grounding = {which: tempvs_fixtures.grounding_rows(sequences, paths, templates, which, []) for which in ("paired", "triple", "all")}
    files = {
        "paired_event_discrimination": paired,
        "triple_event_discrimination": triple,
        "ordering_texts": tempvs_fixtures.ordering_rows(sequences, paths, shuffles, templates, images_task=False),
        "ordering_images": tempvs_fixtures.ordering_rows(sequences, paths, shuffles, templates, images_task=True),
        "single_grounding_paired": _grounding_for(paired, grounding["paired"]),
        "single_grounding_triple": _grounding_for(triple, grounding["triple"]),
        "single_grounding_all": grounding["all"],
    }
    for name, rows in files.items():
        tempvs_fixtures.write_table(rows, root / "benchmark_pkl" / f"{source}_{name}_test.pkl", root / "benchmark" / f"{source}_{name}_test.json")
    kept = {spec.task_id: _write_blind_predictions(root, source, spec.task_id, files[file_of(spec.task_id)]) for spec in MAIN_TESTS.values() if spec.blind_filtered}
    return {"sequences": n, "frames": sum(len(sequence["events"]) for sequence in sequences), "rows": {name: len(rows) for name, rows in files.items()}, "kept_after_blind_filter": kept}


def tempvs(root: Path, fraction: float = 1.0) -> dict[str, str]:
    """The paper's full size in the released layout (docs/protocol/tempvs.md §2-§5): 2,085 image sequences, the
    Table 2 question counts, grounding files, blind predictions, strips at native frame sizes."""
    if not (root / TEMPVS_COUNTS_FILE).is_file():
        templates = tempvs_fixtures.Templates(tempvs_fixtures.templates_path())
        counts = {source: _write_tempvs_source(root, source, templates, fraction) for source in SOURCES}
        (root / TEMPVS_COUNTS_FILE).write_text(json.dumps(counts, indent=1))
    print_tempvs_counts(tempvs_counts(root))
    return {"TEMPVS_DATA_DIR": str(root)}


def tempvs_counts(root: Path) -> dict:
    return json.loads((root / TEMPVS_COUNTS_FILE).read_text())


# which Table 2 column an annotation file's row count is compared with
_TABLE2_OF_FILE = {"paired_event_discrimination": "paired_event_discrimination", "triple_event_discrimination": "triple_event_discrimination", "ordering_images": "ordering_images_opt_event"}


def print_tempvs_counts(counts: dict) -> None:
    """Rows per source and annotation file, and the main questions the blind filter keeps, each with
    the paper's figure in brackets where Table 2 / Table 9 has one."""
    lines = [("image sequences", lambda c: c["sequences"], TEMPVS_SEQUENCES.get), ("frames", lambda c: c["frames"], lambda source: None)]
    for name in counts[SOURCES[0]]["rows"]:
        paper = TABLE2_COUNTS.get(_TABLE2_OF_FILE.get(name), {})
        lines.append((f"{name} rows", lambda c, name=name: c["rows"][name], paper.get))
    for task_id in counts[SOURCES[0]]["kept_after_blind_filter"]:
        paper = TABLE2_COUNTS[task_id] if task_id.startswith("ordering_texts") else {}
        lines.append((f"{task_id} after blind filter", lambda c, t=task_id: c["kept_after_blind_filter"][t], paper.get))
    print("TempVS synthetic release: ours (paper Table 2 / 9); 2 strips per sequence (combined/, combined_shuffled/)")
    print("| | " + " | ".join(SOURCES) + " | total |")
    print("|---" * (len(SOURCES) + 2) + "|")
    for label, value, paper in lines:
        cells = [f"{value(counts[s])}" + (f" ({paper(s)})" if paper(s) is not None else "") for s in SOURCES]
        total = sum(value(counts[s]) for s in SOURCES)
        papers = [paper(s) for s in SOURCES]
        total_cell = f"{total}" + (f" ({sum(papers)})" if None not in papers else "")
        print(f"| {label} | " + " | ".join(cells) + f" | {total_cell} |")
    print("(paper: 9,803 images in all; sequences sharing no frame, 2,085 of 5 or more frames hold at least 10,425)")


def tempvs_protocol_requests(root: Path) -> dict[str, dict]:
    """Per main task, the questions the official protocol asks after the filters: ``main`` (rows the
    blind filter keeps for MT1/MT2, every row for MT3) and ``grounding`` (every row of its grounding
    test ``grounding_test``; the synthetic release has no invalid events)."""
    counts = tempvs_counts(root)
    requests = {}
    for name, spec in MAIN_TESTS.items():
        main = sum(counts[s]["kept_after_blind_filter"][spec.task_id] if spec.blind_filtered else counts[s]["rows"][file_of(spec.task_id)] for s in SOURCES)
        grounding = sum(counts[s]["rows"][file_of(GROUNDING_TESTS[spec.grounding_test])] for s in SOURCES)
        requests[f"tempvs_{name}"] = {"main": main, "grounding": grounding, "grounding_test": GROUNDING_TESTS[spec.grounding_test]}
    return requests


GENERATORS: dict[str, Callable[[Path, float], dict[str, str]]] = {"catbench": catbench, "isobench": isobench, "tempvs": tempvs}
TASK_BENCHMARK = {
    "catbench": "catbench",
    "catbench_switched": "catbench",
    "isobench": "isobench",
    "isobench_cot": "isobench",
    **{f"tempvs_{name}": "tempvs" for name in MAIN_TESTS},
    "tempvs_ordering_event": "tempvs",
    "tempvs_ordering_caption": "tempvs",
    "tempvs": "tempvs",
    "tempvs_protocol": "tempvs",
}


def data_folder(workdir: Path, benchmark: str, fraction: float = 1.0) -> Path:
    """Where a benchmark's data of that size lies: ``tempvs`` at full size, ``tempvs_0.01`` for a hundredth."""
    return workdir / (benchmark if fraction == 1 else f"{benchmark}_{fraction:g}")


def data_env(workdir: Path, benchmarks: Iterable[str], fraction: float = 1.0) -> dict[str, str]:
    """The data variables of ``benchmarks`` at that size, the data written where it is missing."""
    return {name: value for benchmark in benchmarks for name, value in GENERATORS[benchmark](data_folder(workdir, benchmark, fraction), fraction).items()}


def add_data_options(parser: argparse.ArgumentParser) -> None:
    """``--workdir`` and ``--fraction``, as every script that reads the generated data takes them."""
    parser.add_argument("--workdir", type=Path, default=Path(__file__).resolve().parent / ".data", help="where the generated data is (or is written)")
    parser.add_argument("--fraction", type=float, default=1.0, help="a share of the full size (the suite's smoke runs: 0.01)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("benchmarks", nargs="+", choices=sorted(GENERATORS))
    add_data_options(parser)
    args = parser.parse_args(argv)
    for benchmark in args.benchmarks:
        print(benchmark, data_env(args.workdir, [benchmark], args.fraction))


if __name__ == "__main__":
    main()
