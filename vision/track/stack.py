"""The cards under the top one, to tell a card lifted off the pile (and put
back) from cards laid.

Lifting the top card shows the card below it, exactly where it lay when it
was on top: that is no new card, and neither is the lifted card put back
where it was. A card laid on the pile lies elsewhere than any card before it
(its face registered on theirs shows the move), so it is never taken for
one uncovered.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import numpy as np

from companion.engine import one_of_a_kind

from ..recognize.types import Detection
from .config import TrackerConfig
from .faces import Face, carried_face, face_shift


@dataclass(frozen=True)
class Laid:
    """A card that was on top: its last sighting and its face as last seen settled."""

    sighting: Detection
    face: Face | None
    clear: bool = False  # the face was taken with nothing on or around the card


class Stack:
    """The cards below the top one, most recent last (bounded), and the card
    last lifted off the pile, until it is put back or another card is laid."""

    def __init__(self, config: TrackerConfig) -> None:
        self.config = config
        self.below: deque[Laid] = deque(maxlen=config.stack_depth)
        self.lifted: Laid | None = None

    def covered_by_new(self, top: Laid | None) -> None:
        """A new card was laid on ``top``."""
        if top is not None:
            self.below.append(top)
        self.lifted = None

    def uncovers(self, sighting: Detection, frame: np.ndarray | None, top: Detection, exactly: bool = False,
                 held: bool = False) -> bool:
        """Whether ``sighting`` is the card below the ``top`` one, where it
        lay: the top card was lifted off. Its face registered on its last
        settled view must not have moved (a card laid since lies elsewhere),
        to a fraction of a pixel when it is of the top card's kind (a run of
        cards laid almost exactly on each other, unless the top card was seen
        lifted); with no such view, its outline must not have. ``exactly``:
        registered cleanly (``face_sure_match``), within what a card of its
        kind laid on the top one would move (``face_shift``), and never by the
        outline alone. Registered face on face (``twin_face_match``: no hand
        blurs the view), it must lie that exactly too. ``held``: the top card
        is seen held beside the pile, as though lifted off (its face may
        register only loosely, ``face_loose_match``)."""
        if not self.below or frame is None:
            return False
        under = self.below[-1]
        if under.sighting.card != sighting.card:
            return False
        if under.face is not None:
            shift = face_shift(under.face, frame, sighting, self.config)
            # a hand holding the top card beside the pile may lie over part of the card below
            if shift is not None and shift.match >= (self.config.face_loose_match if held else self.config.face_match):
                # a card of the top's kind within a fraction of a pixel may be one laid on the top card, unless
                # the top card was just seen lifted off (a hand and a card held nearby blur the registration)
                fine = top.card == sighting.card and self.lifted is None and not held
                if exactly and shift.match < self.config.face_sure_match:
                    return False  # a view blurred so cannot tell a fraction of a pixel
                # registered face on face, nothing blurs it: a card laid as little as its kind is told
                clean = exactly or shift.match >= self.config.twin_face_match
                least = self.config.uncovered_shift if fine else \
                    self.config.face_shift if clean else self.config.unclear_face_shift
                return not shift.turned and shift.moved <= least
        return not exactly and sighting.pose_distance(under.sighting) <= self.config.pose_tolerance

    def carry(self, warp: np.ndarray) -> None:
        """The pile was pushed by ``warp`` (frame pixels, 2x3): the cards
        below the top one went along, and lie where it took them."""
        self.below = deque((_carried(laid, warp) for laid in self.below), maxlen=self.below.maxlen)

    def puts_back(self, sighting: Detection) -> bool:
        """Whether ``sighting`` is the card lifted off, put back about where it
        lay, or anywhere when the game holds only that one (an order)."""
        lifted = self.lifted
        return lifted is not None and lifted.sighting.card == sighting.card and \
            (one_of_a_kind(sighting.card) or sighting.pose_distance(lifted.sighting) <= self.config.agree_tolerance)

    def lift(self, top: Laid) -> Laid:
        """``top`` was lifted off: the card below it is on top again (returned)."""
        self.lifted = top
        return self.below.pop()

    def put_back(self, top: Laid) -> None:
        """The lifted card was put back on ``top``."""
        self.below.append(top)
        self.lifted = None

    def clear(self) -> None:
        self.below.clear()
        self.lifted = None


def _carried(laid: Laid, warp: np.ndarray) -> Laid:
    """``laid`` moved by ``warp`` (frame pixels, 2x3)."""
    corners = (np.c_[laid.sighting.corners, np.ones(4)] @ warp.T).astype(np.float32)
    face = None if laid.face is None else carried_face(laid.face, warp)
    return Laid(Detection(laid.sighting.match, corners), face, laid.clear)
