"""The cards under the top one (vision.track.stack): a card lifted off the
pile and put back is no new card."""
import cv2
import numpy as np

from companion.engine import parse_card
from vision.recognize.types import Detection, Match
from vision.track.config import DEFAULT_TRACKER_CONFIG
from vision.track.faces import face_of
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


def _table(seed: int = 3) -> np.ndarray:
    """A textured frame with a card-sized patch of its own texture at ``CORNERS``."""
    rng = np.random.default_rng(seed)
    frame = cv2.GaussianBlur(rng.uniform(0, 255, (300, 300)).astype(np.float32), (0, 0), 3.0)
    frame = cv2.normalize(frame, None, 0, 255, cv2.NORM_MINMAX)
    return cv2.cvtColor(frame.astype(np.uint8), cv2.COLOR_GRAY2BGR)


def _moved(frame: np.ndarray, warp: np.ndarray) -> np.ndarray:
    return cv2.warpAffine(frame, warp, (frame.shape[1], frame.shape[0]), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REFLECT)


def _below(frame: np.ndarray) -> Stack:
    stack = Stack(DEFAULT_TRACKER_CONFIG)
    stack.covered_by_new(Laid(_seen("S"), face_of(frame, _seen("S"), DEFAULT_TRACKER_CONFIG), True))
    return stack


def _turn(degrees: float, dx: float, dy: float) -> np.ndarray:
    warp = cv2.getRotationMatrix2D((130.0, 147.0), degrees, 1.0)
    warp[:, 2] += (dx, dy)
    return warp.astype(np.float32)


def test_the_card_below_shows_where_a_push_of_the_pile_took_it_once_the_stack_was_carried():
    # the pile was pushed 14 px and turned 2 degrees, then the top card lifted off: the card below is
    # uncovered where the push took it, which it is not where it lay before the push
    frame = _table()
    push = _turn(2.0, 5.0, 13.0)
    pushed = _moved(frame, push)
    below = Detection(_seen("S").match, (np.c_[CORNERS, np.ones(4)] @ push.T).astype(np.float32))
    stack = _below(frame)
    assert not stack.uncovers(below, pushed, _seen("M"))
    stack.carry(push)
    assert stack.uncovers(below, pushed, _seen("M"))
    assert stack.uncovers(below, pushed, _seen("M"), exactly=True)


def test_a_card_of_the_kind_below_laid_half_a_pixel_off_is_not_the_card_below_uncovered():
    # registered face on face (no hand blurs the view), a card moved half a pixel is another card of
    # that kind, laid on the top one; the card below itself would register within a hundredth of that
    frame = _table()
    stack = _below(frame)
    assert stack.uncovers(_seen("S"), frame, _seen("M"))
    assert not stack.uncovers(_seen("S", 0.5), _moved(frame, _turn(0.0, 0.5, 0.0)), _seen("M"))
