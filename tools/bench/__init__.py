"""Benchmarks (``python -m tools.bench.NAME``), the plug-ins they measure,
their metrics and a naive baseline."""
