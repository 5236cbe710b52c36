"""Fallback outlines from card corners.

When a card's outline is broken (a hand over it) or merged with the cards
beneath, no edge chain has a card-shaped hull. Its corners usually survive:
two long straight edges meeting at about a right angle. Each such corner
proposes two rectangles of card proportions (either arm the long side), sized
by the longer visible arm; alignment and identification then decide.
"""
from __future__ import annotations

import math
from typing import Sequence

import cv2
import numpy as np

from .config import DEFAULT_CONFIG, VisionConfig
from .detect import EdgeChains, order_corners
from .types import Quad


def corner_hypotheses(chains: EdgeChains, config: VisionConfig = DEFAULT_CONFIG,
                      known: Sequence[np.ndarray] = ()) -> list[Quad]:
    """Card-proportioned quads grown from right-angled edge corners, longest
    arms first. Chains centred inside a ``known`` card outline (image pixels)
    are that card's own edges and are passed over."""
    min_arm = config.corner_min_arm * np.sqrt(chains.area)
    min_area = config.min_card_area * chains.area
    proposals: list[tuple[float, np.ndarray]] = []
    known_small = [(k * chains.scale).reshape(-1, 1, 2).astype(np.float32) for k in known]
    for contour in chains.contours:
        if known_small and _centred_in(contour, known_small):
            continue
        poly = cv2.approxPolyDP(contour, 2.0, True).reshape(-1, 2).astype(np.float32)
        for corner, u, v, la, lb in _right_angles(poly, min_arm):
            for long_u in (True, False):
                corners = _rectangle(corner, u, v, la, lb, long_u, config)
                if abs(_cross(corners[1] - corners[0], corners[3] - corners[0])) >= min_area:
                    proposals.append((la + lb, corners))
    # the longest visible arms are the likeliest card corners
    proposals.sort(key=lambda p: -p[0])
    kept = np.empty((config.max_corner_proposals, 4, 2), np.float32)
    count = 0
    for _, corners in proposals:
        size = math.hypot(*(corners[2] - corners[0]))
        if not count or np.abs(kept[:count] - corners).max(axis=(1, 2)).min() > config.corner_tolerance * size:
            kept[count] = corners
            count += 1
            if count == config.max_corner_proposals:
                break
    return [Quad(order_corners(k / chains.scale)) for k in kept[:count]]


def _centred_in(contour: np.ndarray, outlines: list[np.ndarray]) -> bool:
    x, y, w, h = cv2.boundingRect(contour)
    centre = (x + w / 2, y + h / 2)
    return any(cv2.pointPolygonTest(outline, centre, False) >= 0 for outline in outlines)


def _cross(a: np.ndarray, b: np.ndarray) -> float:
    return float(a[0] * b[1] - a[1] * b[0])


def _right_angles(poly: np.ndarray, min_arm: float):
    """(corner, unit arm u, unit arm v, len u, len v) where two long sides of
    ``poly`` meet at 60..120 degrees, directly or across one short cut (a
    rounded corner)."""
    sides = np.roll(poly, -1, axis=0) - poly
    lengths = np.hypot(sides[:, 0], sides[:, 1])
    long_ = lengths >= min_arm
    n = len(poly)
    for i in np.flatnonzero(long_):
        j = (i + 1) % n
        if not long_[j] and long_[(j + 1) % n] and lengths[j] < min_arm / 2:
            j = (j + 1) % n
        if not long_[j] or j == i:
            continue
        u, v = -sides[i] / lengths[i], sides[j] / lengths[j]  # both arms point away from the corner
        if abs(float(u @ v)) > 0.5:
            continue
        yield (poly[(i + 1) % n] + poly[j]) / 2, u, v, float(lengths[i]), float(lengths[j])


def _rectangle(corner: np.ndarray, u: np.ndarray, v: np.ndarray, la: float, lb: float, long_u: bool,
               config: VisionConfig) -> np.ndarray:
    aspect = config.card_aspect
    if long_u:
        long_, short = max(la, lb * aspect), max(lb, la / aspect)
        du, dv = long_, short
    else:
        long_, short = max(lb, la * aspect), max(la, lb / aspect)
        du, dv = short, long_
    return np.array([corner, corner + du * u, corner + du * u + dv * v, corner + dv * v], np.float32)
