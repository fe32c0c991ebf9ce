"""``temporal-bench browse``: look at a run's answers, one card per logged sample, in one static HTML page."""
