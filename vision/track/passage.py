"""Whether something passed over the top card: the first half of "a card was laid".

The middle of the top card's face, on the small grey frame, is compared with
how it looked when the card was last seen. It is **hidden** when it changed
and is not found again a little slid from where it was found in the frame
before (a nudged pile slides its top face a fraction of a pixel per frame and
is never hidden). Much of the card changed while its middle still shows
means something lies over it (a card carried in fast, seen once over the
top card's edge).

A card of the top card's kind laid almost exactly on it hides nothing that
looks different: the face carried in *is* the face below. It shows itself
as that face seen **beside its place and then back at it**: found a few
pixels off while in flight, then home again as it lands. Seen a quarter of
a card off (farther than a nudge moves a pile), it was in flight, and it
lands wherever it then rests nearby, a few millimetres off as well. A
nudged pile's face moves away and stays there; a hand passing over shows
no face at all.

Laid fast and almost exactly on it (a millimetre, a degree), the twin shows
neither: its face covers the same face where it was. Only the fingers laying
it **touch** the top card, changing part of its middle; its face, registered
once the hand has gone, then lies a fraction of a millimetre off. A pile
nudged as far is seen sliding a whole small pixel on the way, and a hand
passing over leaves the face where it was.
"""
from __future__ import annotations

import numpy as np

from ..recognize.types import Detection
from .config import TrackerConfig
from .motion import Motion


