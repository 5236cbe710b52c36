"""The cards under the top one (vision.track.stack): a card lifted off the
pile and put back is no new card."""
import numpy as np

from companion.engine import parse_card
from vision.recognize.types import Detection, Match
from vision.track.config import DEFAULT_TRACKER_CONFIG
from vision.track.stack import Laid, Stack

CORNERS = np.float32([[100, 100], [160, 100], [160, 194], [100, 194]])


def _seen(notation: str, dx: float = 0.0) -> Detection:
    return Detection(Match(parse_card(notation), 0.9, False, None, 0.0), CORNERS + np.float32([dx, 0]))


def _lifted(notation: str) -> Stack:
    stack = Stack(DEFAULT_TRACKER_CONFIG)
    stack.covered_by_new(Laid(_seen("S"), None))
    stack.lift(Laid(_seen(notation), None))
    return stack


def test_a_lifted_card_put_back_where_it_lay_is_put_back():
    assert _lifted("M").puts_back(_seen("M", 1.0))


def test_an_ingredient_seen_far_from_where_the_lifted_one_lay_is_another_card():
    assert not _lifted("M").puts_back(_seen("M", 12.0))


def test_the_lifted_order_seen_anywhere_is_that_order_put_back():
    """The game holds one of each order: wherever it comes down, it is the one lifted."""
    assert _lifted("g:P+3?").puts_back(_seen("g:P+3?", 12.0))
    assert not _lifted("g:P+3?").puts_back(_seen("g:4S+P", 12.0))
