"""Score the raw outputs the TempVS authors released, with our loading, parsing and metrics.

The release holds ``predictions/{combined,separate,cot}/{model}/{source}_{task_id}_preds_{suffix}.pkl``:
the annotation rows plus the model's raw output in ``preds`` (docs/protocol/tempvs.md §2.5). As the
official evaluation does (§7.1), the rows scored are those of the prediction files themselves, not
of the annotation files: the same filters and grounding join, the model family's official
preprocessing and patterns (§6.2), and the same aggregations. Rows that one side has and the other
lacks are compared with the annotation files and reported, named and counted: a row only in the
prediction file is scored (as officially), a row only in the annotations is not (it has no output).
One results JSON per model is written in lmms-eval's format, with the per-doc records beside it as
samples files, so ``temporal-bench report`` renders Tables 3 and 14-16 (12 for ``separate``) with
those rows, their confidence intervals and reproduction verdicts next to the published ones, and
lists every cell where the two disagree.

As in the official evaluation (§7.3), a source whose grounding predictions are missing is left out
of that main test (with a warning); a missing main prediction file is an error. The release has no
CoT grounding outputs: ``cot`` takes the grounding predictions from ``combined``. ``blind`` scores the
three text-only LLMs' outputs of MT1/MT2 (no grounding) before the text-only-LLM filter and, as
``mt_acc_filtered``, after it: paper Table 17, without any model run.
"""

import json
import re
import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from loguru import logger as _log

from temporal_bench.cli_style import command_parser
from temporal_bench.lmms_eval_tasks.plugin.tempvs.docs import task_docs
from temporal_bench.lmms_eval_tasks.plugin.tempvs.extraction import blind_family_of, extract
from temporal_bench.lmms_eval_tasks.plugin.tempvs.records import make_record
from temporal_bench.lmms_eval_tasks.plugin.tempvs.release import LocalRelease, find_root, release_question_rows
from temporal_bench.lmms_eval_tasks.plugin.tempvs.utils import SETTINGS, prepared_rows, with_settings
from temporal_bench.lmms_eval_tasks.tempvs.spec import GROUNDING_TESTS, MAIN_TESTS, SOURCES, TEST_NAMES, TempVSDataError, doc_key, task_kind
from temporal_bench.tempvs.breakdowns import breakdown_metrics
from temporal_bench.tempvs.model_names import RELEASE_FOLDERS, RELEASED_PREDICTIONS_MODEL

# input folder -> (prompt mode, our task-name suffix); scoring reads no image, so none need be present
INPUTS = {"combined": ("standard", ""), "separate": ("standard", "_separate"), "cot": ("cot", "_cot"), "blind": ("blind", "_blind")}
RESULTS_NAME = "released_{input}_results.json"
SAMPLES_NAME = "released_{input}_samples_{task}.jsonl"  # beside RESULTS_NAME, named as lmms-eval names them
# the release's models the official evaluation parses with its generic branch, by the names its rows give them
GENERIC_MODELS = ("onevision", "LongVA", "Mantis", "Phi", "Qwen2", "GPT4o")
FIX_NAMES = SETTINGS["fixes"]  # the tasks' ``fixes`` (lmms_eval_tasks/plugin/tempvs/utils.py)


def is_released_predictions(results: dict) -> bool:
    """Whether a results JSON holds the release's scored outputs (written by ``write_results``), not a run."""
    return (results.get("config") or {}).get("model") == RELEASED_PREDICTIONS_MODEL


def official_branch(model: str) -> str:
    """The extraction branch the official evaluation picks for a release folder's model (its rows name the models as
    the folders do); a model no row names is parsed with the generic branch, as there, and said so."""
    family = blind_family_of(model)
    if family == "generic" and not any(name in model for name in GENERIC_MODELS):
        _log.warning(f"TempVS: no official extraction branch names model {model!r}; using the generic one")
    return family


def file_suffix(model: str) -> str:
    """``8bit`` for the models the authors loaded in 8 bit (72b / 78b / 110b in the name), else ``full``."""
    return "8bit" if re.search(r"72b|78b|110b", model.lower()) else "full"