class Passage:
    """The :class:`~vision.track.tracker.FlipTracker`'s watch over its top
    card, over the tracker's own state."""

    config: TrackerConfig
    motion: Motion
    top: Detection | None
    reference: np.ndarray | None  # small grey frame when ``top`` was last seen
    region: np.ndarray | None     # mask of ``top`` on the small grey frame
    middle: np.ndarray | None     # mask of the middle of ``top``
    slide: np.ndarray             # where the middle was last found, slid (small pixels)
    aside: bool   # the top card's face was seen beside its place since it was last seen there
    aside_far: bool  # ... at least ``aside_reach`` from it (not just a whole pixel, with its middle hidden)
    flown: bool  # ... at least ``flight_reach`` from it: farther than any nudge moves a pile
    twin_landed: bool  # ... and then back at its place: a card of its kind was carried in and laid on it
    touched: bool  # part of its middle changed, the rest where it lay, after it rested untouched (or unsettled)
    slid: float    # how far its face was found slid at most since it was last seen (small pixels; 0: never)
    face_clear: bool  # its face was taken with nothing on or around it
    rested: bool      # nothing moved near it for ``touch_rest`` before this frame
    calm_since: float | None  # since when nothing moved near it, settled (None: something does)
    near: np.ndarray | None  # mask of ``top`` grown by ``quiet_margin``
    settled: bool
    covered: bool  # the middle of the top card was hidden since it was last seen (and could be trusted)

    @property
    def pushed(self) -> bool:
        """Whether its face was found slid a whole small pixel or more since it was last seen."""
        return self.slid > 0

    def _seen_again_untouched(self, sighting: Detection, buried: bool) -> bool:
        """Whether ``sighting`` is the settled top card seen where it lay after
        something covered it without touching or pushing it: a hand that
        passed over it, or held the next card by it, and laid nothing yet."""
        return not buried and self.settled and self.covered and not self.touched and not self.pushed and \
            self.top is not None and sighting.card == self.top.card and \
            sighting.pose_distance(self.top) <= self.config.agree_tolerance

    def _hidden(self, small: np.ndarray, before: np.ndarray | None, middle: np.ndarray | None) -> bool:
        """Whether the ``middle`` of a card no longer looks as it did in ``before``."""
        if before is None or middle is None or not middle.any():
            return False
        changed = self.motion.changed(small, before)[middle]
        return float(changed.mean()) > self.config.covered_fraction

    def _top_hidden(self, small: np.ndarray) -> bool:
        """Whether the middle of the top card is hidden: changed, and not
        found again slid a little from where it was found last (a nudged pile
        still shows its top face); or its face came back to its place after
        being seen beside it (its twin landed on it)."""
        assert self.top is not None
        if self.reference is None or self.middle is None or self.region is None:
            return False
        width = self.top.width * self.motion.scale
        if self.flown and self._came_back(small, width):
            return True  # a twin carried in landed: its middle is moved, whether or not much changed
        if not self._hidden(small, self.reference, self.middle):
            self.slide[:] = 0
            disturbed = self._disturbed(small)
            if disturbed:
                self._note_touch(small, width)
            if not self.aside and disturbed:
                self._look_aside(small, width)  # a twin about to land shows its face a pixel or two off
            return self._came_back(small, width) or (self._overlaid(small) and not self._sliding(small, width))
        found = self.motion.find_again(small, self.reference, self.middle, self.slide,
                                       self.config.visible_step * width)
        if found is False:  # too plain to find: its change decides
            return True
        # a nudged pile slides its face a step at a time; a card carried in fast jumps it (to a pixel:
        # the search is in whole pixels)
        jumped = found is not None and \
            float(np.linalg.norm(found - self.slide)) > self.config.visible_step * width + self.config.visible_jump
        if found is None or jumped or float(np.linalg.norm(found)) > self.config.visible_reach * width:
            self._look_aside(small, width)
            return True
        self._note_aside(found, width, hidden=True)
        self.slide = found
        self._note_slid(found)
        # slid: a nudged pile, fingers on its edge; else its middle shows, but something may lie over the rest
        return (not found.any() and self._came_back(small, width)) or (not found.any() and self._overlaid(small))

    def _note_calm(self, moving: np.ndarray, now: float) -> None:
        """Whether the top card, settled, rested with nothing moving near it
        for ``touch_rest`` (``rested``): while things move near it, whether
        it had when they began to."""
        if self.settled and self.near is not None and float(moving[self.near].mean()) <= self.config.still_fraction:
            self.calm_since = now if self.calm_since is None else self.calm_since
            self.rested = now - self.calm_since >= self.config.touch_rest
        else:
            self.calm_since = None

    def _note_touch(self, small: np.ndarray, width: float) -> None:
        """Part of the top card's middle changed though it shows where it
        lay: something touched the card (fingers laying its twin on it
        almost exactly, or pushing the pile). It counts only on a card whose
        face was taken with nothing on or around it and that rested before
        things began to move near it, or was reported while they did (the
        next hand came at once, as the last one left). (Fingers leaving a
        card just laid touch it too; a face taken while they held it does
        not register cleanly, which the twin's judgement asks.) Its face
        found slid a whole small pixel is the pile pushed."""
        assert self.reference is not None and self.middle is not None
        if self.face_clear and (self.rested or not self.settled):
            self.touched = True
        if self.pushed:
            return  # known already: no search, on every frame the hand stays
        found = self.motion.find_again(small, self.reference, self.middle, np.zeros(2, np.float32),
                                       self.config.visible_reach * width)
        if isinstance(found, np.ndarray):
            self._note_slid(found)

    def _overlaid(self, small: np.ndarray) -> bool:
        """Whether much of the top card differs from its last view though its
        middle shows where it was: something lies over it (a card carried in
        fast lands at once, seen once beside its place, over the edge of the
        top card)."""
        assert self.reference is not None and self.region is not None
        return float(self.motion.changed(small, self.reference)[self.region].mean()) > self.config.overlaid_fraction

    def _sliding(self, small: np.ndarray, width: float) -> bool:
        """Whether the top card's middle, little changed, shows slid a pixel
        or so from its place: the whole card is being pushed (a nudge), so
        its changing does not mean something lies over it."""
        assert self.reference is not None and self.middle is not None
        found = self.motion.find_again(small, self.reference, self.middle, self.slide,
                                       self.config.visible_step * width)
        if not isinstance(found, np.ndarray) or not found.any():
            return False
        self.slide = found
        self._note_slid(found)
        return True

    def _note_slid(self, found: np.ndarray) -> None:
        """The top card's middle was found ``found`` (small pixels) from its place, not hidden."""
        self.slid = max(self.slid, float(np.linalg.norm(found)))

    def _disturbed(self, small: np.ndarray) -> bool:
        """Whether some of the top card's middle differs from its last view."""
        assert self.reference is not None and self.middle is not None
        return float(self.motion.changed(small, self.reference)[self.middle].mean()) > self.config.still_fraction

    def _note_aside(self, found: np.ndarray, width: float, hidden: bool = False) -> None:
        """The face found ``found`` (small pixels) from its place: beside it
        when at least ``aside_reach`` of a card's width, or, while its middle
        is ``hidden`` (much of it changed), a whole pixel: a twin held by the
        fingers that lay it, a pixel off until they let go. (A nudged pile's
        face moves away and stays there; it is not seen back at its place.)"""
        distance, reach = float(np.linalg.norm(found)), self.config.aside_reach * width
        if distance >= reach or (hidden and distance >= 1.0):
            self.aside = True
            self.aside_far = self.aside_far or distance >= reach
            self.flown = self.flown or distance >= self.config.flight_reach * width

    def _look_aside(self, small: np.ndarray, width: float) -> None:
        """The middle is not where it was: is the face (a twin in flight) nearby?"""
        assert self.reference is not None and self.middle is not None
        found = self.motion.find_again(small, self.reference, self.middle, np.zeros(2, np.float32),
                                       self.config.arrival_reach * width, self.config.aside_match)
        if isinstance(found, np.ndarray):
            self._note_aside(found, width)

    def _came_back(self, small: np.ndarray, width: float) -> bool:
        """Whether the face, seen beside its place, shows at its place again:
        its twin landed there (a nudged pile's face does not come back). Seen
        only a whole pixel off, it may as well have been the card itself
        under a passing hand: the pile counts as covered, and registering the
        face (:meth:`_face_moved`) tells whether another card lies there."""
        if not self.aside:
            return False
        assert self.reference is not None and self.middle is not None
        # a face seen farther off than a nudge moves a pile was carried in: it lands where the
        # hand lays it, a few millimetres from the card below as often as exactly on it
        reach = self.config.visible_reach * width if self.flown else 1.0
        found = self.motion.find_again(small, self.reference, self.middle, np.zeros(2, np.float32), reach)
        if isinstance(found, np.ndarray) and (self.flown or not found.any()):
            # a twin once seen landing stays landed when the face, settling, is seen off and back again
            self.aside, self.twin_landed = False, self.twin_landed or self.aside_far
            self.aside_far = self.flown = False
            return True
        return False
