"""Reading a logged run: the one layer under every command that reads what lmms-eval or lm-eval wrote.

``temporal-bench report``, ``compare``, ``browse``, ``rescore`` and ``check`` all find runs, read
their results JSONs, samples files, recorded settings and data source and their per-doc records
through these modules, and nothing here imports a command or names a benchmark: what differs per
benchmark (its breakdowns, a task holding several tests, tasks whose records join) comes from the
registry (temporal_bench/benchmarks.py).

* ``files``: the two harnesses' file names, finding results files, reading them and samples files.
* ``logged``: :class:`LoggedRun`, one results JSON with its samples files, and :func:`find_runs`.
* ``records``: the per-doc record in a sample line, and a task's records in logged order.
* ``breakdowns``: a task's breakdown keys, computed from its records.
* ``limits``: whether a task was run on some of its docs only (``--limit``, ``--offset``).
* ``results``: :class:`Run`, one model's results merged over its results files (the report's view).
* ``data_source``: the data a run read, and where to load it from now.
"""