def prediction_path(root: Path, input_kind: str, model: str, source: str, task_id: str) -> Path | None:
    folder = root / "predictions" / input_kind / model
    stem = f"{source}_{task_id}_preds_{file_suffix(model)}"
    return next((p for p in (folder / f"{stem}.pkl", folder / f"{stem}.json") if p.is_file()), None)


def released_models(root: Path, input_kind: str = "combined") -> list[str]:
    folder = find_root(Path(root)) / "predictions" / input_kind
    if not folder.is_dir():
        raise TempVSDataError(f"{folder}: no released predictions here (expected predictions/{input_kind}/<model>/)")
    return sorted(p.name for p in folder.iterdir() if p.is_dir())


@dataclass(frozen=True)
class RowMismatch:
    """The question ids of one prediction file that its annotation file lacks, and the reverse."""

    predictions: str  # the prediction file, relative to the data folder
    only_in_predictions: tuple[str, ...]  # scored, as the official evaluation scores them
    only_in_annotations: tuple[str, ...]  # not scored: the model has no output for them

    def describe(self, shown: int = 5) -> str:
        parts = [f"{len(ids)} row(s) only in the {side} ({', '.join(ids[:shown])}{', ...' if len(ids) > shown else ''})" for side, ids in (("prediction file", self.only_in_predictions), ("annotation file", self.only_in_annotations)) if ids]
        return f"{self.predictions}: " + "; ".join(parts)


class PredictionRows:
    """The reader of a task id's rows for the docs (tempvs_to_hf.Release): the rows of the prediction files, each
    checked against its annotation file; keeps every raw output by doc key and every row mismatch."""

    def __init__(self, files: dict[tuple[str, str], Path]):
        self.files = files  # (source, task id) -> prediction file
        self.outputs: dict[str, str] = {}
        self.mismatches: dict[str, RowMismatch] = {}
        self._read: dict[tuple[Path, str, str], list[dict]] = {}  # each file's rows, read once

    def _rows(self, root: Path, source: str, task_id: str, path: Path | None = None) -> list[dict]:
        """The rows of a prediction file (``path``), else of the task id's annotation file."""
        key = (path or root, source, task_id)
        if key not in self._read:
            release = LocalRelease(root)
            self._read[key] = release.rows_of(path, source) if path else release.rows(source, task_id)
        return self._read[key]

    def __call__(self, root: Path, source: str, task_id: str) -> list[dict]:
        if (source, task_id) not in self.files:  # the grounding questions of a text-only input, which asks none
            return self._rows(root, source, task_id)
        path = self.files[source, task_id]
        rows = self._rows(root, source, task_id, path)
        for i, row in enumerate(rows):
            if "preds" not in row:
                raise TempVSDataError(f"{path} row {i}: a prediction file needs 'preds'; found {sorted(row)}")
            self.outputs[doc_key(source, TEST_NAMES[task_id], row["question_id"])] = row["preds"]
        ours = [str(row["question_id"]) for row in rows]
        theirs = [str(row["question_id"]) for row in self._rows(root, source, task_id)]
        mine, annotated = set(ours), set(theirs)
        mismatch = RowMismatch(str(path.relative_to(root)), tuple(q for q in ours if q not in annotated), tuple(q for q in theirs if q not in mine))
        if (mismatch.only_in_predictions or mismatch.only_in_annotations) and mismatch.predictions not in self.mismatches:
            _log.warning(f"TempVS released predictions: {mismatch.describe()}")
            self.mismatches[mismatch.predictions] = mismatch
        return rows


