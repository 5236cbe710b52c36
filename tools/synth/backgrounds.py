"""Procedural table tops: wood, cloth, plain and busy (patterned or cluttered).

Every texture is built from seeded noise so a photo set is reproducible and
nothing is downloaded.
"""
from __future__ import annotations

import math

import cv2
import numpy as np

from tools.synth.pen import ellipse_points, fill_polygon, stroke

TABLE_KINDS = ("wood", "cloth", "plain", "busy")

_WOODS = ((60, 110, 170), (40, 75, 120), (90, 150, 200), (30, 50, 80), (70, 120, 150))
_CLOTHS = ((60, 110, 30), (120, 60, 20), (40, 40, 140), (170, 190, 200), (90, 90, 90), (40, 100, 110))
_PLAINS = ((235, 235, 235), (200, 205, 210), (40, 40, 45), (190, 215, 225), (150, 150, 150), (120, 170, 200))


def smooth_noise(shape: tuple[int, int], cells: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """Noise in 0..1 varying smoothly over ``cells`` (rows, columns) cells."""
    coarse = rng.random((max(2, cells[0]), max(2, cells[1]))).astype(np.float32)
    return cv2.resize(coarse, (shape[1], shape[0]), interpolation=cv2.INTER_CUBIC).clip(0, 1)


def _tinted(base: tuple[int, int, int], shade: np.ndarray) -> np.ndarray:
    return np.clip(shade[..., None] * np.array(base, np.float32)[None, None, :], 0, 255)


def _pick(palette: tuple, rng: np.random.Generator) -> tuple[int, int, int]:
    base = np.array(palette[rng.integers(len(palette))], np.float32)
    return tuple((base * rng.uniform(0.85, 1.15, 3)).clip(0, 255))  # type: ignore[return-value]


def wood(size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    w, h = size
    big = int(math.hypot(w, h)) + 4
    plank = rng.uniform(90, 220)
    y = np.arange(big, dtype=np.float32)[:, None]
    warp = smooth_noise((big, big), (6, 3), rng) * rng.uniform(20, 60)
    streak = smooth_noise((big, big), (big // 3, 6), rng)
    phase = (y + warp) * rng.uniform(0.05, 0.12)
    shade = 0.82 + 0.08 * np.sin(phase) + 0.12 * (streak - 0.5)
    plank_id = np.floor((y + 0 * warp) / plank)
    shade = shade * (0.92 + 0.16 * ((plank_id * 0.6180339) % 1.0))
    seam = (np.abs(((y % plank) - plank / 2)) > plank / 2 - 1.5).astype(np.float32)
    shade = shade * (1 - 0.45 * seam)
    texture = _tinted(_pick(_WOODS, rng), shade).astype(np.uint8)
    angle = rng.uniform(-30, 30) + (90 if rng.random() < 0.5 else 0)
    rot = cv2.getRotationMatrix2D((big / 2, big / 2), angle, 1.0)
    rot[:, 2] += [(w - big) / 2, (h - big) / 2]
    return cv2.warpAffine(texture, rot, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)


def cloth(size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    w, h = size
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    period = rng.uniform(2.5, 5.0)
    weave = 0.04 * np.sin(xx * 2 * np.pi / period) * np.sin(yy * 2 * np.pi / period)
    folds = 0.18 * (smooth_noise((h, w), (4, 6), rng) - 0.5)
    shade = 0.95 + weave + folds + 0.04 * (rng.random((h, w), dtype=np.float32) - 0.5)
    base = np.array(_pick(_CLOTHS, rng), np.float32)
    if rng.random() < 0.35:  # gingham check
        cell = rng.uniform(25, 60)
        a = (np.floor(xx / cell) % 2).astype(np.float32)
        b = (np.floor(yy / cell) % 2).astype(np.float32)
        white = np.array((235, 235, 240), np.float32)
        mix = (a + b)[..., None] / 2
        colour = white * (1 - mix) + base[None, None, :] * mix
    else:
        colour = np.broadcast_to(base, (h, w, 3))
    return np.clip(colour * shade[..., None], 0, 255).astype(np.uint8)


def plain(size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    w, h = size
    shade = 0.94 + 0.1 * (smooth_noise((h, w), (2, 3), rng) - 0.5)
    return _tinted(_pick(_PLAINS, rng), shade).astype(np.uint8)


def busy(size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """A patterned cloth or cluttered top: many shapes, some card-like."""
    w, h = size
    image = cloth(size, rng) if rng.random() < 0.5 else plain(size, rng)
    for _ in range(int(rng.integers(25, 70))):
        colour = tuple(float(c) for c in rng.integers(0, 256, 3))
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        r = rng.uniform(8, 90)
        shape = rng.integers(4)
        if shape == 0:
            fill_polygon(image, ellipse_points(cx, cy, r, r * rng.uniform(0.4, 1), rng.uniform(0, 180)), colour)
        elif shape == 1:
            a = rng.uniform(0, 2 * np.pi)
            d = np.array([[np.cos(a), np.sin(a)], [-np.sin(a), np.cos(a)]])
            box = np.array([[-1, -0.6], [1, -0.6], [1, 0.6], [-1, 0.6]]) * r @ d + [cx, cy]
            fill_polygon(image, box, colour)
        elif shape == 2:
            pts = np.cumsum(rng.normal(0, r / 2, (6, 2)), axis=0) + [cx, cy]
            stroke(image, pts, colour, rng.uniform(2, 8))
        else:
            for k in range(int(rng.integers(2, 6))):
                y = cy + k * 12
                stroke(image, np.array([[cx, y], [cx + rng.uniform(40, 160), y]]), colour, 3)
    return cv2.GaussianBlur(image, (0, 0), rng.uniform(0.5, 1.5))


_MAKERS = {"wood": wood, "cloth": cloth, "plain": plain, "busy": busy}


def table_background(kind: str, size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """A (height, width, 3) BGR table top of ``kind`` (one of :data:`TABLE_KINDS`)."""
    try:
        return _MAKERS[kind](size, rng)
    except KeyError:
        raise ValueError(f"unknown table kind {kind!r} (one of {', '.join(TABLE_KINDS)})") from None
