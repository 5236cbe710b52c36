"""Stage 1b: the cards a row implies.

Cards laid side by side are one size and lie along one line, so the cards
found say where the others would be: beyond each end of the row, one
spacing on (the spacing and the size carried on as they change from the
next card to the end one, which follows the camera's perspective), and
between two cards spaced twice as far apart as the others. A single card's
neighbours are tried at a few spacings along its top edge. An outline hidden
from the detection (a small card far off on a busy cloth, or one merged with
its neighbour's shadow) is looked for there; what is found there is still
judged as any card is.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from ..geometry import inside_convex, quad_inside
from ..recognize.types import Detection, Quad
from .config import DEFAULT_MAUS_CONFIG, MausVisionConfig


def along_row(found: Sequence[Detection]) -> list[Detection]:
    """``found`` ordered along the row: the main axis of their centres."""
    centres = np.array([d.center for d in found], np.float64)
    if len(found) < 2:
        return list(found)
    spread = centres - centres.mean(axis=0)
    axis = np.linalg.svd(spread, full_matrices=False)[2][0]
    return [found[k] for k in np.argsort(spread @ axis)]


def _beyond(end: np.ndarray, previous: np.ndarray, share: float) -> np.ndarray:
    """The outline one spacing (times ``share``) past ``end``, continuing the
    step from ``previous`` to ``end`` in place and in size."""
    step = end.mean(axis=0) - previous.mean(axis=0)
    grow = np.sqrt(_area(end) / max(_area(previous), 1.0))
    centre = end.mean(axis=0) + share * step * grow
    return centre + (end - end.mean(axis=0)) * grow


def _area(quad: np.ndarray) -> float:
    return float(Quad(quad.astype(np.float32)).area)


def neighbour_outlines(found: Sequence[Detection], size: tuple[int, int],
                       config: MausVisionConfig = DEFAULT_MAUS_CONFIG) -> list[list[Quad]]:
    """For each place the row implies a card, the outlines it might have,
    wholly inside the picture and with their centre on no card found; places
    with none are left out.

    >>> from vision.recognize.types import Match
    >>> card = np.float32([[100, 100], [160, 100], [160, 194], [100, 194]])
    >>> cards = [Detection(Match(None, 1.0, False, None, 0.0), card + [dx, 0]) for dx in (0, 70, 210, 280)]
    >>> places = neighbour_outlines(cards, (600, 300))
    >>> [[round(float(quad.center[0])) for quad in place] for place in places]
    [[64, 60, 56], [476, 480, 484], [270]]
    """
    ordered = along_row(found)
    places: list[list[np.ndarray]] = []
    if len(ordered) == 1:
        corners = ordered[0].corners.astype(np.float64)
        along = corners[1] - corners[0]
        places = [[corners + sign * step * along for step in config.row_spacings] for sign in (-1, 1)]
    elif ordered:
        quads = [d.corners.astype(np.float64) for d in ordered]
        steps = [np.linalg.norm(b.mean(axis=0) - a.mean(axis=0)) for a, b in zip(quads, quads[1:])]
        usual = float(np.median(steps))
        places = [[_beyond(quads[0], quads[1], s) for s in config.row_spacing_tries],
                  [_beyond(quads[-1], quads[-2], s) for s in config.row_spacing_tries]]
        places += [[(a + b) / 2] for a, b, step in zip(quads, quads[1:], steps) if step > config.row_gap * usual]
    outlines = np.array([d.corners for d in found], np.float32)
    result = []
    for place in places:
        kept = [Quad(q.astype(np.float32)) for q in place if quad_inside(q, size, config.row_margin)
                and not inside_convex(outlines, q.mean(axis=0, keepdims=True).astype(np.float32)).any()]
        if kept:
            result.append(kept)
    return result
