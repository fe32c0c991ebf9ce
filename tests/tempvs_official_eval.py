"""An independent re-computation of the released TempVS evaluation (docs/protocol/tempvs.md §6-§7), written
from that description in the original script's pandas style and sharing no code with the package:
``str.extract`` first matches after the model family's preprocessing, the blind filter aligned by
DataFrame index label, ``eval`` on the event tuples, ``gt_passes`` as the script builds it, counts
summed over the sources. GT (overall), which the script does not compute, is the pass rate over
the grounding file's rows after the invalid-event filter, pooled over the sources."""

import re
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

import pandas

OFFICIAL_SOURCES = ["flintstones", "pororo", "vwp", "vist"]
BANNED = ["NO_EVENT", "No_Event", "no_event", "NO_Event", "good time", "great time", "wonderful time", "have fun", "had fun"]
BLIND = [("Llama-3.1-8B", "full"), ("Phi-3.5-mini-instruct", "full"), ("Qwen2.5-72B-Instruct", "8bit")]
GROUNDING_OF = {
    "paired_event_discrimination": "single_grounding_paired",
    "triple_event_discrimination": "single_grounding_triple",
    "ordering_texts_opt_event": "single_grounding_all",
    "ordering_texts_opt_story": "single_grounding_all_story",
    "ordering_images_opt_event": "single_grounding_all",
    "ordering_images_opt_story": "single_grounding_all_story",
}
# analyze_task_performance's pass_count_range: "at least k grounding passes"
AT_LEAST = {"paired": (1,), "triple": (1, 2), "ordering": (1, 2, 3, 4)}


def _file(task_id):
    if task_id.startswith("ordering"):
        return task_id[:-10]
    return "single_grounding_all" if task_id == "single_grounding_all_story" else task_id


def _suffix(model):
    return "8bit" if any(k in model.lower() for k in ("72b", "78b", "110b")) else "full"


def _drop_invalid(df):
    bad = pandas.Series(False, index=df.index)
    for column in df.columns:
        if column.startswith("event"):
            bad |= df[column].astype(str).str.contains("|".join(BANNED), case=False, regex=True)
    return df[~bad]


def _internvl_mt1(text):
    for pattern in (r"Option\s+([AB])", r"\b([AB])\.\s*(?:True|False)", r"\b([AB])\s*$", r"Option\s*\[([AB])\]"):
        match = re.search(pattern, text)
        if match:
            return match.group(1)
    return "UNK"


def _clean(preds, task_id, model):
    """The evaluation's per-family branch: preprocessing, then the task's first-match pattern."""
    text = preds.astype(str)
    if "deepseek" in model or "Janus" in model:
        text = text.str.replace(" <｜end▁of▁sentence｜>", "", regex=False)
    elif model == "Llama-3.1-8B":
        text = text.apply(lambda t: re.split(r"(?i)The answer is", t, maxsplit=1)[-1])
    elif "InternVL" in model and "discrimination" in task_id:
        return text.apply(_internvl_mt1)
    elif "interleave" in model or "LLaVA-NeXT-Video" in model:
        text = text.apply(lambda t: re.split(r"(?i)assistant", t, maxsplit=1)[-1])
    if "grounding" in task_id:
        pattern = r"(\d+)"
    else:
        pattern = r"\b([AB])\b" if "discrimination" in task_id else r"\b([ABCDE])\b"
    return text.str.extract(pattern)[0].fillna("UNK")


def _passes(df, task_id, preds, model=""):
    return _clean(preds, task_id, model) == df["gt_option"].astype(str).str[-1]