def _test_files(root: Path, model: str, input_kind: str, test: str, sources: tuple[str, ...]) -> dict[tuple[str, str], Path]:
    """(source, task id) -> prediction file, for one main test and its grounding test, of the
    sources that have both."""
    spec = MAIN_TESTS[test]
    grounding_inputs = (input_kind, "combined") if input_kind == "cot" else (input_kind,)
    files = {}
    for source in sources:
        main = prediction_path(root, input_kind, model, source, spec.task_id)
        if main is None:
            raise TempVSDataError(f"{model}: prediction file predictions/{input_kind}/{model}/{source}_{spec.task_id}_preds_{file_suffix(model)}.pkl is missing under {root}")
        if input_kind == "blind":  # text only: no grounding questions
            files[source, spec.task_id] = main
            continue
        grounding_task_id = GROUNDING_TESTS[spec.grounding_test]
        grounding = next(filter(None, (prediction_path(root, kind, model, source, grounding_task_id) for kind in grounding_inputs)), None)
        if grounding is None:
            _log.warning(f"TempVS {model}: no {grounding_task_id} predictions for {source}; {source} is left out of {spec.task_id}, as in the official evaluation")
            continue
        files[source, spec.task_id] = main
        files[source, grounding_task_id] = grounding
    return files


ScoredTest = tuple[str, str, list[dict]]  # (main test, our task name, the per-doc records)


@dataclass
class ScoredModel:
    """One model's per-doc records for each main test it has, and the rows its prediction files
    and the annotation files do not share."""

    tests: list[ScoredTest]
    mismatches: list[RowMismatch]


def scored_tests(root: Path, model: str, input_kind: str = "combined", sources: Sequence[str] | None = None, fixes: Sequence[str] = ()) -> ScoredModel:
    """The per-doc records of one model's outputs, for each of the six main tests it has: the rows
    of its prediction files, filtered and joined as the official evaluation does (§7.1).

    ``fixes`` as the tasks' setting of that name (default: the faithful parse and join)."""
    root = find_root(Path(root))
    mode, suffix = INPUTS[input_kind]
    family = official_branch(model)
    scored = ScoredModel([], [])
    mismatches: dict[str, RowMismatch] = {}
    for test, spec in MAIN_TESTS.items():
        if mode == "blind" and not spec.blind_filtered:
            continue
        files = _test_files(root, model, input_kind, test, tuple(s for s in SOURCES if not sources or s in sources))
        kept = tuple(dict.fromkeys(source for source, _ in files))
        if not kept:
            continue
        rows = PredictionRows(files)
        # the text-only LLMs' verdicts always: the filter's input, and in a text-only input what it keeps (Table 17)
        questions = release_question_rows(root, [test], ("standard", mode), True, kept, read=rows).rows
        docs = [{**doc, **with_settings(doc, mode, "none", fixes)} for doc in task_docs(prepared_rows(questions, mode, mode != "blind", kept), [test], False)]
        task = f"tempvs_{test}{suffix}"

        def parse(doc: dict, text: str, _: str) -> str:  # the model's own branch, as the official evaluation picks it
            return extract(text, task_kind(doc["task_id"]), doc["option_text"], cot=mode == "cot", family=family, fixes=frozenset(fixes))

        records = [{**make_record(doc, rows.outputs[doc["doc_key"]], parse, ("generic",)), "mode": mode, "failed": False, **({"filter_kept": doc["filter_kept"]} if doc["filter_kept"] is not None else {})} for doc in docs]
        scored.tests.append((test, task, records))
        mismatches.update(rows.mismatches)
    scored.mismatches = list(mismatches.values())
    return scored


def results_of(scored: ScoredModel) -> dict[str, dict[str, object]]:
    """Our task name -> ``{"<metric>,none": value}``, as the tasks' aggregations compute them."""
    return {task: {f"{name},none": value for name, value in breakdown_metrics(task, records).items()} for _, task, records in scored.tests}


