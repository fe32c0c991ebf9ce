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
* ``sources``: the data sources evaluated (all four by default).

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

    def __post_init__(self):
        known = {**MAIN_TESTS, **GROUNDING_TESTS}
        problems = [f"unknown test {t!r} (choose from {sorted(known)})" for t in self.tests if t not in known]
        if not self.tests:
            problems.append("no test")
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
        if problems:
            raise TempVSSettingsError("TempVS task settings: " + "; ".join(problems))

    @property
    def is_main(self) -> bool:
        return self.tests[0] in MAIN_TESTS

    def metadata(self) -> Dict:
        """The YAML ``metadata`` block (lists, not tuples)."""
        return {key: list(value) if isinstance(value, tuple) else value for key, value in asdict(self).items()}

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
        tests = self.settings.tests
        if tests[0] in GROUNDING_TESTS:
            return "_grounding_template_yaml"
        return "_main_template_yaml" if len(tests) == 1 else "_shared_grounding_template_yaml"
