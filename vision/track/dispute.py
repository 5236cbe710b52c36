"""A card seen on the pile but not yet reported: its sightings, and when
another card's sighting shows it landed all the same."""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

import numpy as np

from companion.engine import Card, one_of_a_kind

from .config import TrackerConfig
from .faces import Face, Shift, face_shift
from ..recognize.types import Detection


def either_possible(a: Detection, b: Detection) -> bool:
    """Whether one of two readings left the other's card among the faces it
    might be: they may be one card read twice, once wrongly."""
    return a.card in b.match.candidates or b.card in a.match.candidates


@dataclass
class Dispute:
    """Sightings of a card not yet reported, oldest first (bounded)."""

    sightings: deque[Detection]
    since: float
    votes: dict = field(default_factory=dict)  # card -> summed confidence
    view: np.ndarray | None = None     # the small grey frame of the latest sighting
    middle: np.ndarray | None = None   # mask of the latest sighting's middle
    face: Face | None = None           # the card's face as last seen clear (else the latest), to tell whether it moved
    face_clear: bool = False           # ... taken with nothing on or around the card
    covered: bool = False              # that middle was hidden since
    stirred: bool = False              # something moved over the pile since the latest sighting
    top_passed: bool = False           # ... and hid the middle of the card on top
    bare: bool = False                 # a sighting was made with nothing on or around the card
    released: bool = False             # since the latest sighting, nothing was seen on or around the card
    fresh: bool = False                # the latest sighting, when made, showed another card than the top one
    fresh_looks: int = 0               # ... and so did this many sightings in a row up to it
    restacked: bool = False            # ... or the card below the top one uncovered, or one put back
    uncovered: Card | None = None      # a card some sighting showed as the card below the top one, uncovered
    clear: bool = False                # ... and was seen with nothing on or around it (not just for want of a view)
    places: deque[int] = field(init=False)  # per sighting: sightings of one face, unmoved, share one
    _registered: tuple = field(default=(None, None, None), repr=False)  # (frame, sighting, shift) last registered

    def __post_init__(self) -> None:
        self.places = deque(range(len(self.sightings)), maxlen=self.sightings.maxlen)

    def add(self, sighting: Detection, in_place: bool = False) -> None:
        """``in_place``: the latest sighting's face registered unmoved on this
        one, however their outlines differ."""
        self.sightings.append(sighting)
        self.votes[sighting.card] = self.votes.get(sighting.card, 0.0) + sighting.confidence
        last = self.places[-1] if self.places else -1
        self.places.append(last if in_place else last + 1)

    def agreeing(self, tolerance: float) -> int:
        """How many of the latest sightings in a row show the last one's card
        in its pose, or its face where it lay (an outline taking in the card
        below part of the time, the face itself never moving)."""
        last, place, count = self.sightings[-1], self.places[-1], 0
        for s, at in zip(reversed(self.sightings), reversed(self.places)):
            if s.card != last.card or (s.pose_distance(last) > tolerance and at != place):
                break
            count += 1
        return count

    def favourite(self) -> Detection:
        """The latest sighting of the card with the most confidence overall."""
        card = max(self.votes, key=self.votes.get)
        return next(s for s in reversed(self.sightings) if s.card == card)

    def named(self, sighting: Detection, least_margin: float) -> Detection:
        """``sighting``, or, when its reading left other cards possible (it
        is unsure), the latest sighting of this dispute that named one of
        them with no other possible, at least ``least_margin`` ahead of every
        other card: a closer look told that card where this one could not (a
        card of a printing whose faces differ in a thin frame, read with its
        outline a little off)."""
        if not sighting.match.candidates:
            return sighting
        return next((s for s in reversed(self.sightings) if not s.match.candidates and
                     s.match.margin >= least_margin and s.card in sighting.match.candidates), sighting)

    def confidence(self, card: Card | None = None) -> float:
        """Mean confidence of the sightings of ``card`` (default: the
        favourite), scaled by its share of all votes."""
        best = self.favourite().card if card is None else card
        mine = [s.confidence for s in self.sightings if s.card == best]
        share = self.votes[best] / max(1e-9, sum(self.votes.values()))
        return float(np.mean(mine)) * share

    def interrupted_by(self, frame: np.ndarray, sighting: Detection, config: TrackerConfig) -> bool:
        """Whether ``sighting`` shows another card in another pose than the
        disputed one, which landed all the same: another kind, or the same
        kind after something covered the disputed card. In the same pose,
        only another kind where the disputed card was read with nothing on
        or around it before something passed over it, alike twice or once
        when neither reading left the other's card possible: a reading made
        under a hand may be wrong, two clear ones (or one sure of itself,
        a fast flip leaving time for no more) are that card."""
        last = self.sightings[-1]
        other = last.card != sighting.card or self.covered  # covered: perhaps the same kind again
        if not other:
            return False
        if sighting.pose_distance(last) <= config.pose_tolerance:
            # laid square on it: another kind where one was read in the clear, then passed over
            if last.card == sighting.card or not (self.covered and self.clear):
                return False
            return self.agreeing(config.agree_tolerance) >= config.agree or \
                (self.fresh and not either_possible(last, sighting))
        if self.encloses(sighting, config) and not self.moved_cleanly(frame, sighting, config):
            return False  # the fingers that held it have gone
        if self.agreeing(config.agree_tolerance) >= config.agree:
            # a card only read with a hand on it may just read otherwise once the hand is gone
            return self.covered or self.bare or self.released
        # read only once, but lying free where the top card was not, and then something passed over it: in
        # a fast flip the next card is laid before a second look
        return self.covered and self.clear and self.fresh

    def unmoved(self, frame: np.ndarray, sighting: Detection, config: TrackerConfig,
                match: float | None = None) -> bool:
        """Whether ``sighting``, of the disputed card's kind, shows that very
        card: its face, registered on the disputed face (at ``match``,
        by default ``face_match``), has not moved (a hand leaving it changes
        its middle and its outline, not its face)."""
        shift = self._shift(frame, sighting, config)
        least = config.face_shift if self.face_clear else config.unclear_face_shift
        return shift is not None and shift.match >= (config.face_match if match is None else match) and \
            not shift.turned and shift.moved <= least

    def twin_laid_on(self, frame: np.ndarray, sighting: Detection, config: TrackerConfig) -> bool:
        """Whether ``sighting``, of the disputed card's kind, is another card
        of that kind laid on it, near or a few degrees off (a hand laying it
        fast may only touch the disputed card, so nothing is seen covering
        it): the disputed card was a new card, something moved over the pile
        since, and its face, taken with nothing on or around it and
        registered on it cleanly (``twin_face_match``: not a card settling
        as the fingers leave it), moved, or it lies turned half round (at
        ``face_match``).
        The settled top card has the same test (the touch of
        :mod:`vision.track.passage`); a card laid fast may still be disputed
        when the next one lands on it."""
        if not (self.fresh and self.stirred) or one_of_a_kind(sighting.card):
            return False
        shift = self._shift(frame, sighting, config)
        if shift is None:
            return False
        if shift.turned:  # no hand turns a card half round in place: laid the other way up on it
            return shift.match >= config.face_match
        # a face taken with something by the card may be of a card still held, or of the top card
        # read again as the hand leaves it: only a clear one is trusted to have moved
        return self.moved_cleanly(frame, sighting, config, config.twin_face_match)

    def encloses(self, sighting: Detection, config: TrackerConfig) -> bool:
        """Whether the latest sighting is ``sighting``'s card with fingers (or
        a shadow) merged into its outline."""
        last = self.sightings[-1]
        return last.card == sighting.card and last.encloses(sighting, config.merged_growth, config.merged_margin)

    def in_place(self, frame: np.ndarray, sighting: Detection, config: TrackerConfig) -> bool:
        """Whether ``sighting``, read with another outline than the latest
        sighting, is that card where it lay, by its face: taken clear, it
        registers on ``sighting`` cleanly (``face_sure_match``) and unmoved."""
        if not self.sightings or sighting.card != self.sightings[-1].card:
            return False
        if sighting.pose_distance(self.sightings[-1]) <= config.agree_tolerance:
            return False  # the outlines agree already
        return self.face_clear and self.unmoved(frame, sighting, config, config.face_sure_match)

    def moved_cleanly(self, frame: np.ndarray, sighting: Detection, config: TrackerConfig,
                      match: float | None = None) -> bool:
        """Whether the disputed face, taken clear, registers cleanly where
        ``sighting`` lies (at ``match``, by default ``face_sure_match``) and
        moved: fingers leaving a card change its outline, not where its face
        lies."""
        shift = self._shift(frame, sighting, config)
        return self.face_clear and shift is not None and not shift.turned and \
            shift.match >= (config.face_sure_match if match is None else match) and shift.moved > config.face_shift

    def _shift(self, frame: np.ndarray, sighting: Detection, config: TrackerConfig) -> Shift | None:
        """The disputed card's face registered where ``sighting`` lies in
        ``frame``; None when ``sighting`` is of another kind or there is no
        face. Asked twice a look: registered once."""
        if self.face is None or sighting.card != self.sightings[-1].card:
            return None
        seen_frame, seen, shift = self._registered
        if seen_frame is not frame or seen is not sighting:
            shift = face_shift(self.face, frame, sighting, config)
            self._registered = (frame, sighting, shift)
        return shift
