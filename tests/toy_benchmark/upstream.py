"""What the upstream export says about the toy benchmark beyond its code (tests/tooling/test_toy_benchmark.py)."""

from temporal_bench.export.facts import UpstreamFacts

UPSTREAM = UpstreamFacts(
    summary="Six yes/no questions about the order of two steps, for the registry's test.",
    hub_dataset="toy-org/Toy-Bench",
    build_command=None,
    reference="Toy. A Toy Benchmark. 2026",
    task_titles={"toy_order": "The order of two steps"},
    smoke_response="yes",
    homepage="https://example.org/toy-bench",
    task_list_section="Image Tasks",
    bibtex="""@misc{toy2026,
    title = "A Toy Benchmark",
    author = "Toy, Ann",
    year = "2026",
    eprint = "0000.00000",
    archivePrefix = "arXiv",
}""",
)
