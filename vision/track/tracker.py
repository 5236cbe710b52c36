"""Following the oven pile as it is flipped: frames in, one event per card.

The tracker is a pure, incremental state machine (no I/O, no clock: frame
times come from the caller). Per frame it does only cheap work on a small
grey copy (:mod:`vision.track.motion`): how much of the top card's region
moved since a moment ago (``still``), whether the frame is blurred, and
whether the middle of the top card still looks as it did when the card was
last seen (``covered``: a hand or the next card passed over it). Recognition, the costly step, runs only
when the pile region rests and something happened since the last look, on
a crop around the pile (the whole frame until a pile is known): when, where
and how is :mod:`vision.track.looking`.

A sighting counts only if the card's own area rests and its outline has the
pile's usual size and shape (a hand over a card makes the outline grow or
shrink). A card is reported when two sightings agree (same card, same pose)
and either nothing moved around it for a moment or they are confident, or
at once when one sighting is very sure; a card still disputed after
``max_wait`` is reported with its runner-up so the player can be asked.
A card read only once, lying free, and then covered by the next card landed
all the same (a fast flip leaves time for a single look): the disputes are
in :mod:`vision.track.dispute`.

Whether a sighting is a new card or the top card seen again is
:mod:`vision.track.sameness`.

A hand holding a card still is not motion, so "nothing moves around it" is
not enough to call a card undisturbed: the ring just outside the card must
also look as when the pile last rested (:mod:`vision.track.ring`). An unsure
card read while a hand holds it waits for the hand to go, and if it then
reads otherwise the reading under the hand is dropped.
"""
from __future__ import annotations

from collections import deque
from dataclasses import replace
import numpy as np

from companion.engine import Card

from ..recognize.types import Detection
from ..threads import one_thread
from .config import DEFAULT_TRACKER_CONFIG, TrackerConfig
from .dispute import Dispute
from .faces import Face, face_of
from .motion import Motion
from .looking import Looking, Recognise
from .pile import UsualSize
from .passage import Passage
from .ring import Surroundings
from .sameness import Sameness
from .stack import Stack
from .types import Landing

__all__ = ["FlipTracker", "Recognise"]


