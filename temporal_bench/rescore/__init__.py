"""``temporal-bench rescore``: a run's metrics computed again from its ``--log_samples`` output, without the model,
optionally under other task settings, next to the values in its results JSON.

The harness that wrote the run evaluates its tasks again (temporal_bench/rescore/harnesses.py) with the replay model
(temporal_bench/models/replay.py), which answers each request as the run's model did, into a run folder of its own:
filters, ``process_results``, aggregations and the results and samples files are the harness's. Every setting that
changes a score is task configuration the results JSON records (``configs.<task>.metadata``,
``configs.<task>.lmms_eval_specific_kwargs``), so each task is evaluated under the run's recorded settings, whatever
its YAML says now, with ``--set key=value`` on top: for lmms-eval as variants of the task YAMLs
(temporal_bench/rescore/variant.py), for lm-eval as ``--metadata``. A setting that changes what the model is asked is
refused by the replay model (it has no answer to another question), a doc whose gold answer is not the logged one by
the comparison (other data than the run's).

The runs, their samples and recorded settings are read by temporal_bench/runs (:class:`temporal_bench.runs.logged.LoggedRun`).
"""
