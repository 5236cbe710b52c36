"""What the tracker reports: a card that landed on the pile.

What it sees in each frame is a :class:`~vision.recognize.types.Detection`,
the photo recogniser's own result.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from companion.engine import Card

from ..recognize.types import Match


@dataclass(frozen=True, eq=False)
class Landing:
    """A card newly laid on the pile, decided at ``frame`` (``time`` in seconds
    when the tracker knows it). Its :class:`Match` carries the confidence the
    tracker reached over the frames it saw the card in and the runner-up, so
    an app can ask the player when the reading is not sure; ``corners`` (TL,
    TR, BR, BL of the face, pixels) say where it lies."""

    match: Match
    frame: int
    time: float | None
    corners: np.ndarray  # (4, 2) float32

    @property
    def card(self) -> Card:
        return self.match.card

    @property
    def confidence(self) -> float:
        return self.match.confidence
