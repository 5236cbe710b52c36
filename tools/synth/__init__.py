"""The synthetic camera: the stand-in deck's art, table photos and flip
videos with known answers (``python -m tools.synth --help``).

OpenCV is imported by the modules that draw; ``import tools.synth`` alone is cheap.
"""
