"""ISO-Bench (Sadana, Lal, Zhou; arXiv 2507.23135): must the step shown in an image come before/after a plan snippet?"""
