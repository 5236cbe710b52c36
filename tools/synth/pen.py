"""Anti-aliased vector drawing in a local coordinate frame.

Icons are described in unit coordinates (the icon spans -1..1) and drawn at
any centre, size and rotation, so the same shape serves as a big ingredient
on its card, a small corner index and a topping on a pizza.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import cv2
import numpy as np

from vision.cvcompat import LINE_AA, Color3

_SHIFT = 4  # sub-pixel bits for OpenCV polygon drawing
_ONE = 1 << _SHIFT


def ellipse_points(cx: float, cy: float, ax: float, ay: float, rotation: float = 0.0,
                   start: float = 0.0, end: float = 360.0, n: int = 48) -> np.ndarray:
    """Points on an ellipse arc (degrees), in whatever units the caller uses."""
    t = np.radians(np.linspace(start, end, n, endpoint=(end - start) < 360))
    x, y = ax * np.cos(t), ay * np.sin(t)
    r = math.radians(rotation)
    return np.stack([cx + x * math.cos(r) - y * math.sin(r), cy + x * math.sin(r) + y * math.cos(r)], axis=1)


def rounded_rect_points(x0: float, y0: float, x1: float, y1: float, radius: float, n: int = 10) -> np.ndarray:
    """Outline of a rounded rectangle, clockwise from the top-left arc."""
    radius = min(radius, (x1 - x0) / 2, (y1 - y0) / 2)
    arcs = [
        ellipse_points(x0 + radius, y0 + radius, radius, radius, 0, 180, 270, n),
        ellipse_points(x1 - radius, y0 + radius, radius, radius, 0, 270, 360, n),
        ellipse_points(x1 - radius, y1 - radius, radius, radius, 0, 0, 90, n),
        ellipse_points(x0 + radius, y1 - radius, radius, radius, 0, 90, 180, n),
    ]
    return np.concatenate(arcs)


def _fixed(points: np.ndarray) -> np.ndarray:
    return np.round(np.asarray(points, np.float64) * _ONE).astype(np.int32)


def fill_polygon(image: np.ndarray, points: np.ndarray, color: Color3) -> None:
    """Fill a polygon given in image pixels (floats), anti-aliased."""
    cv2.fillPoly(image, [_fixed(points)], tuple(int(c) for c in color), LINE_AA, _SHIFT)


def stroke(image: np.ndarray, points: np.ndarray, color: Color3, width: float, closed: bool = False) -> None:
    cv2.polylines(image, [_fixed(points)], closed, tuple(int(c) for c in color),
                  max(1, round(width)), LINE_AA, _SHIFT)


@dataclass(frozen=True)
class Pen:
    """Draws unit-frame shapes onto ``image`` at ``center``, ``size`` pixels
    across, rotated by ``angle`` degrees."""

    image: np.ndarray
    center: tuple[float, float]
    size: float
    angle: float = 0.0

    def to_image(self, points: Sequence[Sequence[float]] | np.ndarray) -> np.ndarray:
        p = np.asarray(points, np.float64) * (self.size / 2)
        r = math.radians(self.angle)
        c, s = math.cos(r), math.sin(r)
        x = p[:, 0] * c - p[:, 1] * s + self.center[0]
        y = p[:, 0] * s + p[:, 1] * c + self.center[1]
        return np.stack([x, y], axis=1)

    def fill(self, points: np.ndarray, color: Color3, outline: Color3 | None = None, width: float = 0.0) -> None:
        pixels = self.to_image(points)
        fill_polygon(self.image, pixels, color)
        if outline is not None and width > 0:
            stroke(self.image, pixels, outline, width * self.size / 2, closed=True)

    def line(self, points: np.ndarray, color: Color3, width: float, closed: bool = False) -> None:
        stroke(self.image, self.to_image(points), color, width * self.size / 2, closed)

    def ellipse(self, cx: float, cy: float, ax: float, ay: float, color: Color3, rotation: float = 0.0,
                outline: Color3 | None = None, width: float = 0.0) -> None:
        self.fill(ellipse_points(cx, cy, ax, ay, rotation), color, outline, width)

    def disk(self, cx: float, cy: float, r: float, color: Color3, outline: Color3 | None = None,
             width: float = 0.0) -> None:
        self.ellipse(cx, cy, r, r, color, 0.0, outline, width)
