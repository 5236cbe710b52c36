"""Where the tracker looks for the pile, and which outlines can be its top card."""
from __future__ import annotations

from collections import deque
from typing import Sequence

import numpy as np

from .config import TrackerConfig
from ..recognize.types import Detection


class UsualSize:
    """How large the pile's recent top cards looked. Cards of one pile all
    cover the same area to a fixed camera; an outline much larger or smaller
    (two cards merged, a hand's edge) is not the top card."""

    def __init__(self, config: TrackerConfig) -> None:
        self.config = config
        self.sizes: deque[tuple[float, float]] = deque(maxlen=15)
        self.odd_searches = 0  # searches in a row whose every card had an unusual size

    def learn(self, sighting: Detection) -> None:
        """``sighting`` is the pile's new top card."""
        self.sizes.append((sighting.width, sighting.height))

    def fits(self, sighting: Detection) -> bool:
        """Whether ``sighting`` has the usual size (any size, before the first
        card). The sides are compared more loosely than the area: a camera
        looking at the pile at a slant foreshortens a card's sides by how it
        is turned, but not its area."""
        if not self.sizes:
            return True
        width, height = np.median(np.array(self.sizes), axis=0)
        size = np.sqrt(sighting.width * sighting.height / (width * height))
        aspect = (sighting.height / max(1.0, sighting.width)) / (height / width)
        return abs(size - 1) <= self.config.size_tolerance and abs(aspect - 1) <= self.config.aspect_tolerance

    def searched(self, seen: bool, fitting: bool) -> None:
        """A search saw outlines (``seen``), some of them of the usual size
        (``fitting``). After ``relearn_size`` searches in a row that saw only
        unusual ones, the size was learnt from bad outlines (or the camera
        moved): it is learnt anew."""
        self.odd_searches = self.odd_searches + 1 if seen and not fitting else 0
        if self.odd_searches >= self.config.relearn_size:
            self.sizes.clear()


def search_region(frame: np.ndarray, top: Detection | None, config: TrackerConfig) -> tuple[int, int, np.ndarray]:
    """The part of ``frame`` where the next card will land, with its origin:
    around the ``top`` card, or everything when none is known."""
    if top is None:
        return 0, 0, frame
    height, width = frame.shape[:2]
    pad = config.search_margin * top.width
    (x0, y0), (x1, y1) = top.corners.min(axis=0) - pad, top.corners.max(axis=0) + pad
    x0, y0 = max(0, int(x0)), max(0, int(y0))
    x1, y1 = min(width, int(np.ceil(x1))), min(height, int(np.ceil(y1)))
    return x0, y0, frame[y0:y1, x0:x1]


def top_of_pile(found: Sequence[Detection], top: Detection | None, lost: bool) -> Detection | None:
    """The top card among the sightings: the surest within a card's width of
    the ``top`` card, or anywhere when none is known or the pile was ``lost``."""
    if top is not None:
        near = [s for s in found if np.linalg.norm(s.center - top.center) <= top.width]
        found = near or (found if lost else [])
    return max(found, key=lambda s: s.confidence, default=None)
