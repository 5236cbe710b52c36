"""The fine comparison itself: how clearly a reading is one member of a
family rather than each other member, at the pixels where the two differ.

The reading is fitted, at those pixels, as an offset plus a share of each of
the two faces (least squares over the three channels). The sums the fit
needs that do not depend on the reading are made once, when the deck is
loaded (:class:`Sums`); a reading then costs three passes over the family.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import cv2
import numpy as np

from .config import VisionConfig

if TYPE_CHECKING:
    from .families import Family, Looks


@dataclass(frozen=True)
class Sums:
    """For one member ``a`` of a family and every member ``b``, sums over the
    pixels (and channels) where the two differ: (k,) each."""

    count: np.ndarray    # the pixels, times three channels
    a: np.ndarray        # of a's channels
    aa: np.ndarray       # of a's squared channels
    b: np.ndarray
    bb: np.ndarray
    ab: np.ndarray       # of a . b
    energy: np.ndarray   # half of |a - b|^2


def pair_sums(looks: Looks, current: int, where: np.ndarray) -> Sums:
    """The :class:`Sums` of member ``current`` against every member, over
    the pixels ``where`` (k, n) says."""
    planes, own = looks.planes, looks.squares
    weights = where.astype(np.float32)
    cross = _dot(planes, planes[current])
    sum_ab = np.einsum("kn,kn->k", weights, cross)
    sum_bb = np.einsum("kn,kn->k", weights, own)
    return Sums(count=np.maximum(weights.sum(axis=1) * 3, 1), a=weights @ looks.sums[current],
                aa=weights @ own[current], b=np.einsum("kn,kn->k", weights, looks.sums), bb=sum_bb, ab=sum_ab,
                energy=(weights @ own[current] + sum_bb - 2 * sum_ab) / 2)


def weigh(family: Family, seen: np.ndarray, valid: np.ndarray, current: int,
          config: VisionConfig) -> np.ndarray:
    """For each member, how clearly the reading is ``current`` rather than
    it, at the pixels where the two differ: the reading fitted as an offset
    plus a share of each face, ``(a - b) / (|a| + |b|)`` of the shares: +1
    only ``current``, -1 only the other, 0 undecided (``current`` itself:
    +inf). The shares, not the distances, decide: a blurred or washed-out
    reading shows a thin frame with less contrast than a taught face, but
    still with its colour. Where two faces differ too little, or the reading
    shows less than ``config.fine_min_shown`` of the face it leans to, 0;
    and where the reading's colours there are nearer the other face (a plain
    distance, against the paper), at most 0: the pattern alone does not rule
    a face out.
    ``valid`` says which pixels the picture covers (a card may reach past
    its edge)."""
    looks = family.looks
    planes = looks.planes                        # (k, 3, n): a member's channels, each a row
    mine, reading = planes[current], np.ascontiguousarray(seen.T)
    where = family.differs_of(current)
    fixed = family.sums[current]
    if not valid.all():
        where = where & valid
        fixed = pair_sums(looks, current, where)
    weights = where.astype(np.float32)
    towards = _dot(planes, reading)              # b . o at each pixel, for each member b
    n = fixed.count
    sum_o = weights @ reading.sum(axis=0)
    sum_ao = weights @ (mine * reading).sum(axis=0)
    sum_bo = np.einsum("kn,kn->k", weights, towards)
    aa, bb = fixed.aa - fixed.a ** 2 / n, fixed.bb - fixed.b ** 2 / n
    ab = fixed.ab - fixed.a * fixed.b / n
    ao, bo = sum_ao - fixed.a * sum_o / n, sum_bo - fixed.b * sum_o / n
    determinant = aa * bb - ab * ab
    safe = np.where(determinant > 0, determinant, 1)
    share_a, share_b = (bb * ao - ab * bo) / safe, (aa * bo - ab * ao) / safe
    # a reading that shows neither face clearly (a small, blurred card: the shares both near 0)
    # leans one way by chance; it must show the face it leans to
    shown = np.where(share_a >= share_b, share_a, share_b)
    decided = (fixed.energy >= config.fine_min_energy) & (determinant > 1e-6 * np.maximum(aa * bb, 1e-6)) & \
        (shown >= config.fine_min_shown)
    leads = np.where(decided, (share_a - share_b) / np.maximum(np.abs(share_a) + np.abs(share_b), 1e-6), 0.0)
    # the shares weigh the pattern, free of contrast; a blurred reading can take the shape of
    # another face's topping while its colours still show its own: a member the reading is nearer
    # in plain colour, against the paper, is not ruled out by the pattern alone
    nearer_other = fixed.aa - fixed.bb - 2 * (sum_ao - sum_bo) > 0
    leads = np.where(nearer_other, np.minimum(leads, 0.0), leads)
    leads[current] = np.inf
    return leads


def weigh_regions(family: Family, seen: np.ndarray, valid: np.ndarray, current: int, other: int,
                  config: VisionConfig) -> float:
    """How clearly the reading is ``current`` rather than ``other``, as
    :func:`weigh` says it, but fitted to the mean colour of each region where
    the two differ (each region weighing as its pixels) rather than to each
    pixel. A thin coloured frame read half a pixel off is a mix of frame and
    paper at each of its pixels, unlike either face there, and the pixels
    then say little of its colour; the frame as a whole still shows it.
    0 when the two differ in fewer than two regions (one region's three
    channels fit any two faces), or where the reading shows neither face.

    >>> from types import SimpleNamespace as Ns
    >>> red, brown, paper = [60, 60, 200], [40, 80, 120], [230, 230, 230]
    >>> a = np.float32([red] * 4 + [[0, 0, 0]] * 2)        # a red frame, an ink dot
    >>> b = np.float32([brown] * 4 + [paper] * 2)          # a brown frame, none
    >>> family = Ns(pixels=np.array([0, 1, 2, 3, 7, 8]), covered=np.ones((2, 10), bool),
    ...             looks=Ns(faces=np.stack([a, b])), differs_between=lambda i, j: np.ones(6, bool))
    >>> red_read = np.float32([[120, 110, 190], [10, 20, 200], [80, 70, 170], [50, 60, 230]] + [[30, 30, 30]] * 2)
    >>> brown_read = np.float32([[90, 120, 110], [10, 60, 130], [60, 90, 160], [20, 70, 100]] + [[220, 225, 230]] * 2)
    >>> [round(weigh_regions(family, r, np.ones(6, bool), 0, 1, Ns(fine_min_shown=0.3)), 2)
    ...  for r in (red_read, brown_read)]
    [0.79, -0.95]
    """
    where = family.differs_between(current, other) & valid
    height, width = family.covered.shape
    mask = np.zeros(height * width, np.uint8)
    mask[family.pixels[where]] = 1
    count, labels = cv2.connectedComponents(mask.reshape(height, width), connectivity=8)
    if count < 3:
        return 0.0
    region = labels.ravel()[family.pixels[where]] - 1
    sizes = np.bincount(region, minlength=count - 1).astype(np.float64)

    def means(colours: np.ndarray) -> np.ndarray:
        picked = colours[where]
        return np.stack([np.bincount(region, picked[:, c], count - 1) for c in range(3)], axis=1) / sizes[:, None]

    faces = family.looks.faces
    reading, mine, theirs = means(seen), means(faces[current]), means(faces[other])
    weight = np.repeat(np.sqrt(sizes), 3)
    design = np.stack([mine.ravel(), theirs.ravel(), np.ones(mine.size)], axis=1) * weight[:, None]
    share_a, share_b, _ = np.linalg.lstsq(design, reading.ravel() * weight, rcond=None)[0]
    if max(share_a, share_b) < config.fine_min_shown:
        return 0.0
    return float((share_a - share_b) / max(abs(share_a) + abs(share_b), 1e-6))


def _dot(planes: np.ndarray, other: np.ndarray) -> np.ndarray:
    """Each member's colour dotted with ``other``'s (3, n) at each pixel:
    (k, n), one channel at a time (three passes over (k, n) cost a fraction
    of one over (k, n, 3))."""
    return planes[:, 0] * other[0] + planes[:, 1] * other[1] + planes[:, 2] * other[2]