def official(
    root: Path, task_id: str, grounding_id: str, answers: dict[tuple, str], blind: bool = True, model: str = "", sources: Sequence[str] = OFFICIAL_SOURCES, frame_of: Callable[[str, str], pandas.DataFrame] | None = None
) -> dict[str, float | None]:
    """GT, GT_strict, MT, MT|GT_strict, MT|GT fail and MT given at least k grounding passes (with
    their counts) pooled over the sources, per source too.
    ``answers``: (source, task id, question_id) -> raw model output; rows never asked get "".
    ``model`` picks the family branch of the parser, as the script does by model name.
    ``frame_of(source, task id)``: the rows evaluated (default: the annotation file's)."""
    frame_of = frame_of or (lambda source, task: pandas.read_pickle(root / "benchmark_pkl" / f"{source}_{_file(task)}_test.pkl"))
    pooled, per_source = Counter(), {}
    for source in sources:
        main = _drop_invalid(frame_of(source, task_id))
        ground = _drop_invalid(frame_of(source, grounding_id))
        main = main.assign(passed=_passes(main, task_id, main["question_id"].map(lambda q, source=source: answers.get((source, task_id, q), "")), model))
        ground = ground.assign(passed=_passes(ground, grounding_id, ground["question_id"].map(lambda q, source=source: answers.get((source, grounding_id, q), "")), model))
        if blind and "images" not in task_id:
            right = pandas.Series(0, index=main.index)
            for blind_model, suffix in BLIND:
                preds = _drop_invalid(pandas.read_pickle(root / "predictions" / "blind" / blind_model / f"{source}_{task_id}_preds_{suffix}.pkl"))
                assert len(preds) == len(main)
                right = right.add(_passes(preds, task_id, preds["preds"], blind_model).astype(int), fill_value=0)
            main = main[right.loc[main.index] < 2]
        counts = Counter()
        by_sequence: dict[str, list] = {}  # each sequence's grounding rows (gold option, passed), in file order
        for sequence, option, passed in zip(ground["img_seq_id"], ground["gt_option"], ground["passed"]):
            by_sequence.setdefault(sequence, []).append((str(option), bool(passed)))
        discrimination = "discrimination" in task_id
        tuples = main["event_pair_tuple" if "paired" in task_id else "event_triple_tuple"] if discrimination else main["img_seq_id"]
        for sequence, passed_main, events in zip(main["img_seq_id"], main["passed"], tuples):
            same = by_sequence.get(sequence, [])
            if discrimination:
                gt_passes = []
                for e in eval(events):
                    hits = [passed for option, passed in same if option.endswith(str(e + 1))]
                    if hits:
                        gt_passes.append(hits[0])
            else:
                gt_passes = [passed for _, passed in same]
            all_ground = False not in gt_passes
            passed_main = bool(passed_main)
            counts["total"] += 1
            counts["grounding"] += all_ground
            counts["main"] += passed_main
            counts["both"] += all_ground and passed_main
            counts["main_fail_ground"] += (not all_ground) and passed_main
            for k in next(ks for family, ks in AT_LEAST.items() if family in task_id):
                counts[f"atleast{k}"] += gt_passes.count(True) >= k
                counts[f"atleast{k}_main"] += gt_passes.count(True) >= k and passed_main
        counts["g_rows"], counts["g_pass"] = len(ground), int(ground["passed"].sum())
        per_source[source] = _figures(counts)
        pooled.update(counts)
    return {**_figures(pooled), "n": pooled["total"], "per_source": per_source}


def _figures(c):
    div = lambda a, b: a / b if b else None  # noqa: E731
    return {
        "gt_acc": div(c["g_pass"], c["g_rows"]),
        "gtstrict_rate": div(c["grounding"], c["total"]),
        "mt_acc": div(c["main"], c["total"]),
        "mt_given_gtstrict": div(c["both"], c["grounding"]),
        "mt_given_gtfail": div(c["main_fail_ground"], c["total"] - c["grounding"]),
        **{name: value for k in AT_LEAST["ordering"] if f"atleast{k}" in c for name, value in ((f"mt_given_gt_atleast{k}", div(c[f"atleast{k}_main"], c[f"atleast{k}"])), (f"gt_atleast{k}_count", c[f"atleast{k}"]))},
    }


def official_release(root: Path, model: str, folder: str = "combined") -> dict[str, dict[str, float | None]]:
    """The evaluation run on a released prediction folder: task id -> figures (and ``n``, the rows
    counted), rounded to 4 decimals as the script rounds. The rows are the prediction files' own; a
    source without the grounding predictions is skipped, as the script does."""
    out = {}
    for task_id, grounding_id in GROUNDING_OF.items():
        base = Path(root) / "predictions" / folder / model
        answers, sources = {}, []
        for source in OFFICIAL_SOURCES:
            grounding_path = base / f"{source}_{grounding_id}_preds_{_suffix(model)}.pkl"
            if not grounding_path.is_file():
                continue
            sources.append(source)
            for task, path in ((task_id, base / f"{source}_{task_id}_preds_{_suffix(model)}.pkl"), (grounding_id, grounding_path)):
                frame = pandas.read_pickle(path)
                answers.update({(source, task, q): p for q, p in zip(frame["question_id"], frame["preds"])})
        figures = official(Path(root), task_id, grounding_id, answers, model=model, sources=sources, frame_of=lambda source, task, base=base: pandas.read_pickle(base / f"{source}_{task}_preds_{_suffix(model)}.pkl"))
        out[task_id] = {k: (None if v is None else round(v, 4)) for k, v in figures.items() if k != "per_source"}
    return out
