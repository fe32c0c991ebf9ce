"""TempVS (Song et al., Findings of ACL 2025) as lmms-eval tasks: main tests with their grounding tests in one run."""
