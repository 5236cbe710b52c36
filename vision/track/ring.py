"""Whether anything lies around a card: the second half of "a card was laid".

A hand holding a card still is not motion, so "nothing moves around it" is
not enough to call a card undisturbed. The ring just outside the card (from
``bare_gap`` to ``bare_margin`` of its size) must also look as it did when
the pile last rested: a card laid on the pile changes nothing outside its
own outline, a hand or an arm does. The ring is judged on the whole and side
by side (:meth:`~vision.track.motion.Motion.busiest_side`: a wrist over one
side of a card is a tenth of the ring and a third of that side), and it also
counts as bare where it shows the empty table. It is compared in grey and
in tint (:meth:`~vision.track.motion.Motion.tint`): a brown hand on brown
wood, or a pale one on a pale cloth, is about the table's grey but not its
colour.
"""
from __future__ import annotations

import numpy as np

from ..recognize.types import Detection
from .config import TrackerConfig
from .motion import Motion


class Surroundings:
    """The :class:`~vision.track.tracker.FlipTracker`'s look at the ring
    around a card, over the tracker's own state."""

    config: TrackerConfig
    motion: Motion
    top: Detection | None
    settled: bool
    scene: np.ndarray | None       # the small grey frame of the pile when it last rested
    scene_tint: np.ndarray | None  # ... and its tint (see :meth:`~vision.track.motion.Motion.tint`)
    scene_valid: bool              # ``scene`` shows the pile as it was just before the top card was laid
    background: np.ndarray | None  # the first frame, small and grey
    background_tint: np.ndarray | None
    frame: np.ndarray | None       # the latest frame

    def _bare(self, sighting: Detection, small: np.ndarray) -> bool:
        """Whether nothing lies on or around ``sighting`` (see ``_ring_clear``),
        or there is no view of the pile to tell."""
        return self._ring_clear(sighting, small) is not False

    def _ring_clear(self, sighting: Detection, small: np.ndarray) -> bool | None:
        """Whether the surroundings of ``sighting`` (a ring ``bare_margin``
        wide just outside it) look as when the pile last rested: a card laid
        on the pile changes nothing outside its own outline, while a hand
        resting on it (holding it still, so nothing moves) covers some of the
        ring too. A partial outline (read with a hand on the card) also fails.
        The ring is judged on the whole and on each side, and also counts as
        bare when it shows the empty table (the first frame). None when there
        is no view of the pile to compare with and the table differs."""
        if self.scene is None:
            return None
        ring = self.motion.mask(sighting.corners, 1 + self.config.bare_margin) & \
            ~self.motion.mask(sighting.corners, 1 + self.config.bare_gap)
        if not ring.any():
            return None
        # the scene shows the pile under the top card (if that was laid on a settled pile), and the
        # top card itself once it settled; a card laid since is not in it. The pile may also have last
        # rested with a hand beside it that has gone since. The empty table shows the ring as well,
        # where nothing of the pile spreads that far.
        on_top = self.top is not None and sighting.card == self.top.card and \
            sighting.pose_distance(self.top) <= self.config.agree_tolerance
        usable = self.top is None or self.settled or (on_top and self.scene_valid)
        if (usable and self._ring_unchanged(small, self.scene, self.scene_tint, ring, sighting)) or \
                (self.background is not None and
                 self._ring_unchanged(small, self.background, self.background_tint, ring, sighting)):
            return True
        return False if usable else None

    def _ring_unchanged(self, small: np.ndarray, view: np.ndarray, tint: np.ndarray | None, ring: np.ndarray,
                        sighting: Detection) -> bool:
        """Whether ``ring`` (around ``sighting``) looks in ``small`` as in
        ``view`` (of ``tint``), in grey and in tint, on the whole and on each side."""
        changed = self.motion.changed(small, view)
        if not self._ring_bare(changed, ring, sighting):
            return False  # changed in grey already: the tint can only add to that
        now = None if self.frame is None else self.motion.tint(self.frame)
        tinted = self.motion.tint_changed(now, tint, small, view)
        return tinted is False or self._ring_bare(changed | tinted, ring, sighting)

    def _ring_bare(self, changed: np.ndarray, ring: np.ndarray, sighting: Detection) -> bool:
        """Whether few enough of ``ring``'s pixels are ``changed``, on the whole and on each side."""
        return float(changed[ring].mean()) <= self.config.bare_fraction and \
            self.motion.busiest_side(changed, ring, sighting.corners) <= self.config.bare_side_fraction
