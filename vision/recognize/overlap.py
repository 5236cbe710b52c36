"""Whether outlines overlap the cards found: the centre of one inside the other."""
from __future__ import annotations

import numpy as np

from ..geometry import inside_convex
from .types import Detection, Quad


def overlapping(quads: np.ndarray, cards: list[np.ndarray]) -> np.ndarray:
    """Which of ``quads`` (n, 4, 2) overlap any of ``cards``: the centre of
    one lies inside the other."""
    covered = np.zeros(len(quads), bool)
    if not len(quads):
        return covered
    centres = quads.mean(axis=1)
    for card in cards:
        covered |= inside_convex(card, centres) | inside_convex(quads, card.mean(axis=0)[None])[:, 0]
    return covered


def overlaps_any(detection: Detection, cards: list[Detection]) -> bool:
    """Whether ``detection`` overlaps any of ``cards`` (as :func:`overlapping` judges)."""
    return bool(overlapping(detection.corners[None], [c.corners for c in cards])[0])


def clear_of(quads: list[Quad], cards: list[Detection]) -> list[Quad]:
    """The ``quads`` whose centre lies inside none of ``cards``."""
    if not quads or not cards:
        return quads
    centres = np.array([q.corners for q in quads]).mean(axis=1)
    covered = np.zeros(len(quads), bool)
    for card in cards:
        covered |= inside_convex(card.corners, centres)
    return [q for q, c in zip(quads, covered) if not c]
