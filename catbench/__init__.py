"""CaT-Bench (Lal et al., EMNLP 2024): must step i happen before/after step j in a recipe?"""
