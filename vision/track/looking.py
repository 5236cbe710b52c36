"""When the tracker looks for cards, and where: the costly part of "a card was laid".

The recogniser runs only when the top card's region rests and something
happened since the last look (or, before the first card, now and then while
things move, and while the table no longer looks empty), on a crop around the
pile: the whole frame until a pile is known, and again when the crop finds
none for a while (the pile is lost) or finds an outline cut short. A look
that finds no card where one should lie is made again finer (a pale card on
a pale cloth, a small one). What it finds counts only if it rests, lies on
the pile and, before the first card, was not there from the start.
"""
from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from ..recognize.types import Detection
from .config import TrackerConfig
from .dispute import Dispute
from .motion import Motion
from .pile import UsualSize, search_region, top_of_pile
from .stack import Stack
from .types import Landing

Recognise = Callable[[np.ndarray], Sequence[Detection]]


class Looking:
    """The :class:`~vision.track.tracker.FlipTracker`'s looks for cards, over
    the tracker's own state."""

    config: TrackerConfig
    motion: Motion
    recognise: Recognise
    finer: Recognise | None  # ``recognise`` at the photo recogniser's scale and smoothing
    top: Detection | None
    dispute: Dispute | None
    covered: bool
    dirty: bool            # something moved since the last look
    last_search: float     # when the last look was made
    misses: int            # looks around the pile in a row that found nothing
    recognitions: int
    size: UsualSize
    stack: Stack
    background: np.ndarray | None  # the first frame, small and grey

    # provided by the tracker and its other parts
    _consider: Callable[[Detection, np.ndarray, float], list[Landing]]
    _note_lift: Callable[..., None]
    _on_pile: Callable[[Detection], bool]
    _hidden: Callable[[np.ndarray, np.ndarray | None, np.ndarray | None], bool]

    def _should_search(self, still: bool, now: float, small: np.ndarray) -> bool:
        # the pile (or, before the first card, the table) looks changed but the last look found no card
        # there (a hand was on it?): retry now and then
        retry = now - self.last_search >= self.config.retry_interval and (self.covered or self._table_changed(small))
        if not (self.dirty or self.dispute is not None or retry):
            return False
        if self.top is None:  # nothing known yet: look now and then even while things move
            return still or now - self.last_search >= 4 * self.config.still_lag
        return still

    def _table_changed(self, small: np.ndarray) -> bool:
        """Before the first card is known, whether the table no longer looks
        as it did at first: something lies on it."""
        if self.top is not None or self.dispute is not None or self.background is None:
            return False
        return float(self.motion.changed(small, self.background).mean()) > self.config.table_changed_fraction

    def _search(self, frame: np.ndarray, small: np.ndarray, moving: np.ndarray, now: float,
                still: bool) -> list[Landing]:
        # a look while things still move elsewhere does not settle that they moved
        self.dirty, self.last_search = self.dirty and not still, now
        x0, y0, crop = search_region(frame, self.top, self.config)
        seen = self._look(crop, x0, y0)
        if not seen and self.finer is not None and self._card_missing(small):
            # a pale card on a pale cloth, or a small one, may not outline at the usual scale and smoothing
            seen = self._look(crop, x0, y0, self.finer)
        found = [s for s in seen if self.size.fits(s)]
        if not found and crop is not frame and (seen or self._lost):
            # the recogniser can find an outline cut short in the crop that the whole frame shows in
            # full; and a pile not found around its top card lately is looked for everywhere, once
            # the crop (where a pale card reads more surely than in the whole frame) shows none
            seen = self._look(frame, 0, 0)
            found = [s for s in seen if self.size.fits(s)]
        self.size.searched(bool(seen), bool(found))

        resting = [s for s in found if self._rests(s, moving) and self._arrived(s, small)]
        if len(resting) < len(found):
            self.dirty = True  # a card still moving: look again once it rests
        sighting = top_of_pile(resting, self.top, self._lost)
        self._note_lift(seen, sighting)
        if sighting is not None and not self._on_pile(sighting):
            self.dirty = True  # a card held beside the pile: look again once it lies on it
            return []
        if sighting is None:
            self.misses += 1
            return []
        self.misses = 0
        return self._consider(sighting, small, now)

    def _card_missing(self, small: np.ndarray) -> bool:
        """Whether a look that found no card should have found one: around
        the pile (unless the top card was lifted off: the hand holding it
        over the pile is what hides it), or, before the first card, on a
        table that no longer looks empty."""
        if self.top is None:
            return self._table_changed(small)
        return self.stack.lifted is None

    def _look(self, image: np.ndarray, x0: int, y0: int, recognise: Recognise | None = None) -> list[Detection]:
        self.recognitions += 1
        return [s.shifted(x0, y0) for s in (recognise or self.recognise)(image)]

    @property
    def _lost(self) -> bool:
        """Searches around the pile found nothing lately: look everywhere."""
        return self.misses >= self.config.lost_after

    def _arrived(self, sighting: Detection, small: np.ndarray) -> bool:
        """Before the first card, a "card" that was there from the start is a
        pattern of the table (or a card not in play), not a revealed card."""
        return self.top is not None or self._hidden(small, self.background, self.motion.mask(sighting.corners, 0.5))

    def _rests(self, sighting: Detection, moving: np.ndarray) -> bool:
        """A card in the hand sweeping past is not on the pile: its own area must be still."""
        mask = self.motion.mask(sighting.corners, 1.0)
        return bool(mask.any()) and float(moving[mask].mean()) <= self.config.still_fraction
