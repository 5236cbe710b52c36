"""Whether outlines overlap the cards found (the centre of one inside the
other), or lie inside an outline far larger."""
from __future__ import annotations

from typing import Sequence

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


def inside_far_larger(detection: Detection, outlines: Sequence[Detection], share: float) -> bool:
    """Whether ``detection`` lies wholly inside one of ``outlines`` that is
    at least ``1 / share`` times as large. Cards are one size at about one
    distance, so such a reading is a detail of the card outlined around it.

    >>> from types import SimpleNamespace as Ns
    >>> def outline(x, y, w, h):
    ...     corners = np.float32([[x, y], [x + w, y], [x + w, y + h], [x, y + h]])
    ...     return Detection(Ns(), corners)
    >>> icon, card = outline(40, 50, 20, 30), outline(0, 0, 100, 150)
    >>> inside_far_larger(icon, [card], 0.3), inside_far_larger(card, [icon], 0.3)
    (True, False)
    >>> inside_far_larger(outline(90, 50, 20, 30), [card], 0.3)   # half outside the card
    False
    >>> inside_far_larger(outline(10, 10, 70, 100), [card], 0.3)  # nearly a card itself
    False
    """
    if share <= 0:
        return False  # no outline is that much larger
    growth = share ** -0.5 - 1
    return any(outline.encloses(detection, growth, 0.0) for outline in outlines)
