"""Whether anything lies around a card (``FlipTracker._ring_clear``), on small
grey frames made here: the ring just outside the card compared with how the
pile last rested, and with the empty table."""
import cv2
import numpy as np

from companion.engine import IngredientCard
from vision.recognize.types import Detection, Match
from vision.track.tracker import FlipTracker

WIDTH = 192  # the tracker's working width: frames this wide are its small frames as they are
CARD = np.float32([[80, 30], [112, 30], [112, 80], [80, 80]])  # 32 x 50 small pixels


def _frame(card: bool = True, wrist: bool = False) -> np.ndarray:
    """The table (a soft grain), the card on it, and perhaps a hand reaching
    over the card's left side from the left."""
    rng = np.random.default_rng(5)
    frame = (110 + rng.normal(0, 3, (108, WIDTH))).astype(np.float32)
    if card:
        cv2.fillConvexPoly(frame, CARD.astype(np.int32), 230)
    if wrist:
        frame[46:62, :84] = 60
    return frame


def _tracker(scene: np.ndarray, background: np.ndarray) -> FlipTracker:
    tracker = FlipTracker(lambda image: [])
    tracker.motion.small(cv2.cvtColor(scene.astype(np.uint8), cv2.COLOR_GRAY2BGR))  # its scale: 1
    tracker.motion.feed(scene, 0.0)
    tracker.top = Detection(Match(IngredientCard.from_notation("S"), 0.9, False, None, 0.0), CARD)
    tracker.settled, tracker.scene, tracker.background = True, scene, background
    return tracker


def _ring_share(tracker: FlipTracker, now: np.ndarray) -> float:
    config = tracker.config
    ring = tracker.motion.mask(CARD, 1 + config.bare_margin) & ~tracker.motion.mask(CARD, 1 + config.bare_gap)
    return float(tracker.motion.changed(now, tracker.scene)[ring].mean())


def test_a_wrist_over_one_side_of_the_card_is_something_by_it():
    # a tenth of the ring, but all of one side of it: the hand that holds the card
    tracker = _tracker(_frame(), _frame(card=False))
    held = _frame(wrist=True)
    assert _ring_share(tracker, held) <= tracker.config.bare_fraction
    assert tracker._ring_clear(tracker.top, held) is False
    assert tracker._ring_clear(tracker.top, _frame()) is True


def test_fingers_across_the_border_of_two_sides_are_something_by_the_card():
    # fingers reaching over the card's left side, straight at its middle: the ring's sides, counted from
    # the left, meet there, so each holds half of them (0.27 of a side); a hand is not halved by where
    # the sides happen to meet
    tracker = _tracker(_frame(), _frame(card=False))
    held = _frame()
    held[50:58, :84] = 60
    assert _ring_share(tracker, held) <= tracker.config.bare_fraction
    assert tracker._ring_clear(tracker.top, held) is False


def test_a_hand_gone_since_the_pile_last_rested_leaves_the_card_bare():
    # the pile last rested with the hand still by the card: the ring differs from that view once the hand
    # has gone, and shows the empty table again
    tracker = _tracker(_frame(wrist=True), _frame(card=False))
    assert tracker._ring_clear(tracker.top, _frame()) is True
    tracker.background = _frame(card=False, wrist=True)  # a table first seen with a hand on it tells nothing
    assert tracker._ring_clear(tracker.top, _frame()) is False


def test_without_a_view_of_the_pile_the_empty_table_can_still_tell_a_bare_card():
    # the top card was reported before it settled: the last view of the pile does not show it, so only
    # the empty table can say the ring is bare; what differs from the table may be the pile itself
    tracker = _tracker(_frame(card=False), _frame(card=False))
    tracker.settled, tracker.scene_valid = False, False
    other = Detection(Match(IngredientCard.from_notation("P"), 0.9, False, None, 0.0), CARD)
    assert tracker._ring_clear(other, _frame()) is True
    assert tracker._ring_clear(other, _frame(wrist=True)) is None


def _in_colour(grey: np.ndarray, tinted: tuple[slice, slice] | None = None) -> np.ndarray:
    """``grey`` as a BGR frame of a brownish table, the part ``tinted`` (a
    hand) as grey as the table there but pinker."""
    frame = np.dstack([grey - 20, grey, grey + 15]).clip(0, 255)
    if tinted is not None:
        frame[tinted] += np.float32([-6, -12, 25]) - np.float32([-20, 0, 15])
    return frame.clip(0, 255).astype(np.uint8)


def test_a_hand_as_grey_as_the_table_shows_in_its_tint():
    # a brown hand on brown wood: in grey the ring is the table's, in colour it is the hand's
    tracker = _tracker(_frame(), _frame(card=False))
    hand = (slice(46, 62), slice(0, 84))
    table, held = _in_colour(_frame()), _in_colour(_frame(), hand)
    tracker.frame = table
    tracker.scene_tint = tracker.background_tint = tracker.motion.tint(table)
    held_grey = cv2.cvtColor(held, cv2.COLOR_BGR2GRAY).astype(np.float32)
    assert _ring_share(tracker, held_grey) < 0.01  # no grey level changed beyond motion_level
    tracker.frame = held
    assert tracker._ring_clear(tracker.top, held_grey) is False
    tracker.frame = table
    assert tracker._ring_clear(tracker.top, cv2.cvtColor(table, cv2.COLOR_BGR2GRAY).astype(np.float32)) is True
