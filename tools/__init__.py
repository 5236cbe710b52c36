"""Tooling for tests and benchmarks, never imported by the product
(``companion``, ``vision``): :mod:`tools.synth` draws the stand-in deck and
makes synthetic photos and flip videos with ground truth; :mod:`tools.bench`
holds the benchmarks, their plug-ins and metrics."""