def write_results(folder: Path, model: str, input_kind: str, scored: ScoredModel, root: Path) -> Path:
    """An lmms-eval-style results file that the report reads (its model label is ``model``, or for an
    API model's folder the version its outputs are: ``RELEASE_FOLDERS``), with the row mismatches
    under ``released_rows``, and the records beside it as lmms-eval's samples files, from which the
    report computes confidence intervals (the record under one metric key: temporal_bench/runs/records.py). No request
    was made, so a line logs no response (``filtered_resps`` empty): none counts as a failed request, the published
    numbers being scored on these same outputs."""
    path = Path(folder) / model / RESULTS_NAME.format(input=input_kind)
    path.parent.mkdir(parents=True, exist_ok=True)
    for _, task, records in scored.tests:
        samples = path.parent / SAMPLES_NAME.format(input=input_kind, task=task)
        lines = ({"doc_id": i, "target": r["gold"], "gt_acc": r, "filtered_resps": []} for i, r in enumerate(records))
        samples.write_text("".join(json.dumps(line, sort_keys=True) + "\n" for line in lines), encoding="utf-8")
    # config.data: the release folder scored (where the report looks for the marker of synthetic data)
    label = RELEASE_FOLDERS.get(model, model)
    model_args = f"model={model},input={input_kind}" + (f",version={label}" if label != model else "")
    data = {
        "results": results_of(scored),
        "model_name": label,
        "config": {"model": RELEASED_PREDICTIONS_MODEL, "model_args": model_args, "data": str(find_root(Path(root)).resolve())},
        "released_rows": [asdict(m) for m in scored.mismatches],
    }
    path.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return path


def mismatch_section(by_model: dict[str, list[RowMismatch]]) -> str:
    """The prediction files whose rows differ from the annotation files', per model (empty when none)."""
    lines = [f"- **{model}**: {m.describe()}" for model, found in by_model.items() for m in found]
    if not lines:
        return ""
    return (
        "\nPrediction files whose rows differ from the annotation files (rows only in a prediction file "
        "are scored, as the official evaluation scores them; rows only in the annotations have no output "
        "and are not):\n" + "\n".join(lines) + "\n"
    )


def main_score_predictions(argv: Sequence[str] | None = None) -> int:
    parser = command_parser(
        "score-predictions",
        ["temporal-bench score-predictions /path/to/TempVS/data --input blind --table tempvs-table17"],
        "Scores the predictions/ folder of the TempVS release as the tasks score a run, writes one results file per model under --output-dir, and prints them as the report's tables (docs/report.md).",
    )
    parser.add_argument("release", type=Path, metavar="TEMPVS_DATA", help="the TempVS data folder (holding benchmark_pkl/ and predictions/)")
    parser.add_argument("--input", choices=sorted(INPUTS), default="combined", help="which predictions folder (default: %(default)s)")
    parser.add_argument("--model", action="append", dest="models", metavar="MODEL", help="model folder name (repeatable; default: every model of the predictions folder)")
    parser.add_argument("--sources", help=f"comma-separated subset of {','.join(SOURCES)} (default: all four)")
    parser.add_argument("--fixes", default="", help=f"comma-separated fixes instead of the faithful behaviour, as the tasks' `fixes` setting: {', '.join(FIX_NAMES)} (default: none)")
    parser.add_argument("--output-dir", type=Path, default=Path("tempvs_released_scores"), aliases=["--output"], metavar="DIR", help="folder for the results files (default: %(default)s)")
    parser.add_argument("--table", action="append", dest="tables", metavar="TABLE", help="report layout to print (repeatable; default: every layout with rows)")
    args = parser.parse_args(argv)
    from temporal_bench.report.cli import main_report

    try:
        # bad values fail here, before any scoring
        fixes = tuple(f for f in args.fixes.split(",") if f)
        sources = tuple(s for s in (args.sources or "").split(",") if s) or SOURCES
        unknown = [f"fix {f!r} (choose from {FIX_NAMES})" for f in fixes if f not in FIX_NAMES] + [f"source {s!r} (choose from {SOURCES})" for s in sources if s not in SOURCES]
        if unknown:
            raise ValueError("unknown " + "; unknown ".join(unknown))
        root = find_root(args.release)
        mismatches = {}
        for model in args.models or released_models(root, args.input):
            scored = scored_tests(root, model, args.input, sources, fixes)
            write_results(args.output_dir, model, args.input, scored, root)
            mismatches[model] = scored.mismatches
    except (TempVSDataError, ValueError) as exc:
        parser.error(str(exc))
    report_args = [str(args.output_dir)] + [a for t in args.tables or () for a in ("--table", t)]
    status = main_report(report_args)
    sys.stdout.write(mismatch_section(mismatches))
    return status
