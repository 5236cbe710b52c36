"""A card seen on the pile but not yet reported: its sightings, and when
another card's sighting shows it landed all the same."""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

import numpy as np

from companion.engine import Card

from .config import TrackerConfig
from .faces import Face
from ..recognize.types import Detection


@dataclass
class Dispute:
    """Sightings of a card not yet reported, oldest first (bounded)."""

    sightings: deque[Detection]
    since: float
    votes: dict = field(default_factory=dict)  # card -> summed confidence
    view: np.ndarray | None = None     # the small grey frame of the latest sighting
    middle: np.ndarray | None = None   # mask of the latest sighting's middle
    face: Face | None = None           # the latest sighting's face, to tell whether it moved since
    covered: bool = False              # that middle was hidden since
    bare: bool = False                 # a sighting was made with nothing on or around the card
    released: bool = False             # since the latest sighting, nothing was seen on or around the card
    fresh: bool = False                # the latest sighting, when made, showed another card than the top one
    restacked: bool = False            # ... or the card below the top one uncovered, or one put back
    uncovered: Card | None = None      # a card some sighting showed as the card below the top one, uncovered
    clear: bool = False                # ... and was seen with nothing on or around it (not just for want of a view)

    def add(self, sighting: Detection) -> None:
        self.sightings.append(sighting)
        self.votes[sighting.card] = self.votes.get(sighting.card, 0.0) + sighting.confidence

    def agreeing(self, tolerance: float) -> int:
        """How many of the latest sightings in a row show the last one's card in its pose."""
        last, count = self.sightings[-1], 0
        for s in reversed(self.sightings):
            if s.card != last.card or s.pose_distance(last) > tolerance:
                break
            count += 1
        return count

    def favourite(self) -> Detection:
        """The latest sighting of the card with the most confidence overall."""
        card = max(self.votes, key=self.votes.get)
        return next(s for s in reversed(self.sightings) if s.card == card)

    def confidence(self) -> float:
        """Mean confidence of the sightings of the favourite, scaled by its share of all votes."""
        best = self.favourite().card
        mine = [s.confidence for s in self.sightings if s.card == best]
        share = self.votes[best] / max(1e-9, sum(self.votes.values()))
        return float(np.mean(mine)) * share

    def interrupted_by(self, sighting: Detection, config: TrackerConfig) -> bool:
        """Whether ``sighting`` shows another card in another pose than the
        disputed one, which landed all the same: another kind, or the same
        kind after something covered the disputed card."""
        last = self.sightings[-1]
        other = last.card != sighting.card or self.covered  # covered: perhaps the same kind again
        if not other or sighting.pose_distance(last) <= config.pose_tolerance:
            return False
        if last.card == sighting.card and last.encloses(sighting, config.merged_growth, config.merged_margin):
            return False  # the fingers that held it have gone
        if self.agreeing(config.agree_tolerance) >= config.agree:
            # a card only read with a hand on it may just read otherwise once the hand is gone
            return self.covered or self.bare or self.released
        # read only once, but lying free where the top card was not, and then something passed over it: in
        # a fast flip the next card is laid before a second look
        return self.covered and self.clear and self.fresh
