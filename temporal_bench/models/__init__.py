"""Baselines and scripted test models; they answer from the doc, no weights are loaded."""
