"""Telling a new card from the top card seen again, or lifted off and put back.

A sighting of the card already on top is a new card only if the pile was
covered in between and the card now lies elsewhere: three salami in a row
are three cards because each was carried over the pile and landed with its
own offset and turn, while a hand hovering over the pile changes nothing.
Covering is only trusted once the top card was seen with nothing moving
around it, or at least nothing lying around it, so fingers leaving a card
they held are not taken for a new card; a top card only ever seen with
fingers by it (the next hand came at once) counts as covered by one of its
kind when its face, registered on that first view, has moved. An outline
read with fingers merged into it encloses the card's own, later outline:
that is the same card, unless its face, registered cleanly, moved. An order is one of a kind (each colour's are its
own): the order on top seen again is that order, whatever passed over it.
A card of the same kind laid almost exactly on the last one (a millimetre, a
degree: finer than outlines) is told apart by registering the face itself,
at full resolution, on how it looked when it last settled; so is one laid
fast, whose fingers only touched the top card (:mod:`vision.track.passage`).
A card lifted off ends being lifted when it is seen carried back over the
pile; the card below, of its kind, read where it lay is not yet that. A
card of the top's kind held beside the pile while the top card's face still
registers where it lay is the next of a run, not the top card lifted.
"""
from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from companion.engine import one_of_a_kind

from ..recognize.types import Detection
from .config import TrackerConfig
from .faces import Face, Shift, face_of, face_shift, face_shift_along, frame_warp, unhindered
from .motion import Motion
from .nudge import moved_along, pushed_plainly, stayed_put
from .dispute import Dispute, either_possible
from .stack import Laid, Stack


