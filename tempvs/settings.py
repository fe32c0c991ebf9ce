"""The scoring settings of a TempVS task: what its YAML's ``metadata`` says (temporal_bench.utils.task_options).

A task asks the main questions of one main test, or of the two main tests that share a grounding
test (MT2 and MT3 of one text kind: the grounding questions are asked once for both, issue 13), or
the questions of one grounding test alone. The other settings are the variants and options:

* ``mode``: ``standard``, ``cot`` (the rows' CoT instruction), ``blind`` (text only) or ``images_only``
  (MT3 with no text to order by, Table 19's third column: our prompt, prompts.py);
* ``visual``: ``combined`` (the strip), ``separate`` (one image per frame) or ``none``;
* ``blind_filter``: drop the main questions the text-only LLMs solved (MT1, MT2; docs/protocol/tempvs.md §7.1);
* ``fixes``: our repairs of the official evaluation, none by default (docs/tempvs.md
  "Deviations and options"): ``extraction`` (extraction.py) and ``missing_grounding`` (metrics.py);
* ``sources``: the data sources evaluated (all four by default);
* ``shared_grounding``: the task belongs to ``--tasks tempvs``, which asks each distinct grounding
  question once for the whole suite (spec.SUITE_GROUNDING_TASK): a main task asks no grounding
  question and reads the suite grounding task's answers; the suite grounding task holds the four
  grounding tests. Off (every other task): the task asks its grounding questions itself.

The model-dependent settings (extraction family, image layout) are not here: model_settings.py.
"""

import os
from dataclasses import asdict, dataclass
from typing import Dict, Tuple

from temporal_bench.tempvs.spec import GROUNDING_TESTS, MAIN_TESTS, SOURCES
from temporal_bench.utils.data_fingerprint import DATA_SOURCE_KEY

FIX_NAMES = ("extraction", "missing_grounding")
MODES = ("standard", "cot", "blind", "images_only")
UNGROUNDED_MODES = ("blind", "images_only")  # no text to ground, so no grounding questions
VISUALS = ("combined", "separate", "none")
NOT_SETTINGS = frozenset({"version", DATA_SOURCE_KEY})  # metadata keys that are not scoring settings

# The environment variables that set scoring options before they became task settings.
REMOVED_ENV = {
    "TEMPVS_FIXES": "the task setting `fixes` (YAML metadata; e.g. a task YAML that includes ours with "
                    "`fixes: [extraction]`, see docs/tempvs.md)",
    "TEMPVS_SOURCES": "the task setting `sources` (YAML metadata, see docs/tempvs.md)",
    "TEMPVS_EXTRACTOR": "the per-model setting `extractor` (lmms_eval_specific_kwargs of the task YAML, "
                        "chosen by the lmms-eval model class; see docs/tempvs.md)",
}


class TempVSSettingsError(ValueError):
    """Task settings that cannot be used, or a removed option variable still set."""


def refuse_removed_env() -> None:
    """A run with one of the old option variables set fails, naming the setting that replaced it:
    silently ignoring it would score differently from what its user asked for."""
    found = [name for name in REMOVED_ENV if os.environ.get(name, "").strip()]
    if found:
        raise TempVSSettingsError("; ".join(f"{name} is no longer read: use {REMOVED_ENV[name]}" for name in found))


@dataclass(frozen=True)
class TaskSettings:
    tests: Tuple[str, ...]  # keys of spec.MAIN_TESTS (one, or MT2 + MT3 of one text kind) or one of GROUNDING_TESTS
    mode: str = "standard"
    visual: str = "combined"
    blind_filter: bool = True
    fixes: Tuple[str, ...] = ()
    sources: Tuple[str, ...] = SOURCES
    shared_grounding: bool = False

    def __post_init__(self):
        known = {**MAIN_TESTS, **GROUNDING_TESTS}
        problems = [f"unknown test {t!r} (choose from {sorted(known)})" for t in self.tests if t not in known]
        if not self.tests:
            problems.append("no test")
        elif all(t in GROUNDING_TESTS for t in self.tests) and len(self.tests) > 1:
            if not self.shared_grounding:
                problems.append(f"grounding tests {list(self.tests)} together need shared_grounding (the suite's grounding task)")
        elif len(self.tests) > 1 and len({MAIN_TESTS[t].grounding_task_id if t in MAIN_TESTS else t for t in self.tests}) != 1:
            problems.append(f"tests {list(self.tests)} do not share one grounding test")
        if self.mode not in MODES:
            problems.append(f"mode {self.mode!r} (choose from {MODES})")
        if self.mode == "images_only" and self.tests != ("mt3_event",):
            problems.append("mode 'images_only' is MT3's alone (tests: [mt3_event], the image-ordering rows)")
        if self.visual not in VISUALS:
            problems.append(f"visual {self.visual!r} (choose from {VISUALS})")
        problems += [f"unknown fix {f!r} (choose from {FIX_NAMES})" for f in self.fixes if f not in FIX_NAMES]
        problems += [f"unknown source {s!r} (choose from {SOURCES})" for s in self.sources if s not in SOURCES]
        if not self.sources:
            problems.append("no source")
        if self.shared_grounding and self.mode == "blind":
            problems.append("shared_grounding with mode blind (a text-only task asks no grounding question)")
        if problems:
            raise TempVSSettingsError("TempVS task settings: " + "; ".join(problems))

    @property
    def is_main(self) -> bool:
        return self.tests[0] in MAIN_TESTS

    def metadata(self) -> Dict:
        """The YAML ``metadata`` block (lists, not tuples); ``shared_grounding`` only where it is on."""
        return {key: list(value) if isinstance(value, tuple) else value for key, value in asdict(self).items()
                if key != "shared_grounding" or value}

    @classmethod
    def from_metadata(cls, task: str, metadata: Dict) -> "TaskSettings":
        fields = set(cls.__dataclass_fields__)
        unknown = sorted(set(metadata) - fields - NOT_SETTINGS)
        if unknown:  # a misspelt setting would otherwise be recorded and silently not applied
            raise TempVSSettingsError(f"{task}: unknown setting(s) {unknown} in its YAML metadata (settings: {sorted(fields)})")
        values = {key: value for key, value in metadata.items() if key in fields}
        if "tests" not in values:
            raise TempVSSettingsError(f"{task}: its YAML metadata names no `tests`")
        for key in ("tests", "fixes", "sources"):
            if key in values:
                value = values[key]
                values[key] = tuple([value] if isinstance(value, str) else value or ())
        try:
            return cls(**values)
        except TempVSSettingsError as error:
            raise TempVSSettingsError(f"{task}: {error}") from None


@dataclass(frozen=True)
class TaskConfig:
    """A task of the registry (tasks.py): its name and settings; the template names which family YAML it includes."""

    name: str  # lmms-eval task name
    settings: TaskSettings
    description: str = ""

    @property
    def template(self) -> str:
        tests, suite = self.settings.tests, "_suite" if self.settings.shared_grounding else ""
        if tests[0] in GROUNDING_TESTS:
            return f"{suite}_grounding_template_yaml"
        return f"{suite}_main_template_yaml" if len(tests) == 1 else f"{suite}_shared_grounding_template_yaml"
