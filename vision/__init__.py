"""Everything visual: the stand-in deck art, a synthetic camera (table photos
and flip videos with ground truth) and the recognition protocols that the
benchmark harness measures.

OpenCV is imported by the modules that draw; ``import vision`` alone is cheap.
"""
