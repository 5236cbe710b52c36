"""The fine comparison itself: how clearly a reading is one member of a
family rather than each other member, at the pixels where the two differ."""
from __future__ import annotations

import numpy as np

from .config import VisionConfig
from .families import Family


def weigh(family: Family, seen: np.ndarray, valid: np.ndarray, current: int,
          config: VisionConfig) -> np.ndarray:
    """For each member, how clearly the reading is ``current`` rather than
    it, at the pixels where the two differ: the reading fitted as an offset
    plus a share of each face, ``(a - b) / (|a| + |b|)`` of the shares: +1
    only ``current``, -1 only the other, 0 undecided (``current`` itself:
    +inf). The shares, not the distances, decide: a blurred or washed-out
    reading shows a thin frame with less contrast than a taught face, but
    still with its colour. Where two faces differ too little, or the reading
    shows less than ``config.fine_min_shown`` of the face it leans to, 0."""
    looks = family.looks
    planes = looks.planes                        # (k, 3, n): a member's channels, each a row
    mine, reading = planes[current], np.ascontiguousarray(seen.T)
    cross = _dot(planes, mine)                   # b . a at each pixel, for each member b
    towards = _dot(planes, reading)              # b . o
    own = looks.squares                          # b . b
    squared = own + own[current] - 2 * cross     # |a - b|^2
    where = (squared >= family.telling[current][:, None] ** 2) & family.valid & (family.valid[current] & valid)
    where &= family.round_rim[current][:, None] | ~family.rim
    weights = where.astype(np.float32)
    energy = (weights * squared).sum(axis=1) / 2
    n = np.maximum(weights.sum(axis=1) * 3, 1)
    sum_a, sum_o = weights @ mine.sum(axis=0), weights @ reading.sum(axis=0)
    sum_aa, sum_ao = weights @ own[current], weights @ (mine * reading).sum(axis=0)
    sum_b, sum_bb = (weights * looks.sums).sum(axis=1), (weights * own).sum(axis=1)
    sum_ab, sum_bo = (weights * cross).sum(axis=1), (weights * towards).sum(axis=1)
    aa, bb, ab = sum_aa - sum_a ** 2 / n, sum_bb - sum_b ** 2 / n, sum_ab - sum_a * sum_b / n
    ao, bo = sum_ao - sum_a * sum_o / n, sum_bo - sum_b * sum_o / n
    determinant = aa * bb - ab * ab
    safe = np.where(determinant > 0, determinant, 1)
    share_a, share_b = (bb * ao - ab * bo) / safe, (aa * bo - ab * ao) / safe
    # a reading that shows neither face clearly (a small, blurred card: the shares both near 0)
    # leans one way by chance; it must show the face it leans to
    shown = np.where(share_a >= share_b, share_a, share_b)
    decided = (energy >= config.fine_min_energy) & (determinant > 1e-6 * np.maximum(aa * bb, 1e-6)) & \
        (shown >= config.fine_min_shown)
    leads = np.where(decided, (share_a - share_b) / np.maximum(np.abs(share_a) + np.abs(share_b), 1e-6), 0.0)
    leads[current] = np.inf
    return leads


def _dot(planes: np.ndarray, other: np.ndarray) -> np.ndarray:
    """Each member's colour dotted with ``other``'s (3, n) at each pixel:
    (k, n), one channel at a time (three passes over (k, n) cost a fraction
    of one over (k, n, 3))."""
    return planes[:, 0] * other[0] + planes[:, 1] * other[1] + planes[:, 2] * other[2]
