"""The watch over the top card's face (vision.track.passage), on small grey
frames made here: a twin held a pixel off by the fingers that lay it and
then let go, against a pile nudged a pixel that stays where it slid."""
from dataclasses import replace

import cv2
import numpy as np

from companion.engine import IngredientCard, Order
from vision.recognize.types import Detection, Match
from vision.track.tracker import FlipTracker

WIDTH = 192  # the tracker's working width: frames this wide are its small frames as they are


def _table(seed: int = 3) -> np.ndarray:
    """A busy print: moved one pixel, half of it changes."""
    return np.random.default_rng(seed).choice(np.uint8([40, 220]), (108, WIDTH))


def _watching(card_width: float) -> tuple[FlipTracker, np.ndarray]:
    """A tracker whose top card (``card_width`` small pixels across) was
    last seen on ``frame``."""
    tracker = FlipTracker(lambda image: [])
    frame = _table()
    small = tracker.motion.small(cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR))
    tracker.motion.feed(small, 0.0)
    x, y, height = 70.0, 20.0, card_width * 89 / 57
    corners = np.float32([[x, y], [x + card_width, y], [x + card_width, y + height], [x, y + height]])
    tracker.top = Detection(Match(IngredientCard.from_notation("M"), 0.9, False, None, 0.0), corners)
    tracker.reference, tracker.region = small, tracker.motion.mask(corners, 1.0)
    tracker.middle = tracker.motion.mask(corners, 0.5)
    return tracker, small


def _moved(small: np.ndarray, dx: int) -> np.ndarray:
    return np.roll(small, dx, axis=1)


def test_a_face_seen_a_pixel_off_and_back_counts_as_covered():
    """Seen a whole pixel off while its middle changed, and then exactly at
    its place, the face may have been a twin held by the fingers that lay it
    and then let go: the pile counts as covered, and registering the face
    tells whether a card lies there (it may as well have been the card itself
    under a passing hand, so it is no twin landed)."""
    tracker, small = _watching(40.0)
    assert not tracker._top_hidden(_moved(small, 1))
    assert tracker.aside
    assert tracker._top_hidden(small)
    assert not tracker.twin_landed


def test_a_face_seen_well_off_its_place_and_back_is_a_twin_laid():
    tracker, small = _watching(40.0)
    assert tracker._top_hidden(_moved(small, 4))  # its middle is not where it was
    assert tracker.aside
    assert tracker._top_hidden(small)
    assert tracker.twin_landed


def test_a_pile_nudged_a_pixel_is_not_covered():
    tracker, small = _watching(40.0)
    nudged = _moved(small, 1)
    assert not any(tracker._top_hidden(nudged) for _ in range(10))
    assert not tracker.twin_landed


def test_a_face_carried_in_from_afar_and_laid_a_few_pixels_off_is_a_twin_laid():
    """Seen a quarter of a card from its place (farther than a nudge moves a
    pile), the face was a twin in flight; found again at rest a few pixels
    off, that twin landed there, not on the very spot of the card below."""
    tracker, small = _watching(40.0)
    assert tracker._top_hidden(_moved(small, 12))
    assert tracker.aside and tracker.flown
    assert tracker._top_hidden(_moved(small, -3))
    assert tracker.twin_landed


def test_a_face_pushed_a_few_pixels_is_no_twin_laid():
    """A nudge moves the face a few pixels, never a quarter of a card: found
    there it has not flown, and no twin landed."""
    tracker, small = _watching(40.0)
    for dx in (1, 2, 3, 3, 3):
        tracker._top_hidden(_moved(small, dx))
    assert not tracker.flown and not tracker.twin_landed


def test_the_order_on_top_seen_again_is_never_a_second_card():
    """A game holds one of each order: what would make an ingredient a twin
    laid on its kind (seen carried in and landed, the pile covered) makes an
    order on top only that order seen again, say after a hand lifted it."""
    tracker, small = _watching(40.0)
    order = Detection(Match(Order.from_notation("g:4A+P"), 0.9, False, None, 0.0), tracker.top.corners + 3)
    tracker.top = replace(tracker.top, match=replace(tracker.top.match, card=order.card))
    tracker.covered = tracker.passed = tracker.twin_landed = True
    assert not tracker._is_new(order)
    mushroom = Detection(replace(order.match, card=IngredientCard.from_notation("M")), order.corners)
    tracker.top = replace(tracker.top, match=replace(tracker.top.match, card=mushroom.card))
    assert tracker._is_new(mushroom)


def _fingers(small: np.ndarray, tracker: FlipTracker, share: float) -> np.ndarray:
    """``small`` with a plain dark patch over the left ``share`` of the top card's middle."""
    ys, xs = np.nonzero(tracker.middle)
    touched = small.copy()
    touched[ys.min():ys.max() + 1, xs.min():int(xs.min() + share * (xs.max() - xs.min()))] = 40
    return touched


def _rested(tracker: FlipTracker) -> FlipTracker:
    tracker.settled = tracker.face_clear = tracker.rested = True
    return tracker


def test_fingers_over_part_of_a_rested_card_touch_it():
    """A twin laid fast almost exactly on its kind covers the same face where
    it was: only the fingers laying it change part of the middle, which still
    shows where it lay. Touched, not pushed: its face, registered, decides."""
    tracker, small = _watching(40.0)
    _rested(tracker)
    assert not tracker._top_hidden(_fingers(small, tracker, 0.4))
    assert tracker.touched and not tracker.pushed


def test_fingers_by_a_card_that_never_rested_do_not_touch_it():
    """Fingers leaving a card just laid change its middle too; its face was
    taken while they held it, so that touch tells nothing."""
    tracker, small = _watching(40.0)
    tracker.settled = tracker.face_clear = True
    tracker._top_hidden(_fingers(small, tracker, 0.4))
    assert not tracker.touched


def test_a_pile_nudged_a_pixel_is_pushed():
    tracker, small = _watching(40.0)
    _rested(tracker)
    for _ in range(3):
        tracker._top_hidden(_moved(small, 1))
    assert tracker.pushed


def test_a_card_rested_when_things_began_to_move_near_it():
    """Rest is judged before the hand arrives: a hand carrying a twin is near
    the card a frame before its fingers touch it."""
    tracker, small = _watching(40.0)
    tracker.settled = True
    tracker.near = tracker.motion.mask(tracker.top.corners, 1.3)
    calm, moving = np.zeros_like(tracker.near), tracker.near.copy()
    tracker._note_calm(calm, 0.0)
    assert not tracker.rested
    tracker._note_calm(calm, 0.1)
    assert tracker.rested
    tracker._note_calm(moving, 0.2)
    assert tracker.rested  # as it was when the motion began
    tracker._note_calm(calm, 0.3)
    assert not tracker.rested  # a new stretch of rest has just begun