class FlipTracker(Looking, Sameness, Passage, Surroundings):
    """Reports each card laid on the pile, in order; see the module doc."""

    name = "vision.track"

    def __init__(self, recognise: Recognise, config: TrackerConfig = DEFAULT_TRACKER_CONFIG,
                 fps: float | None = None, finer: Recognise | None = None) -> None:
        """``finer``: ``recognise`` at a finer scale and smoothing, for where
        a card should lie and none was found (see :meth:`_search`)."""
        self.recognise, self.config, self.finer = recognise, config, finer
        self.fps = fps or config.default_fps
        self.index = -1
        self.motion = Motion(config)
        self.top: Detection | None = None      # the card last reported (or re-seen) on top
        self.reference: np.ndarray | None = None  # small grey frame when ``top`` was last seen
        self.region: np.ndarray | None = None     # mask of ``top`` on the small grey frame
        self.middle: np.ndarray | None = None     # mask of the middle of ``top``
        self.covered = False  # the middle of the top card was hidden since it was last seen
        self.dirty = True     # something moved since the last recognition
        self.dispute: Dispute | None = None
        self.misses = 0       # searches around the pile that found nothing, in a row
        self.last_search = -np.inf
        self.recognitions = 0
        self.background: np.ndarray | None = None  # the first frame, small and grey
        self.background_tint: np.ndarray | None = None  # ... and its tint (see ``Motion.tint``)
        # small grey frame of the last time the pile was seen with nothing on or around it (at first the
        # empty table): a card just laid changes nothing outside its outline, a hand holding it still does
        self.scene: np.ndarray | None = None
        self.scene_tint: np.ndarray | None = None
        self.decided_at = -np.inf  # when the top card was reported
        self.scene_valid = True  # ``scene`` shows the pile as it was just before the top card was laid
        self.buried = False  # the top card was reported as the next one covered it: it shows no more
        self.size = UsualSize(config)
        self.settled = False  # the top card was last seen with nothing moving or resting around it
        # the top card was seen with nothing resting around it (things may still move nearby): no fingers
        # on it, so its middle changing since is something passing over it, not fingers leaving it
        self.clear = False
        # the middle of the top card was hidden since it was reported, whether or not that can be trusted
        # (fingers leaving it hide nothing of its face, yet may change its middle)
        self.passed = False
        self.frame: np.ndarray | None = None  # the latest frame (as given: only a reference is kept)
        self.face: Face | None = None  # the top card's face as last seen settled, to register later views on
        self.face_clear = False  # ... seen with nothing on or around the card (not for want of a view)
        self.stack = Stack(config)  # the cards below the top one, and one lifted off the pile
        self.slide = np.zeros(2, np.float32)  # where the top card's middle was last found, slid (small pixels)
        self.aside = False    # the top card's face was seen beside its place (see :mod:`vision.track.passage`)
        self.aside_far = False  # ... farther than a whole pixel
        self.flown = False  # ... farther than a nudge moves a pile
        self.twin_landed = False  # ... and then back at it: a card of its kind landed on it
        self.lifting = False  # the top card was seen lifted off since the last card was laid
        self.touched, self.slid = False, 0.0  # see :mod:`vision.track.passage`
        self.calm_since: float | None = None  # since when nothing moved near the settled top card
        self.rested = False
        self.near: np.ndarray | None = None  # mask of ``top`` grown by ``quiet_margin``

    # -- per frame -------------------------------------------------------------------------
    def feed(self, frame: np.ndarray, time: float | None = None) -> list[Landing]:
        """Take the next frame (BGR, any size) and its time in seconds (default:
        its index at the configured rate); return the cards that landed."""
        with one_thread():
            return self._feed(frame, time)

    def _feed(self, frame: np.ndarray, time: float | None) -> list[Landing]:
        self.index += 1
        now = self.index / self.fps if time is None else float(time)
        self.frame = frame
        small = self.motion.small(frame)
        if self.motion.resized(small):  # the source changed resolution: start afresh
            self._forget_regions()
        moving = self.motion.feed(small, now)
        if moving is None:
            self.background = small  # the table before anything happened
            self.background_tint = self.motion.tint(frame)
            self._rest(small)
            return []
        self._note_calm(moving, now)
        if self.top is not None and not self.buried and self._top_hidden(small):
            self.passed = True
            self.covered = self.covered or self.settled or self.clear
            if self.dispute is not None:
                self.dispute.top_passed = True
            self._note_lift(small=small)
        if self.dispute is not None:
            self._watch(self.dispute, small)
        still = self._still(moving) and not self.motion.blurred(small)
        if not still:
            self.dirty = True
            if self.dispute is not None:
                self.dispute.stirred = True
        elif self.top is not None and not self.settled and not self.buried and self._quiet_around(self.top, now):
            if self._bare(self.top, small) or now - self.decided_at >= self.config.bare_wait:
                self._settle(small)
            elif now - self.last_search >= self.config.retry_interval:
                self.dirty = True  # seen with a hand on it, the outline may be part of the card: look again
        elif self.top is not None and self.settled and not self.face_clear and not self.buried and \
                self._quiet_around(self.top, now):
            self._clear_view(small)
        events: list[Landing] = []
        if self._should_search(still, now, small):
            events += self._search(frame, small, moving, now, still)
        return events + self._overdue(small, now)

    def status(self) -> str:
        """What the tracker is doing, for a live display: ``waiting`` (no card
        yet), ``reading`` (a card seen, not yet agreed on), ``moving``
        (something moved over the pile since the last look) or ``settled``."""
        if self.dispute is not None:
            return "reading"
        if self.top is None:
            return "waiting"
        return "moving" if self.dirty else "settled"

    @property
    def top_card(self) -> Card | None:
        """The card last reported on top of the pile."""
        return self.top.card if self.top is not None else None

    def finish(self) -> list[Landing]:
        """The stream ended: a card still disputed is reported (it did land)."""
        if self.dispute is None or not self.motion.recent:
            return []
        now, small = self.motion.recent[-1]
        return self._decide(self.dispute.favourite(), small, now, self.dispute.confidence())

    # -- cheap measures on the small grey frame ----------------------------------------------
    def _still(self, moving: np.ndarray) -> bool:
        if self.region is None:  # no pile yet: a hand anywhere is a small part of the whole picture
            return float(moving.mean()) <= self.config.empty_still_fraction
        return float(moving[self.region].mean()) <= self.config.still_fraction

    def _settle(self, small: np.ndarray) -> None:
        """Nothing moves around the top card any more: if it looks as when it
        was reported, that view is the reference; if not (fingers lay on it
        then), look again before trusting it."""
        if self._as_reported(small):
            self.settled, self.reference = True, small
            self._rest(small)
            self.slide = np.zeros(2, np.float32)
            self._retake_face(self.top, self._ring_clear(self.top, small) is True)
        else:
            self.dirty = True

    def _clear_view(self, small: np.ndarray) -> None:
        """The settled top card, its face taken with something by it, lies
        now with nothing on or around it (the hand has gone) and looks as it
        did: its face is taken again, clear, to tell a twin laid on it by."""
        assert self.top is not None
        if self._as_reported(small) and self._ring_clear(self.top, small) is True:
            self.reference = small
            self._rest(small)
            self.face, self.face_clear = face_of(self.frame, self.top, self.config), True

    def _as_reported(self, small: np.ndarray) -> bool:
        """Whether the top card looks as in its reference view (nothing on it)."""
        assert self.region is not None and self.reference is not None
        return float(self.motion.changed(small, self.reference)[self.region].mean()) <= self.config.still_fraction

    def _quiet_around(self, sighting: Detection, now: float) -> bool:
        """Whether nothing moved near ``sighting`` (its outline grown by
        ``quiet_margin``) for ``quiet_time``: no hand is touching the card."""
        return self.motion.quiet(self.motion.mask(sighting.corners, 1 + self.config.quiet_margin), now)

    # -- deciding ------------------------------------------------------------------------------
    def _consider(self, sighting: Detection, small: np.ndarray, now: float) -> list[Landing]:
        events: list[Landing] = []
        clear = self._ring_clear(sighting, small)
        bare = clear is not False
        assert self.frame is not None
        twin = self.dispute is not None and self.dispute.twin_laid_on(self.frame, sighting, self.config)
        if self.dispute is not None and (twin or (self.dispute.interrupted_by(self.frame, sighting, self.config) and
                                                  not self.dispute.unmoved(self.frame, sighting, self.config))):
            # the next card covered one that was only waiting for the hand to go: it landed all the same
            fresh, covered = self.dispute.fresh, self.covered
            # an outline that enclosed it could not tell the new card laid on a card being read; its face did (a
            # nudge moves the top card seen again as cleanly)
            twin = twin or (fresh and self.dispute.encloses(sighting, self.config) and
                            self.dispute.moved_cleanly(self.frame, sighting, self.config))
            dispute = self.dispute
            events = self._decide(dispute.sightings[-1], small, now, dispute.confidence(), buried=True, new=fresh)
            # its face, taken clear, tells a twin laid on it a fraction of a millimetre off once that rests
            if dispute.face_clear:
                self.face, self.face_clear = dispute.face, True
            # ``sighting`` lies on it: a new card even if of the same kind; but a disputed card that
            # was the top card seen again (fingers by it) is that card, and its kind elsewhere now is
            # that card moved (a nudge) unless something was seen passing over it
            self.covered = fresh or covered
            self.twin_landed = twin  # laid on it: its face told, where no outline did
        elif self.dispute is not None and bare and not self.dispute.bare and \
                sighting.card != self.dispute.sightings[-1].card:
            # the card was only read with a hand on it, and reads otherwise now that the hand is gone
            self.dispute = Dispute(deque(maxlen=self.config.max_sightings), self.dispute.since)
        elif self.dispute is not None and self._read_again_before(sighting):
            # the top card was being read again when a hand came; what it brought is another matter
            self.dispute = Dispute(deque(maxlen=self.config.max_sightings), now)
        if self.dispute is None:
            self.dispute = Dispute(deque(maxlen=self.config.max_sightings), now)
        # a card lifted off is told put back by its outline (see :mod:`vision.track.stack`)
        in_place = self.stack.lifted is None and self.dispute.in_place(self.frame, sighting, self.config)
        # the same card as the latest sighting, as far as can be told before its face is registered
        same = bool(self.dispute.sightings) and self.dispute.sightings[-1].card == sighting.card
        was_fresh = self.dispute.fresh
        self.dispute.add(sighting, in_place)
        if self._seen_uncovered(sighting):
            self.dispute.uncovered = sighting.card
        # judged now, while the card shows: once the next card covers it, its face cannot be registered; the
        # card below, once seen uncovered, stays that card while the lifted one comes back over it
        self.dispute.fresh = self.dispute.uncovered != sighting.card and self._is_new(sighting)
        self.dispute.fresh_looks = self.dispute.fresh_looks + 1 if self.dispute.fresh else 0
        self.dispute.clear = clear is True
        self.dispute.restacked = not self.dispute.fresh and self.top is not None and \
            sighting.card == self.top.card and self._restacked(sighting) is not None
        self.dispute.view, self.dispute.middle = small, self.motion.mask(sighting.corners, 0.5)
        # a view with a hand by the card (perhaps bringing the next one) does not replace a clear view of the card
        # being read: registered on the clear one, a twin laid on it shows moved. A new card where the top card
        # was read again is another card, whatever its kind
        if clear is True or not (same and self.dispute.face_clear and self.dispute.fresh == was_fresh):
            self.dispute.face, self.dispute.face_clear = face_of(self.frame, sighting, self.config), clear is True
        self.dispute.covered = self.dispute.released = self.dispute.stirred = self.dispute.top_passed = False
        self.dispute.bare = self.dispute.bare or bare
        if self._judged_too_soon(sighting):
            self.dirty = True
            return events
        agreeing = self.dispute.agreeing(self.config.agree_tolerance)
        # an unsure card is reported once nothing moves near it and no hand holds it
        calm = sighting.confidence >= self.config.hurried_confidence or (self._quiet_around(sighting, now) and bare)
        if (agreeing >= self.config.agree and calm) or self._decisive(sighting):
            named = self.dispute.named(sighting, self.config.named_margin)
            events += self._decide(named, small, now, self.dispute.confidence(named.card))
        return events

    def _read_again_before(self, sighting: Detection) -> bool:
        """Whether the dispute is over the top card read again (judged no new
        card), and ``sighting``, of another card, came after something passed
        over the pile: the two are not readings of one card."""
        assert self.dispute is not None
        last = self.dispute.sightings[-1]
        return not self.dispute.fresh and self.passed and self.top is not None and \
            last.card == self.top.card and sighting.card != last.card

    def _judged_too_soon(self, sighting: Detection) -> bool:
        """Whether ``sighting``, of the top card's kind after something passed
        over the top card, was judged the same card while its face could not
        be registered: fingers holding a card laid on its twin (or turned half
        round on it) hide enough of it. So is one seen, with nothing seen
        passing over the top card, while its face shows beside its place: a
        twin still held a pixel off lands at its place when the fingers let
        go (a nudged pile's face stays where it slid: the card is judged at
        once when what lay beside it moved along, else once ``max_wait`` has
        passed). After something passed over it, the face registration
        decides at once, as for any card of its kind, unless it registers
        only loosely with a hand by it: a card lifted and put back, or
        pushed, shows moved while the hand still holds it, and the clear view
        once the hand has gone tells whether the pile moved along; the hand
        that holds a twin just laid a few millimetres off hides the old card's
        cut as a push takes it away, so a push seen so waits for that view
        too. It is judged again at the next look, once they have gone (or at
        ``max_wait``)."""
        assert self.dispute is not None
        if self.dispute.fresh and self.passed and not self.dispute.clear and self._held_by_hand(sighting):
            return True
        if self.dispute.fresh and self.touched and not self.passed and not self.dispute.clear and \
                self._touched_not_face_on_face(sighting):
            return True  # fingers resting on the card (to push it) pull its face as a twin laid on it moves it
        lifted = self.stack.lifted
        if lifted is not None and sighting.card == lifted.sighting.card and not self.dispute.clear:
            return True  # the card lifted off, being put back: where it lies shows once the hand has gone
        if self.dispute.fresh or self.top is None or sighting.card != self.top.card:
            return False
        return (self.passed and self._face_moved(sighting) is None) or \
            (self.aside and not self.passed and not self._pushed_along(sighting)) or \
            (self._held_by_hand(sighting) and self._pushed_along(sighting))

    def _touched_not_face_on_face(self, sighting: Detection) -> bool:
        """Whether ``sighting``, of the top card's kind, was judged a twin by
        a touch alone (nothing seen passing over the top card) while its face
        registers below face on face (``twin_face_match``): a hand resting on
        the card, come to push the pile, pulls the registration a little and
        spoils it a little, as a twin laid fast almost on it moves it. Judged
        once the hand has gone."""
        shift = self._shift()
        return self.top is not None and sighting.card == self.top.card and shift is not None and \
            not shift.turned and shift.match < self.config.twin_face_match

    def _watch(self, dispute: Dispute, small: np.ndarray) -> None:
        """Whether something passed over the disputed card since it was last
        seen. Changes while the card was only seen with a hand on it are the
        hand leaving, not another card arriving: covering counts from the
        first frame that shows the card without the hand."""
        if not (dispute.bare or dispute.released):
            if self._bare(dispute.sightings[-1], small):
                dispute.released, dispute.view, dispute.covered = True, small, False
        elif self._hidden(small, dispute.view, dispute.middle):
            dispute.covered = True

    def _overdue(self, small: np.ndarray, now: float) -> list[Landing]:
        """A card disputed for too long is reported with the best guess."""
        if self.dispute is None or now - self.dispute.since < self.config.max_wait or self._lifted_in_hand():
            return []
        dispute = self.dispute
        # the card below seen while the top card was held aside stays that card though the hand now covers it
        favourite = dispute.favourite()
        # judged as it was last seen: what passed over the pile since (the next hand) says nothing of it
        new = False if dispute.restacked else dispute.fresh if favourite.card == dispute.sightings[-1].card else None
        if not (new and dispute.covered):
            passed, covered = self.passed, self.covered
            events = self._decide(favourite, small, now, dispute.confidence(), new=new)
            if not events and dispute.top_passed:
                # the top card, seen again before a hand passed over it: what the hand lays is judged by that passage
                self.passed, self.covered = passed, covered
            return events
        # a new card that something passed over since: the next card may lie on it now, and its face is the
        # one last seen
        events = self._decide(favourite, small, now, dispute.confidence(), buried=True, new=True)
        self.face, self.face_clear, self.covered = dispute.face, dispute.face_clear, True
        return events

    def _lifted_in_hand(self) -> bool:
        """Whether the disputed card, judged new, is of the card lifted off
        the pile and was never seen with nothing around it: the lifted card
        held over the pile, perhaps to be put back, which only the view once
        the hand has gone tells (see :meth:`_judged_too_soon`). It waits for
        that view, however long the hand takes."""
        dispute, lifted = self.dispute, self.stack.lifted
        return dispute is not None and lifted is not None and dispute.fresh and not dispute.clear and \
            dispute.sightings[-1].card == lifted.sighting.card

    def _decisive(self, sighting: Detection) -> bool:
        """Clear enough to report at once, without a second agreeing look."""
        return sighting.confidence >= self.config.instant_confidence and \
            sighting.match.margin >= self.config.instant_margin

    def _decide(self, sighting: Detection, small: np.ndarray, now: float, confidence: float,
                buried: bool = False, new: bool | None = None) -> list[Landing]:
        """Report ``sighting`` when it is a new card (``new``: as judged when
        it was seen); either way it is now the top (``buried``: already under
        the next card, so not to be seen settled now)."""
        uncovered = self.dispute is not None and self.dispute.uncovered == sighting.card
        if new is None:
            new = not uncovered and self._is_new(sighting)
        self._restack(sighting, new, uncovered)
        if not new and self._seen_again_untouched(sighting, buried):
            # a hand passed over the settled top card and laid nothing (yet: it may bring the next
            # card): the card stays settled, with its clear views, so that the next card covering it counts
            self._forget_passage()
            return []
        clear = self._ring_clear(sighting, small)
        bare = clear is not False
        if new:
            # the scene shows the pile as it was just before this card only if the last card was settled
            self.decided_at, self.scene_valid = now, self.top is None or self.settled
            self.lifting = False
        self.top, self.reference = sighting, small
        self._forget_passage()
        self.touched, self.slid = False, 0.0
        self.calm_since, self.rested = None, False
        self.slide = np.zeros(2, np.float32)
        self.size.learn(sighting)
        # seen while a hand may still touch it, the outline and the reference are not to be
        # trusted: the next look once things rest replaces them; until then covering counts only
        # if nothing lay around the card (``clear``)
        self.settled = not buried and self._quiet_around(sighting, now) and bare
        self.buried = buried
        self.clear = bool(clear) and not buried
        if self.settled:
            self._rest(small)
            self._retake_face(sighting, self.clear, same=not new)
        elif new:  # a first view, perhaps with fingers on it: registration tells when it does not match
            self.face = None if buried else face_of(self.frame, sighting, self.config)
            self.face_clear = self.clear
        elif self._moved_untouched():
            # pushed, and nothing on it now: its view to register the next card on is taken before the next
            # hand comes (its face registers face on face, as clear as the view it moved from)
            self._carry_below()
            self.face = face_of(self.frame, sighting, self.config)
        self.region = self.motion.mask(sighting.corners, 1.0)
        self.middle = self.motion.mask(sighting.corners, 0.5)
        self.near = self.motion.mask(sighting.corners, 1 + self.config.quiet_margin)
        if not new:
            return []
        match = sighting.match
        # the reading as seen, with the confidence reached over the frames (candidates and others kept)
        reported = replace(match, confidence=round(confidence, 3),
                           runner_up_confidence=round(match.runner_up_confidence, 3))
        return [Landing(reported, self.index, now, sighting.corners.copy())]

    def _rest(self, small: np.ndarray) -> None:
        """The pile rests as the latest frame (``small``) shows it."""
        assert self.frame is not None
        self.scene, self.scene_tint = small, self.motion.tint(self.frame)

    def _forget_passage(self) -> None:
        """The top card seen (again): what passed over it and the dispute over it are done with."""
        self.covered = self.passed = False
        self.dispute = None
        self.aside = self.aside_far = self.flown = self.twin_landed = False

    def _forget_regions(self) -> None:
        self.face = self.scene = self.scene_tint = None
        self.top = self.reference = self.region = self.middle = self.near = None
        self.stack.clear()
        self.dispute, self.covered, self.dirty, self.clear, self.passed = None, False, True, False, False
