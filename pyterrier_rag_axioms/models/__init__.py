"""Fitted preference models shipped with the package (weights only; see benchmarks/fit_preference_models.py)."""
