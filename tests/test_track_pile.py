"""Where the tracker looks for the pile, and which outlines can be its top card."""
import numpy as np

from companion.engine import parse_card
from vision.track.config import DEFAULT_TRACKER_CONFIG
from vision.track.pile import UsualSize, search_region, top_of_pile
from vision.recognize.types import Detection, Match


def card(left: float, top: float, width: float = 100, height: float = 156, confidence: float = 0.9,
         notation: str = "S") -> Detection:
    """An upright sighting with its top-left corner at (left, top)."""
    corners = np.float32([[left, top], [left + width, top], [left + width, top + height], [left, top + height]])
    return Detection(Match(parse_card(notation), confidence, False, parse_card("O"), 0.3), corners)


def test_any_size_fits_before_the_first_card_and_only_the_usual_one_after():
    size = UsualSize(DEFAULT_TRACKER_CONFIG)
    assert size.fits(card(0, 0, 300, 468))
    size.learn(card(0, 0))
    assert size.fits(card(50, 50, 110, 170))     # a little nearer the camera
    assert not size.fits(card(0, 0, 200, 156))   # two cards side by side merged into one outline
    assert not size.fits(card(0, 0, 60, 94))     # a hand's edge


def test_the_usual_size_is_learnt_anew_after_searches_that_saw_only_unusual_outlines():
    size = UsualSize(DEFAULT_TRACKER_CONFIG)
    size.learn(card(0, 0))
    larger = card(0, 0, 200, 312)  # the camera was brought nearer
    for _ in range(DEFAULT_TRACKER_CONFIG.relearn_size - 1):
        size.searched(seen=True, fitting=size.fits(larger))
    assert not size.fits(larger)
    size.searched(seen=True, fitting=size.fits(larger))
    assert size.fits(larger)


def test_a_search_that_saw_nothing_does_not_count_towards_relearning():
    size = UsualSize(DEFAULT_TRACKER_CONFIG)
    size.learn(card(0, 0))
    for _ in range(3 * DEFAULT_TRACKER_CONFIG.relearn_size):
        size.searched(seen=False, fitting=False)
    assert not size.fits(card(0, 0, 200, 312))


def test_the_search_region_surrounds_the_top_card_within_the_frame():
    frame = np.zeros((720, 1280, 3), np.uint8)
    top = card(40, 300)
    x0, y0, crop = search_region(frame, top, DEFAULT_TRACKER_CONFIG)
    pad = DEFAULT_TRACKER_CONFIG.search_margin * top.width
    assert (x0, y0) == (0, int(300 - pad))  # cut off at the frame's left edge
    assert crop.shape[:2] == (int(np.ceil(456 + pad)) - y0, int(np.ceil(140 + pad)))
    assert search_region(frame, None, DEFAULT_TRACKER_CONFIG)[2] is frame


def test_the_top_card_is_the_surest_near_the_pile_unless_the_pile_was_lost():
    top = card(500, 200)
    near, sure_far = card(530, 210, confidence=0.8), card(1000, 200, confidence=0.99)
    assert top_of_pile([sure_far, near], top, lost=False) is near
    assert top_of_pile([sure_far], top, lost=False) is None
    assert top_of_pile([sure_far], top, lost=True) is sure_far
    assert top_of_pile([near, sure_far], None, lost=False) is sure_far
