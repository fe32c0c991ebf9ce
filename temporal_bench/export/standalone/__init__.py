"""The exported folders as a pull request puts them, in processes where our package cannot be imported.

``overlay`` installs them in lmms-eval's ``tasks/`` package; ``sitecustomize.py`` (this folder on
``PYTHONPATH``) makes ``import temporal_bench`` fail; ``import_utils.py`` is run by file path to import each
exported ``utils.py`` with every connection refused, then load the folders with lmms-eval's TaskManager. Used by ``export --check`` and by the tests.
"""
