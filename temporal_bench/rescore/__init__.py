"""``temporal-bench rescore``: a run's metrics recomputed from its ``--log_samples`` output, without
the model, optionally under other task settings, next to the values in its results JSON.

A run is a results JSON with its samples files beside it: lmms-eval's ``<date>_results.json`` and
``<date>_samples_<task>.jsonl``, lm-eval's ``results_<date>.json`` and
``samples_<task>_<date>.jsonl``. Each task is rebuilt through the harness's own TaskManager (which
loads its docs again, so the run's data must be reachable); the logged responses then go through
the task's filters, its ``process_results`` and its aggregation functions as in the harness's
evaluator, over the logged samples in their logged order (so joins across docs, repeats and
multi-process runs come out as in the run).

Where re-scoring starts depends on what the harness logged:

* lm-eval logs the raw outputs (all samples of a repeated request): the filters run again.
* lmms-eval 0.7.3 drops the doc (it is matched back by ``doc_id`` and checked against the logged
  target). Without reasoning tags for the task (TempVS sets ``reasoning_tags: none``) ``resps``
  holds the raw outputs and the filters run again. With reasoning tags (the CLI default, so
  CaT-Bench and ISO-Bench) it holds each filter's output before the tags were stripped (for
  self-consistency the vote, not the samples): the tags are stripped again and scoring starts there.

Every setting that changes a score is task configuration the results JSON records
(``configs.<task>.metadata``, ``configs.<task>.lmms_eval_specific_kwargs``), so a task is re-scored
under the run's recorded settings, whatever its YAML says now, with ``--set key=value`` on top:

* lmms-eval: a task's settings are the keyword arguments of its ``process_docs`` (a ``functools.partial``, whose
  values its YAML's ``metadata`` states); the task is built with the recorded ``metadata`` (and ``--set``) given to
  that function. A recorded value the YAML now sets otherwise is re-scored as recorded and reported; a setting only
  one side has cannot be matched up and is an error (``--set`` gives the YAML's new one a value).
  Per-model settings (``lmms_eval_specific_kwargs``) are resolved by the harness for the model the
  run names (``config.model``), as in the run; if they now resolve differently it is an error.
* lm-eval: the recorded ``metadata`` (the YAML's, ``--metadata`` and the model arguments, as lm-eval
  merged them) goes to the TaskManager with ``--set`` on top, as ``--metadata`` would.

The docs are loaded from the folder ``--data`` or the environment names, else the release folder above the images the
run read (temporal_bench/data_locations.py); a doc whose gold answer is not the logged one is refused.

The runs, their samples and recorded settings are read by temporal_bench/runs (:class:`temporal_bench.runs.logged.LoggedRun`).
"""
