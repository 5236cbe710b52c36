"""Seeing cards: :mod:`vision.recognize` finds and names the cards in an
image, :mod:`vision.track` follows the oven pile as it is flipped.

OpenCV is imported by the modules that use it; ``import vision`` alone is cheap.
"""
