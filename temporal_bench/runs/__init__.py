"""Reading a logged run: the one layer under every command that reads what lmms-eval or lm-eval wrote.

``temporal-bench report``, ``compare``, ``browse``, ``rescore`` and ``check`` all find runs, read
their results JSONs, samples files, recorded settings, the data each task read and their per-doc records
through these modules, and nothing here imports a command or names a benchmark: what differs per
benchmark (its breakdowns, a task holding several tests, tasks whose records join) comes from the
registry (temporal_bench/benchmarks.py).

* ``files``: the two harnesses' file names, finding results files, reading them and samples files.
* ``logged``: :class:`LoggedRun`, one results JSON with its samples files (and each task's records, what it read and
  its breakdown keys, computed once), and :func:`find_runs`.
* ``records``: the per-doc record in a sample line, as its benchmark's ``record_reader`` reads it, with whether its
  request failed and a digest of its content.
* ``record_reader``: :class:`RecordReader`, the base of each benchmark's reader of its records (identity, counts,
  the release's fingerprint or counts).
* ``limits``: whether a task was run on some of its docs only (``--limit``, ``--offset``).
* ``results``: :class:`Run`, one model's results merged over its results files (the report's view).
* ``data_read``: what each task read (a fingerprint of its questions, gold answers and images; its counts; where its
  images lie; synthetic data) and how its requests fared, computed from its samples; whether that is the release.
"""
