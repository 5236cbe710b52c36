"""Whether a picture's outline takes in some of the table around its card.

On a patterned cloth the outline found may follow the cloth's lines past
the card's edge: a side, or a corner, then runs out over the table, and the
taught face would carry a strip of cloth into every later comparison. Along
a well-cut side, what lies just inside the outline is the card's paper, much
the same all round the card; where the outline runs over the table, it is
the table, alike to what lies just outside the outline there and unlike the
paper. Nothing here knows how any deck's art looks, nor any table's.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import cv2
import numpy as np

from .types import Quad

if TYPE_CHECKING:
    from .capture import CaptureConfig


def table_inside(image: np.ndarray, outline: Quad, config: CaptureConfig) -> list[float]:
    """For each side of ``outline`` (in ``image``, BGR), the longest stretch,
    as a share of the side, along which the table lies just inside it: the
    strip there is unlike the card's paper (as those strips show it all
    round) and like the table beside it, outside the outline.

    A printed frame just inside a card's edge is paper-like nowhere, so it
    does not count as the table unless the table beside it looks alike.
    """
    corners = outline.corners.astype(np.float32)
    short = float(np.linalg.norm(corners[1] - corners[0]) + np.linalg.norm(corners[2] - corners[3])) / 2
    origin, region = _around(image, corners, config.table_strip[1] * short + 4)
    smooth = cv2.GaussianBlur(region, (0, 0), 1.0)  # a single pixel's JPEG noise decides nothing
    corners = corners - origin
    inner = np.linspace(*config.inner_strip, 2)
    outer = -np.linspace(*config.table_strip, 6)
    sides = [_across(smooth, corners, k, np.concatenate([inner, outer]) * short, config.side_samples)
             for k in range(4)]
    places = np.concatenate([_places(corners, k, config.side_samples) for k in range(4)])
    places = (places - corners.mean(axis=0)) / short
    # the depth at which the rim is most even all round is the card's paper: a thin border may
    # give way to a printed frame within the strip, on some sides and not others
    fits = [_paper(np.concatenate([side[:, depth] for side in sides]), places) for depth in range(len(inner))]
    depth = int(np.argmin([spread for _, spread in fits]))
    papers = np.split(fits[depth][0], 4)
    return [_longest(_tabled(side[:, depth], side[:, len(inner):], paper, config)) / len(side)
            for side, paper in zip(sides, papers)]


def _paper(colours: np.ndarray, places: np.ndarray, rounds: int = 3) -> tuple[np.ndarray, float]:
    """The card's paper at each of ``places`` (n, 2), and how far the
    colours typically lie from it: a plane in each Lab
    channel fitted to ``colours`` (n, 3), since light falls unevenly across
    a card, the places least like it left out round after round (where the
    table or a print lies inside the outline)."""
    design = np.column_stack([np.ones(len(places)), places])
    kept = np.ones(len(places), bool)
    for _ in range(rounds):
        plane, *_ = np.linalg.lstsq(design[kept], colours[kept], rcond=None)
        off = np.linalg.norm(colours - design @ plane, axis=1)
        kept = off <= np.median(off) + 1.0  # the nearer half: a card's paper is most of its rim
    return design @ plane, float(np.median(off))


def _around(image: np.ndarray, corners: np.ndarray, margin: float) -> tuple[np.ndarray, np.ndarray]:
    """(top-left corner, the part of ``image`` within ``margin`` pixels of ``corners``' box)."""
    x0, y0 = np.maximum(0, np.floor(corners.min(axis=0) - margin)).astype(int)
    x1, y1 = np.minimum([image.shape[1], image.shape[0]], np.ceil(corners.max(axis=0) + margin)).astype(int)
    return np.array([x0, y0], np.float32), image[y0:y1, x0:x1]


def _across(image: np.ndarray, corners: np.ndarray, side: int, depths: np.ndarray, count: int) -> np.ndarray:
    """Lab colours (0-255 scaled, float) at ``count`` places along ``side``
    (its ends, where a card's corner is rounded, left out), each at
    ``depths`` pixels inwards (negative: outwards): (count, depths, 3)."""
    a, b = corners[side], corners[(side + 1) % 4]
    along = b - a
    inwards = np.array([-along[1], along[0]], np.float32) / (np.linalg.norm(along) + 1e-9)
    if np.dot(corners.mean(axis=0) - (a + b) / 2, inwards) < 0:
        inwards = -inwards
    points = _places(corners, side, count)[:, None, :] + depths.astype(np.float32)[None, :, None] * inwards
    # only these points are turned into Lab, never the whole picture
    samples = cv2.remap(image, points[..., 0], points[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return cv2.cvtColor(samples, cv2.COLOR_BGR2LAB).astype(np.float32)


def _places(corners: np.ndarray, side: int, count: int) -> np.ndarray:
    """``count`` places along ``side`` of ``corners``, its ends left out."""
    a, b = corners[side], corners[(side + 1) % 4]
    return a + np.linspace(0.06, 0.94, count, dtype=np.float32)[:, None] * (b - a)


def _tabled(inside: np.ndarray, outside: np.ndarray, paper: np.ndarray, config: CaptureConfig) -> np.ndarray:
    """Which places' ``inside`` colour (count, 3) is the table: unlike the
    ``paper``, and near some colour of the table beside the outline at that
    place or its neighbours (``outside``: count, depths, 3), nearer than to
    the paper. A
    cloth's checks or a wood's grain give the table several colours, so the
    nearest of them counts."""
    from_paper = np.linalg.norm(inside - paper, axis=1)  # paper: (count, 3), one colour per place
    padded = np.concatenate([outside[:1], outside, outside[-1:]])
    nearby = np.concatenate([padded[:-2], padded[1:-1], padded[2:]], axis=1)  # (count, 3 * depths, 3)
    from_table = np.linalg.norm(nearby - inside[:, None, :], axis=2).min(axis=1)
    return (from_paper > config.paper_difference) & (from_table < np.minimum(from_paper, config.table_alike))


def _longest(flags: np.ndarray) -> int:
    """The longest run of True in ``flags``.

    >>> _longest(np.array([True, False, True, True, False]))
    2
    """
    longest = run = 0
    for flag in flags.tolist():
        run = run + 1 if flag else 0
        longest = max(longest, run)
    return longest
