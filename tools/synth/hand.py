"""A hand and forearm in 2-D: enough to occlude a card edge like a thumb
does in a phone photo, and to carry cards in a flip video.

Shapes are drawn into the image and into an occlusion mask at once, so the
ground truth knows what the hand hides.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from vision.cvcompat import Color3
from tools.synth.icons import mix
from tools.synth.pen import ellipse_points, fill_polygon, stroke

SKIN_TONES: tuple[Color3, ...] = ((150, 180, 230), (120, 160, 215), (100, 140, 200), (70, 105, 160),
                                  (50, 75, 120), (130, 170, 225))


@dataclass(frozen=True)
class HandLook:
    skin: Color3
    sleeve: Color3
    nail: Color3

    @classmethod
    def sample(cls, rng: np.random.Generator) -> HandLook:
        skin = SKIN_TONES[int(rng.integers(len(SKIN_TONES)))]
        skin = tuple(int(c) for c in np.clip(np.array(skin) * rng.uniform(0.9, 1.1, 3), 0, 255))
        sleeve = tuple(int(c) for c in rng.integers(20, 230, 3))
        return cls(skin, sleeve, mix(skin, (210, 210, 235), 0.5))  # type: ignore[arg-type]


def _capsule(a: np.ndarray, b: np.ndarray, ra: float, rb: float) -> np.ndarray:
    """Outline of a tapered capsule from ``a`` (radius ``ra``) to ``b`` (radius ``rb``)."""
    d = b - a
    angle = math.degrees(math.atan2(d[1], d[0]))
    start = ellipse_points(a[0], a[1], ra, ra, angle, 90, 270, 16)
    end = ellipse_points(b[0], b[1], rb, rb, angle, -90, 90, 16)
    return np.concatenate([start, end])


class _Canvas:
    """Draws each shape into the image and the mask together."""

    def __init__(self, image: np.ndarray, mask: np.ndarray) -> None:
        self.image, self.mask = image, mask

    def fill(self, points: np.ndarray, color: Color3, edge: Color3 | None = None) -> None:
        fill_polygon(self.image, points, color)
        fill_polygon(self.mask, points, (255, 255, 255))
        if edge is not None:
            stroke(self.image, points, edge, 1.5, closed=True)


def draw_hand(image: np.ndarray, mask: np.ndarray, wrist: tuple[float, float], direction: float, scale: float,
              look: HandLook, spread: float = 0.0, arm_length: float = 4.0) -> None:
    """A flat hand reaching in ``direction`` (degrees, image coordinates) from
    a forearm behind ``wrist``; ``scale`` is the palm width in pixels."""
    u = np.array([math.cos(math.radians(direction)), math.sin(math.radians(direction))])
    v = np.array([-u[1], u[0]])
    w = np.array(wrist, float)
    canvas = _Canvas(image, mask)
    shade = mix(look.skin, (0, 0, 0), 0.25)
    elbow = w - u * scale * arm_length
    canvas.fill(_capsule(elbow, w - u * scale * 0.1, scale * 0.55, scale * 0.42), look.skin, shade)
    canvas.fill(_capsule(elbow - u * scale * 2, w - u * scale * 0.9, scale * 0.7, scale * 0.62), look.sleeve,
                mix(look.sleeve, (0, 0, 0), 0.3))
    palm = w + u * scale * 0.45
    canvas.fill(ellipse_points(palm[0], palm[1], scale * 0.62, scale * 0.52, direction), look.skin, shade)
    for k, length in enumerate((0.78, 0.92, 0.86, 0.66)):
        offset = (k - 1.5) * scale * (0.24 + 0.05 * spread)
        base = palm + u * scale * 0.35 + v * offset
        tip = base + (u * math.cos(offset * spread / scale) + v * math.sin(offset * spread / scale)) * scale * length
        canvas.fill(_capsule(base, tip, scale * 0.12, scale * 0.1), look.skin, shade)
        nail = tip - u * scale * 0.06
        fill_polygon(image, ellipse_points(nail[0], nail[1], scale * 0.07, scale * 0.055, direction), look.nail)
    thumb_base = palm - v * scale * 0.45
    thumb_tip = thumb_base + (u * 0.55 - v * 0.45) * scale
    canvas.fill(_capsule(thumb_base, thumb_tip, scale * 0.16, scale * 0.12), look.skin, shade)


def draw_thumb(image: np.ndarray, mask: np.ndarray, tip: tuple[float, float], direction: float, width: float,
               look: HandLook) -> None:
    """A thumb pointing ``direction`` with its tip at ``tip``, the rest of the
    hand trailing behind it (usually out of frame or off the card)."""
    u = np.array([math.cos(math.radians(direction)), math.sin(math.radians(direction))])
    v = np.array([-u[1], u[0]])
    t = np.array(tip, float)
    canvas = _Canvas(image, mask)
    shade = mix(look.skin, (0, 0, 0), 0.25)
    knuckle = t - u * width * 2.2
    canvas.fill(_capsule(knuckle - u * width * 3 + v * width * 1.2, knuckle + v * width * 0.8, width * 2.2, width * 1.6),
                mix(look.skin, (0, 0, 0), 0.08), shade)
    canvas.fill(_capsule(knuckle, t, width * 0.62, width * 0.5), look.skin, shade)
    nail = t - u * width * 0.28
    fill_polygon(image, ellipse_points(nail[0], nail[1], width * 0.3, width * 0.36, direction), look.nail)
