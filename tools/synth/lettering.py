"""The words and numbers on a card, in the lettering its style names
(:attr:`~tools.synth.style.DeckStyle.lettering`):

``hershey``: OpenCV's text in the style's font. OpenCV 5 draws every upright
Hershey face in much the same sans-serif, so a style wanting letters that
look different draws its own:

``chamfered``: a condensed monoline face with cut corners, drawn stroke by
stroke from the glyphs below (capitals, digits and the marks the cards use).

Every text is fitted into a box and centred on a point.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from vision.cvcompat import Color3, fit_text_scale, put_text_centered
from tools.synth.pen import stroke
from tools.synth.style import DeckStyle

Point = tuple[float, float]
Writer = Callable[[np.ndarray, str, Point, Point, Color3, int, int], None]

# glyph strokes on a grid 4 wide and 6 high, y downwards
_O = [[(1, 0), (3, 0), (4, 1), (4, 5), (3, 6), (1, 6), (0, 5), (0, 1), (1, 0)]]
_P = [[(0, 6), (0, 0), (3, 0), (4, 1), (4, 2), (3, 3), (0, 3)]]
GLYPHS: dict[str, list[list[tuple[float, float]]]] = {
    "A": [[(0, 6), (0, 1), (1, 0), (3, 0), (4, 1), (4, 6)], [(0, 3.5), (4, 3.5)]],
    "B": [[(0, 3), (3, 3), (4, 2), (4, 1), (3, 0), (0, 0), (0, 6), (3, 6), (4, 5), (4, 4), (3, 3)]],
    "C": [[(4, 1), (3, 0), (1, 0), (0, 1), (0, 5), (1, 6), (3, 6), (4, 5)]],
    "E": [[(4, 0), (0, 0), (0, 6), (4, 6)], [(0, 3), (3, 3)]],
    "H": [[(0, 0), (0, 6)], [(4, 0), (4, 6)], [(0, 3), (4, 3)]],
    "I": [[(1, 0), (3, 0)], [(2, 0), (2, 6)], [(1, 6), (3, 6)]],
    "J": [[(1, 0), (4, 0)], [(3, 0), (3, 5), (2, 6), (1, 6), (0, 5)]],
    "L": [[(0, 0), (0, 6), (4, 6)]],
    "M": [[(0, 6), (0, 0), (2, 3), (4, 0), (4, 6)]],
    "N": [[(0, 6), (0, 0), (4, 6), (4, 0)]],
    "O": _O,
    "P": _P,
    "R": _P + [[(2, 3), (4, 6)]],
    "S": [[(4, 1), (3, 0), (1, 0), (0, 1), (0, 2), (1, 3), (3, 3), (4, 4), (4, 5), (3, 6), (1, 6), (0, 5)]],
    "T": [[(0, 0), (4, 0)], [(2, 0), (2, 6)]],
    "U": [[(0, 0), (0, 5), (1, 6), (3, 6), (4, 5), (4, 0)]],
    "V": [[(0, 0), (2, 6), (4, 0)]],
    "Z": [[(0, 0), (4, 0), (0, 6), (4, 6)]],
    "x": [[(0.5, 2.5), (3.5, 6)], [(3.5, 2.5), (0.5, 6)]],
    "0": _O + [[(3.5, 1), (0.5, 5)]],
    "1": [[(1, 1), (2, 0), (2, 6)], [(1, 6), (3, 6)]],
    "2": [[(0, 1), (1, 0), (3, 0), (4, 1), (4, 2), (0, 6), (4, 6)]],
    "3": [[(0, 0), (4, 0), (2, 2.5), (3, 2.5), (4, 3.5), (4, 5), (3, 6), (1, 6), (0, 5)]],
    "4": [[(3, 6), (3, 0), (0, 4), (4, 4)]],
    "5": [[(4, 0), (0, 0), (0, 2.5), (3, 2.5), (4, 3.5), (4, 5), (3, 6), (0, 6)]],
    "6": [[(3, 0), (1, 0), (0, 1), (0, 5), (1, 6), (3, 6), (4, 5), (4, 3.5), (3, 2.5), (0, 2.5)]],
    "7": [[(0, 0), (4, 0), (1.5, 6)]],
    "8": [[(1, 3), (0, 2), (0, 1), (1, 0), (3, 0), (4, 1), (4, 2), (3, 3), (1, 3), (0, 4), (0, 5), (1, 6),
           (3, 6), (4, 5), (4, 4), (3, 3)]],
    "9": [[(4, 3.5), (1, 3.5), (0, 2.5), (0, 1), (1, 0), (3, 0), (4, 1), (4, 5), (3, 6), (1, 6)]],
    "+": [[(0.5, 3), (3.5, 3)], [(2, 1.5), (2, 4.5)]],
    "!": [[(2, 0), (2, 4)], [(2, 5.7), (2, 6)]],
    "?": [[(0, 1), (1, 0), (3, 0), (4, 1), (4, 2), (2, 3.5), (2, 4.3)], [(2, 5.7), (2, 6)]],
    " ": [],
}
_ADVANCE = 5.6  # grid units from one glyph's left edge to the next one's
_HEIGHT = 5.0  # the 6 grid rows are drawn this many grid units high: less condensed, fits wide boxes
_WEIGHT = 0.24  # stroke width in grid units per point of Hershey thickness


def hershey(image: np.ndarray, text: str, center: Point, box: Point, color: Color3, thickness: int,
            font: int) -> None:
    scale = fit_text_scale(text, font, box[0], box[1], thickness)
    put_text_centered(image, text, center, font, scale, color, thickness)


def chamfered_width(text: str) -> float:
    """Width of ``text`` in grid units, stroke ends included.

    >>> chamfered_width("I"), chamfered_width("OK!") > chamfered_width("OK")
    (4.0, True)
    """
    return _ADVANCE * (len(text) - 1) + 4.0 if text else 0.0


def chamfered(image: np.ndarray, text: str, center: Point, box: Point, color: Color3, thickness: int,
              font: int = 0) -> None:
    """``font`` is not used: the glyphs are the font."""
    missing = sorted(set(text) - set(GLYPHS))
    if missing:
        raise ValueError(f"the chamfered lettering has no glyph for {''.join(missing)!r}")
    width = _WEIGHT * thickness  # in grid units
    unit = min(box[0] / (chamfered_width(text) + width), box[1] / (_HEIGHT + width))
    left = center[0] - unit * chamfered_width(text) / 2
    top = center[1] - unit * _HEIGHT / 2
    for k, char in enumerate(text):
        for line in GLYPHS[char]:
            points = np.array(line, float) * (unit, unit * _HEIGHT / 6) + (left + k * _ADVANCE * unit, top)
            stroke(image, points, color, max(1.0, width * unit))


LETTERINGS: dict[str, Writer] = {"hershey": hershey, "chamfered": chamfered}


def write(image: np.ndarray, text: str, center: Point, box: Point, style: DeckStyle, color: Color3,
          thickness: int = 2, title: bool = True) -> None:
    """``text`` as large as fits ``box`` (width, height), centred on ``center``,
    in ``style``'s lettering (its title font, or its small font when not ``title``)."""
    font = style.title_font if title else style.font
    LETTERINGS[style.lettering](image, text, center, box, color, thickness, font)