class Sameness:
    """The :class:`~vision.track.tracker.FlipTracker`'s judgement of whether a
    sighting is a new card, over the tracker's own state."""

    config: TrackerConfig
    motion: Motion
    top: Detection | None  # the card last reported (or re-seen) on top
    covered: bool  # the middle of the top card was hidden since it was last seen
    passed: bool   # ... since it was reported, whether or not that can be trusted
    twin_landed: bool  # its face was seen beside its place, then back at it
    lifting: bool      # the top card was seen lifted off since a card was last laid
    frame: np.ndarray | None  # the latest frame
    face: Face | None  # the top card's face as last seen settled
    face_clear: bool   # ... seen with nothing on or around the card
    stack: Stack       # the cards below the top one, and one lifted off
    _shift_memo: tuple[tuple | None, Shift | None] = (None, None)  # (frame, face, top) last registered, and how
    _carried_memo: tuple[tuple | None, Shift | None] = (None, None)  # (frame, face, sighting), face registered from it
    _pushed_memo: tuple[Shift | None, bool] = (None, False)  # the registration last judged pushed or not, and how
    _left_memo: tuple[Shift | None, bool] = (None, False)  # ... judged a twin laid beside the top card or not
    middle: np.ndarray | None      # mask of the middle of ``top`` on the small grey frame
    background: np.ndarray | None  # the first frame, small and grey
    dispute: Dispute | None
    _lost: bool  # searches around the pile found nothing lately
    _hidden: Callable[[np.ndarray, np.ndarray | None, np.ndarray | None], bool]  # a card's middle changed

    def _is_new(self, sighting: Detection) -> bool:
        """Whether ``sighting`` shows another card than the top one."""
        if self.top is None:
            return True
        if self._restacked(sighting) is not None:
            return False
        if sighting.card != self.top.card:
            return not self._read_again(sighting)
        if one_of_a_kind(sighting.card):
            return False  # a game holds one of each order: the order on top seen again is that order
        shift = self._shift()
        if shift is not None and shift.turned and (self.passed or shift.match >= self.config.face_sure_match):
            # laid the other way up on its twin; no hand turns a card half round in place, so a face
            # registered cleanly so needs no passage seen (a card laid fast hides little of the one below)
            return True
        if self.twin_landed and not self.lifting and not self._pushed_along(sighting):
            # its face was seen carried in and laid on it (see :mod:`vision.track.passage`); a pile pushed
            # fast shows its face off its place and back as well, and what lay beside it moved along
            return True
        if self.top.encloses(sighting, self.config.merged_growth, self.config.merged_margin) and \
                not ((self.covered or self._laid_beside()) and self._moved_cleanly(sighting)) and \
                not self._touched_by_twin(sighting):
            return False  # read before with fingers merged into its outline (its face, if clear, would say so)
        if self._pushed_along(sighting):
            return False  # what lay beside it moved with it: the pile was nudged
        if self._laid_beside():
            return True
        # a top card never seen settled or clear may have been held: only its face, registered, tells
        if self.covered and self._moved(sighting):
            return True
        if self.passed:
            return self._face_moved(sighting) is True
        return self._touched_by_twin(sighting)

    def _pushed_along(self, sighting: Detection) -> bool:
        """Whether the top card's face moved and what lay beside it moved
        along (see :mod:`vision.track.nudge`). A face pushed farther than
        registering from where it lay finds is registered from where
        ``sighting``'s outline went, as :meth:`_face_carried` does."""
        shift = self._shift()
        if shift is None or shift.match < self.config.face_loose_match:
            shift = self._carried_shift(sighting)
        if shift is None or self.face is None or shift.turned:
            return False
        judged, pushed = self._pushed_memo
        if judged is not shift:  # asked again in the same frame (is it too soon to judge, is it new)
            clean = unhindered(self.face, shift, self.config) \
                if self.config.face_loose_match <= shift.match < self.config.face_sure_match else shift
            # a hand on it, then or now: registered cleanly without it, or told plainly as it is
            pushed = moved_along(self.face, clean, self.config) \
                if clean is not None and clean.match >= self.config.face_sure_match else \
                pushed_plainly(self.face, clean or shift, self.config)
            self._pushed_memo = (shift, pushed)
        return pushed

    def _laid_beside(self) -> bool:
        """Whether a twin was carried in fast past the top card (or only
        touched it) and laid a little off it, which stayed where it lay
        (:meth:`_left_beside`), nothing seen passing over the top card."""
        return (self.aside or self.touched) and not self.passed and self._left_beside()

    def _left_beside(self) -> bool:
        """Whether the top card's face moved cleanly while the top card
        itself, by the ground beside it and its cut, lies where it lay
        (:func:`~vision.track.nudge.stayed_put`): the face is a twin's."""
        shift = self._shift()
        if shift is None or self.face is None or shift.turned:
            return False
        judged, left = self._left_memo
        if judged is not shift:
            left = stayed_put(self.face, shift, self.config)
            self._left_memo = (shift, left)
        return left

    def _touched_by_twin(self, sighting: Detection) -> bool:
        """Whether ``sighting``, of the top card's kind, is a twin laid fast
        almost exactly on it, nothing seen passing over: the top card was
        not pushed (:meth:`_slid_short`) or lifted (see :mod:`vision.track.passage`), and the face
        registers as the same face, a little moved: cleanly (a face taken
        with fingers on it does not) on a card whose touch counted and whose
        outline agrees, face on face (``twin_face_match``) on one whose touch
        did not or whose outline moved (fingers by a card pull its outline
        and, a little, the registration; a face that registers face on face
        has none on it). On a card whose touch counted, a face registered
        cleanly and moved farther than fingers pull a registration
        (``unclear_face_shift``) will do as well."""
        if self.lifting:
            return False
        shift = self._shift()
        if self.pushed and not self._slid_short(shift):
            return False
        # untouched as far as motion saw (it had not rested when the next hand came), a face registering face
        # on face still tells a twin: fingers leaving a card do not move it so cleanly
        loose = self.touched and not self._outline_moved(sighting)
        least = self.config.face_sure_match if loose else self.config.twin_face_match
        if shift is not None and self.touched and shift.match >= self.config.face_sure_match and \
                shift.moved > self.config.unclear_face_shift:
            least = self.config.face_sure_match  # moved farther than fingers by it pull a registration
        return shift is not None and shift.match >= least and self._face_moved(sighting) is True

    def _slid_short(self, shift: Shift | None) -> bool:
        """Whether the top card's face, seen slid (``slid`` small pixels) while
        something moved by it, now lies clearly short of that (under
        ``slid_short`` of it): a twin seen a pixel off in flight landed closer,
        where a pushed face stays as far as it slid."""
        if shift is None or self.top is None:
            return False
        return shift.moved * self.top.width * self.motion.scale < self.config.slid_short * self.slid

    def _read_again(self, sighting: Detection) -> bool:
        """Whether ``sighting``, of another card than the top one, is the top
        card read again: one of the two readings left the other's card among
        the faces it might be (so it is unsure), and it lies where the top card lay,
        with nothing seen passing over it since. A card arriving blurred may
        read as its twin of another colour until it rests; the reading then
        settles on the card, which is no second card. (The app asks about the
        unsure one, offering this card.)"""
        assert self.top is not None
        return either_possible(self.top, sighting) and not (self.covered or self.passed) and \
            sighting.pose_distance(self.top) <= self.config.agree_tolerance

    def _restacked(self, sighting: Detection) -> str | None:
        """``uncovered`` when ``sighting`` is the card below the top one where
        it lay (the top card was lifted off), ``put back`` when it is the card
        lifted off put back; None when neither (see :mod:`vision.track.stack`)."""
        if self.passed and self.top is not None and self.stack.uncovers(sighting, self.frame, self.top):
            return "uncovered"
        if self.stack.puts_back(sighting):
            return "put back"
        return None

    def _seen_uncovered(self, sighting: Detection) -> bool:
        """Whether ``sighting``, of another kind than the top card, is the
        card below it with its face registered where it lay, after something
        passed over the top card: the top card was lifted off (a card of its
        kind laid on the top one lies a little off)."""
        return self.top is not None and sighting.card != self.top.card and self.passed and \
            self.stack.uncovers(sighting, self.frame, self.top, exactly=True)

    def _pose_tolerance(self, sighting: Detection) -> float:
        """``pose_tolerance``, but never finer than outlines are in a small picture."""
        floor = self.config.pose_floor * self.config.work_width / self.motion.scale / max(1.0, sighting.width)
        return max(self.config.pose_tolerance, floor)

    def _moved(self, sighting: Detection) -> bool:
        """Whether ``sighting``, of the top card's kind, lies elsewhere than
        the top card: by the faces when they can be registered (far finer than
        outlines, which a hand near the card makes rough), else by the outlines."""
        moved = self._face_moved(sighting)
        return self._outline_moved(sighting) if moved is None else moved

    def _outline_moved(self, sighting: Detection) -> bool:
        assert self.top is not None
        return sighting.pose_distance(self.top) > self._pose_tolerance(sighting)

    def _shift(self) -> Shift | None:
        """How the top card's face lies now against its last settled view (None: no such view, or no match)."""
        if self.face is None or self.top is None or self.frame is None:
            return None
        # asked several times a frame (is it new, did it move, is it laid turned): registered once
        seen, shift = self._shift_memo
        if seen is None or any(a is not b for a, b in zip(seen, (self.frame, self.face, self.top))):
            shift = face_shift(self.face, self.frame, self.top, self.config)
            self._shift_memo = ((self.frame, self.face, self.top), shift)
        return shift

    def _retake_face(self, sighting: Detection, clear: bool, same: bool = True) -> None:
        """Take the top card's face anew as it rests (``clear``: nothing on or
        around it), unless it is the view taken clear before with something
        on it now: fingers resting on the card (a hand that comes to push the
        pile holds still first) would spoil the view to register on. The
        ``same`` card, its face registered moved cleanly on the last view,
        was pushed with the cards below it (see :meth:`_carry_below`)."""
        if self.face is None or not self.face_clear or not self._face_spoilt():
            if same:
                self._carry_below()
            self.face, self.face_clear = face_of(self.frame, sighting, self.config), clear

    def _moved_untouched(self) -> bool:
        """Whether the top card's face registers face on face on its last
        view (``twin_face_match``: nothing on it) and moved (beyond
        ``face_shift``): the card was pushed and lies untouched."""
        return self._moved_since(self.config.twin_face_match) is not None

    def _moved_since(self, least_match: float) -> Shift | None:
        """The top card's face registered on its last view, when it matched
        at ``least_match`` or better, not turned, and moved beyond
        ``face_shift``; else None."""
        shift = self._shift()
        if shift is None or shift.turned or shift.match < least_match or shift.moved <= self.config.face_shift:
            return None
        return shift

    def _carry_below(self) -> None:
        """The top card's face registered cleanly (``face_sure_match``) and
        moved (beyond ``face_shift``) since its last view: the pile was
        pushed, and the cards below lie where the push took them, for a
        card lifted off to show one of them where it lies now."""
        shift = self._moved_since(self.config.face_sure_match)
        warp = None if shift is None or self.face is None else frame_warp(self.face, shift)
        if warp is not None:
            self.stack.carry(warp)

    def _loose_shift(self) -> Shift | None:
        """How the top card's face lies now, when it registers on its last
        settled view only loosely (below ``face_sure_match``, not turned): a
        hand on it, now or when that view was taken."""
        shift = self._shift()
        return shift if shift is not None and not shift.turned and shift.match < self.config.face_sure_match else None

    def _face_spoilt(self) -> bool:
        """Whether the top card's face lies where it was last seen settled,
        with something on it: it registers unmoved as far as fingers on it
        let it (within ``unclear_face_shift``), but not cleanly (from
        ``face_loose_match``). A hand come to push the pile rests on the card
        first; its view so would not register on the card pushed away. While
        a card is lifted off, only a view registering unmoved (``face_shift``)
        from ``face_match`` is: the face kept may be of the card below, and a
        card put back on it lies a little off."""
        loose = self._loose_shift()
        if loose is None:
            return False
        if self.stack.lifted is not None:
            # the face on top may be the card below, uncovered, and the card put back on it another
            return loose.match >= self.config.face_match and loose.moved <= self.config.face_shift
        return loose.match >= self.config.face_loose_match and loose.moved <= self.config.unclear_face_shift

    def _held_by_hand(self, sighting: Detection) -> bool:
        """Whether ``sighting``, of the top card's kind, shows its face
        registered on the top card's only loosely."""
        return self.top is not None and sighting.card == self.top.card and self._loose_shift() is not None

    def _face_moved(self, sighting: Detection) -> bool | None:
        """Whether the top card's face now lies elsewhere than when it was last
        seen settled, by more than ``face_shift``: registered on the picture, a
        card of the same kind laid almost exactly on the last one is still
        seen to differ, while a hand passing over leaves the face as it was.
        A looser match will do for a move that ``sighting``'s outline shows too.
        A face that does not register where it was may register where the
        outline went: a card of its kind laid several millimetres and degrees
        off. None when unsure (no settled view, the faces do not match well)."""
        shift = self._shift()
        if shift is None or shift.match < self.config.face_loose_match:
            return self._face_carried(sighting)
        if shift.turned:  # laid the other way up on one of its kind
            return True
        if shift.match >= self.config.face_match:
            # fingers on the card when its face was taken pull the registration a little; a face registering
            # face on face has none on it now either
            least = self.config.face_shift if self.face_clear else self.config.unclear_face_shift
            if self.face_clear and shift.match >= self.config.twin_face_match:
                least = self.config.twin_face_shift
            return shift.moved > least
        if shift.moved > self._pose_tolerance(sighting) and self._outline_moved(sighting):
            return True
        return None

    def _moved_cleanly(self, sighting: Detection) -> bool:
        """Whether the top card's face registers cleanly (``face_sure_match``)
        and moved (:meth:`_face_moved`): what its outline says is then beside
        the point."""
        shift = self._shift()
        return shift is not None and shift.match >= self.config.face_sure_match and self._face_moved(sighting) is True

    def _face_carried(self, sighting: Detection) -> bool | None:
        """True when the top card's face, registered from where ``sighting``'s
        outline lies (moved beyond ``pose_tolerance``), lies there cleanly
        (``face_match``) and moved as far; else None (see :meth:`_face_moved`)."""
        carried = self._carried_shift(sighting)
        if carried is None or carried.match < self.config.face_match:
            return None
        return True if carried.moved > self._pose_tolerance(sighting) else None

    def _carried_shift(self, sighting: Detection) -> Shift | None:
        """The top card's face registered from where ``sighting``'s outline
        lies, when that moved beyond ``pose_tolerance`` (else None); once a frame."""
        if self.face is None or self.frame is None or self.top is None or not self._outline_moved(sighting):
            return None
        seen, carried = self._carried_memo
        if seen is None or any(a is not b for a, b in zip(seen, (self.frame, self.face, sighting))):
            carried = face_shift_along(self.face, self.frame, sighting, self.config)
            self._carried_memo = ((self.frame, self.face, sighting), carried)
        return carried

    def _note_lift(self, seen: Sequence[Detection] = (), sighting: Detection | None = None,
                   small: np.ndarray | None = None) -> None:
        """After something passed over the top card, whether it was lifted
        off: its kind is seen held beside the pile (``sighting``) while its
        face no longer shows unmoved where it lay, or the card
        below it shows where the top card lay (among ``seen``: of another
        kind, even in part; of its kind, by its face registered exactly where
        it lay), or the table does (in ``small``). It is then put
        back, not laid (see :mod:`vision.track.stack`)."""
        top = self.top
        if top is None or not self.passed or self.stack.lifted is not None or self._landed_meanwhile():
            return
        seen_all = (*seen, *([sighting] if sighting else []))
        held = any(s.card == top.card and not self._on_pile(s) for s in seen_all) and not self._lies_unmoved() \
            and not self._another_on_pile(seen_all)
        under = self.stack.below[-1].sighting if self.stack.below else None
        # the card below of the top's kind shows only by its face, registered where it lay
        shows = under is not None and any(
            s.card == under.card and self._on_pile(s) and
            (under.card != top.card or self.stack.uncovers(s, self.frame, top, exactly=True)) for s in seen)
        table = under is None and small is not None and self.middle is not None and \
            not self._hidden(small, self.background, self.middle)
        if held or shows or table:
            self.stack.lifted = Laid(top, self.face, self.face_clear)
            self.lifting = True  # its face seen aside and back is the card put back, not its twin laid
            if self.dispute is not None and self.dispute.sightings[-1].card == top.card:
                self.dispute = None  # what was read of it on the pile is the card now in the hand

    def _another_on_pile(self, seen: Sequence[Detection]) -> bool:
        """Whether one of ``seen``, of the top card's kind, lies on the pile
        though not where the top card lay, nor as the card below it
        uncovered: another card of that kind was laid on the top one, and
        one held beside the pile meanwhile is the next being brought (the
        top card cannot be both there and in the hand)."""
        top = self.top
        assert top is not None
        return any(s.card == top.card and self._on_pile(s) and self._moved(s) and
                   not self.stack.uncovers(s, self.frame, top, held=True) for s in seen)

    def _lies_unmoved(self) -> bool:
        """Whether the top card's face registers where it lay, cleanly and
        unmoved: a card of its kind held beside the pile meanwhile is the
        next of a run being brought, not the top card lifted off."""
        shift = self._shift()
        return shift is not None and not shift.turned and shift.match >= self.config.face_sure_match and \
            shift.moved <= self.config.face_shift

    def _landed_meanwhile(self) -> bool:
        """Whether a new card lies on the top one, read so in the latest
        looks (``agree`` of them) though not yet reported (the hand that laid
        it went at once, and the next one came): a card of the top's kind now
        held beside the pile is the next of a run being brought, not the top
        card lifted off."""
        return self.dispute is not None and self.dispute.fresh_looks >= self.config.agree

    def _on_pile(self, sighting: Detection) -> bool:
        """Whether ``sighting`` lies on the pile (within ``landing_reach`` of
        the top card), or the pile is not known well enough to tell."""
        if self.top is None or self._lost:
            return True
        return float(np.linalg.norm(sighting.center - self.top.center)) <= self.config.landing_reach * self.top.width

    def _restack(self, sighting: Detection, new: bool, uncovered: bool = False) -> None:
        """Keep the cards below the top one (and one lifted off) as ``sighting``
        becomes the top (``uncovered``: it was seen as the card below, uncovered)."""
        if self.top is None:
            return
        restacked = None if new else "uncovered" if uncovered else self._restacked(sighting)
        top = Laid(self.top, self.face, self.face_clear)
        if new:
            self.stack.covered_by_new(top)
        elif restacked == "uncovered":
            under = self.stack.lift(top)
            self.face, self.face_clear = under.face, under.clear
        elif restacked == "put back":
            lifted = self.stack.lifted
            assert lifted is not None
            if lifted.sighting is self.top:  # seen held beside the pile, the card below it unseen
                self.stack.lifted = None
            else:
                self.stack.put_back(top)
            self.face, self.face_clear = lifted.face, lifted.clear
            # seen carried back over the pile, it is put back: a card of its kind carried in from now on is
            # laid (the card below, of its kind and where it lay, may read as it put back before it is)
            self.lifting = self.lifting and not self.passed
