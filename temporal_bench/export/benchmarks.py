"""What an exported task folder says about its benchmark: paper and data source.

Names of datasets and environment variables come from the modules that read them, and the paper
from the provenance lines of the published tables, so the exported README cannot drift from the code
(the settings come from the task YAMLs themselves, see ``readme``).
"""

from dataclasses import dataclass
from typing import Dict, Tuple

from temporal_bench.catbench import loading as catbench_loading
from temporal_bench.isobench import loading as isobench_loading
from temporal_bench.published import list_tables, load_table
from temporal_bench.tempvs import loading as tempvs_loading


@dataclass(frozen=True)
class Benchmark:
    name: str  # the task folder's name, lmms_eval/tasks/<name>/
    title: str
    summary: str  # what is asked, one paragraph
    hub_id: str
    data_dir_env: str
    local_layout: str  # what the local copy named by data_dir_env holds

    def paper(self) -> Tuple[str, str]:
        """(reference, arXiv id or "") from the first published table of the benchmark."""
        meta = load_table(self.name, next(t for b, t in list_tables() if b == self.name)).meta
        arxiv = meta.get("arxiv", "")
        return meta["paper"], arxiv if arxiv.replace(".", "").isdigit() else ""


BENCHMARKS: Dict[str, Benchmark] = {
    "tempvs": Benchmark(
        name="tempvs",
        title="TempVS",
        summary="Multi-image stories: do multimodal models capture the order of events in image sequences? "
                "Three main tests (MT1 event relation inference, MT2 sentence ordering, MT3 image ordering), "
                "each asked together with the grounding tests (GT: which image shows each event) that its "
                "metrics need, so one task gives the paper's GT, GT_strict, MT and MT|GT_strict.",
        hub_id=tempvs_loading.HUB_ID,
        data_dir_env=tempvs_loading.DATA_DIR_ENV,
        local_layout="the released layout: `benchmark_pkl/` (or `benchmark/`), the image folders of the four "
                     "sources and `predictions/blind/` for the text-only-LLM filter (that folder or its `data/`)",
    ),
    "isobench": Benchmark(
        name="isobench",
        title="ISO-Bench",
        summary="One video frame of a procedure step plus a plan snippet: must the pictured step come before the "
                "snippet's first step (or after its last)? Answer-only and explain-then-answer prompting, "
                "zero-shot, greedy, at most 120 new tokens.",
        hub_id=isobench_loading.HUB_ID,
        data_dir_env=isobench_loading.DATA_DIR_ENV,
        local_layout="a saved Hugging Face dataset, or `*.json` / `*.jsonl` / `*.parquet` files with embedded images "
                     "or image paths relative to the data file",
    ),
    "catbench": Benchmark(
        name="catbench",
        title="CaT-Bench",
        summary="Text-only recipe plans: must step i happen before/after step j? Answer-only, answer-then-explain, "
                "explain-then-answer, few-shot (BM25 exemplars) and self-consistency settings; the `_switched` "
                "variants add NonDep-S twins for Order Contrastive Consistency.",
        hub_id=catbench_loading.HUB_ID,
        data_dir_env=catbench_loading.DATA_DIR_ENV,
        local_layout="the original release (`{dependent,nondependent}_real_{before,after}.jsonl` of a split, or a root "
                     "with `{train,val,test}_must_why/`), or the Hugging Face files `train.jsonl` / `val.jsonl` / `test.jsonl`",
    ),
}
