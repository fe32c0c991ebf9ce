"""TempVS, ISO-Bench and CaT-Bench as tasks for lmms-eval (and CaT-Bench for lm-eval)."""

__version__ = "0.1.0"
