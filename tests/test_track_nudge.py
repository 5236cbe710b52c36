"""A pile pushed with its top card against a twin laid a little off it
(vision/track/nudge.py), on drawn frames: a textured table, a card below and
the top card, each with its own print."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.engine import parse_card
from tools.synth.datasets import Art
from vision.recognize.types import Detection, Match
from vision.track.config import DEFAULT_TRACKER_CONFIG, TrackerConfig
from vision.track.faces import face_of, face_shift, unhindered
from vision.track.nudge import cut_kept, moved_along, pushed_plainly, stayed_put

SIZE = (360, 300)
CARD = (90, 140)  # width, height in pixels


def _print(seed: int) -> np.ndarray:
    """A card's face: pale paper with blobs of colour, and a dark border line."""
    rng = np.random.default_rng(seed)
    face = np.full((CARD[1], CARD[0], 3), 225, np.uint8)
    for _ in range(14):
        centre = (int(rng.integers(12, CARD[0] - 12)), int(rng.integers(12, CARD[1] - 12)))
        colour = tuple(int(c) for c in rng.integers(40, 200, 3))
        cv2.circle(face, centre, int(rng.integers(4, 12)), colour, -1)
    cv2.rectangle(face, (4, 4), (CARD[0] - 5, CARD[1] - 5), (90, 60, 40), 2)
    return face


def _corners(x: float, y: float, angle: float) -> np.ndarray:
    """The card's corners (top left first, clockwise) with its middle at x, y, turned ``angle`` degrees."""
    half = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float32) * np.array(CARD, np.float32) / 2
    a = np.radians(angle)
    turn = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]], np.float32)
    return (half @ turn.T + np.array([x, y], np.float32)).astype(np.float32)


def _lay(frame: np.ndarray, face: np.ndarray, corners: np.ndarray) -> None:
    """``face`` drawn on ``frame`` at ``corners``."""
    source = np.float32([[0, 0], [CARD[0], 0], [CARD[0], CARD[1]], [0, CARD[1]]])
    warp = cv2.getPerspectiveTransform(source, corners)
    drawn = cv2.warpPerspective(face, warp, SIZE)
    mask = cv2.warpPerspective(np.full(face.shape[:2], 255, np.uint8), warp, SIZE) > 127
    frame[mask] = drawn[mask]


def _table(checked: bool = False) -> np.ndarray:
    """Wood-like grain, or a checked cloth: sharp edges that stay put whatever the cards do."""
    rng = np.random.default_rng(5)
    grain = cv2.GaussianBlur(rng.normal(0, 30, (SIZE[1], SIZE[0])).astype(np.float32), (0, 0), 3)
    if checked:
        rows, columns = np.indices((SIZE[1], SIZE[0]))
        grain = np.where((rows // 12 + columns // 12) % 2 == 0, 60.0, -40.0).astype(np.float32)
    table = np.clip(np.stack([70 + grain, 100 + grain, 130 + grain], axis=2), 0, 255)
    return table.astype(np.uint8)


def _frame(cards: list[tuple[np.ndarray, np.ndarray]], seed: int, shadow: float = 0.0,
           checked: bool = False) -> np.ndarray:
    """The cards laid in order on the table; the last one casts a soft ``shadow`` (grey levels) around it."""
    frame = _table(checked)
    for face, corners in cards:
        _lay(frame, face, corners)
    if shadow:
        mask = np.zeros(frame.shape[:2], np.float32)
        cv2.fillConvexPoly(mask, np.round(cards[-1][1]).astype(np.int32), 1.0)
        around = cv2.GaussianBlur(cv2.dilate(mask, np.ones((17, 17), np.uint8)), (0, 0), 4) * (1 - mask)
        frame = np.clip(frame - shadow * around[..., None], 0, 255)
    noise = np.random.default_rng(seed).normal(0, 1.5, frame.shape)
    return np.clip(frame + noise, 0, 255).astype(np.uint8)


def _sighting(corners: np.ndarray) -> Detection:
    return Detection(Match(parse_card("M"), 0.95, False, parse_card("S"), 0.5), corners)


TOP, BELOW = _print(1), _print(2)
HERE, UNDER = (180.0, 150.0, 0.0), (172.0, 156.0, 4.0)
MOVE = (7.0, 4.0, 2.0)  # a few millimetres and degrees, as far as a nudge pushes or a twin lies off


def _moved(pose: tuple[float, float, float]) -> tuple[float, float, float]:
    return pose[0] + MOVE[0], pose[1] + MOVE[1], pose[2] + MOVE[2]


def _judge(after: list[tuple[np.ndarray, np.ndarray]], shadow: float = 0.0, alone: bool = False,
           checked: bool = False, config: TrackerConfig = DEFAULT_TRACKER_CONFIG) -> bool:
    below = [] if alone else [(BELOW, _corners(*UNDER))]
    before = _frame([*below, (TOP, _corners(*HERE))], seed=10, checked=checked)
    top = _sighting(_corners(*HERE))
    face = face_of(before, top, config)
    now = _frame(after, seed=11, shadow=shadow, checked=checked)
    shift = face_shift(face, now, top, config)
    assert shift is not None and shift.match >= config.face_sure_match and shift.moved > config.face_shift
    return moved_along(face, shift, config)


def test_a_pile_pushed_with_its_top_card_moved_along():
    assert _judge([(BELOW, _corners(*_moved(UNDER))), (TOP, _corners(*_moved(HERE)))])


@pytest.mark.parametrize("shadow", [0.0, 30.0])
def test_a_twin_laid_a_little_off_leaves_the_card_below_it_where_it_lay(shadow):
    # its shadow darkens the strip of the card below that it leaves bare: edges, not grey levels, decide
    after = [(BELOW, _corners(*UNDER)), (TOP, _corners(*HERE)), (TOP, _corners(*_moved(HERE)))]
    assert not _judge(after, shadow)


def test_a_lone_card_pushed_on_a_checked_cloth_moved_along():
    # the cloth's edges stay put as they would under a twin; the card's own cut went along
    assert _judge([(TOP, _corners(*_moved(HERE)))], alone=True, checked=True)


@pytest.mark.parametrize("shadow", [0.0, 30.0])
def test_a_twin_laid_a_little_off_a_lone_card_leaves_its_cut_where_it_was(shadow):
    assert not _judge([(TOP, _corners(*HERE)), (TOP, _corners(*_moved(HERE)))], shadow, alone=True, checked=True)


@pytest.mark.parametrize("move", [(0.0, 0.0, 0.0), (0.5, 0.0, 0.0), (1.5, 0.5, 0.5)])
def test_a_card_that_did_not_move_is_not_judged(move):
    config = DEFAULT_TRACKER_CONFIG
    before = _frame([(BELOW, _corners(*UNDER)), (TOP, _corners(*HERE))], seed=10)
    top = _sighting(_corners(*HERE))
    face = face_of(before, top, config)
    pose = (HERE[0] + move[0], HERE[1] + move[1], HERE[2] + move[2])
    now = _frame([(BELOW, _corners(*UNDER)), (TOP, _corners(*pose))], seed=11)
    shift = face_shift(face, now, top, config)
    assert shift is not None
    assert not moved_along(face, shift, config)


def _fingers(frame: np.ndarray) -> np.ndarray:
    """``frame`` with three fingertips resting on the lower part of the top card, from below."""
    frame = frame.copy()
    for x in (160, 180, 200):
        cv2.ellipse(frame, (x, 215), (9, 40), 0, 0, 360, (120, 150, 200), -1)
    return frame


def test_fingers_on_the_card_when_its_face_was_taken_are_left_out_of_its_registration():
    config = DEFAULT_TRACKER_CONFIG
    top = _sighting(_corners(*HERE))
    face = face_of(_fingers(_frame([(BELOW, _corners(*UNDER)), (TOP, _corners(*HERE))], seed=10)), top, config)
    now = _frame([(BELOW, _corners(*_moved(UNDER))), (TOP, _corners(*_moved(HERE)))], seed=11)
    shift = face_shift(face, now, top, config)
    assert shift is not None and shift.match < config.face_sure_match  # the whole face: spoilt by the fingers
    clean = unhindered(face, shift, config)
    assert clean is not None and clean.match >= config.face_sure_match
    assert abs(clean.moved * config.face_width - np.hypot(*MOVE[:2]) * config.face_width / CARD[0]) < 1.5
    assert moved_along(face, clean, config)


def test_registering_without_the_fingers_leaves_the_first_registration_as_it_was():
    # the tracker asks several questions of one registration in a look (pushed along? left beside?):
    # the answers must not depend on the order they are asked in
    config = DEFAULT_TRACKER_CONFIG
    top = _sighting(_corners(*HERE))
    face = face_of(_fingers(_frame([(BELOW, _corners(*UNDER)), (TOP, _corners(*HERE))], seed=10)), top, config)
    now = _frame([(BELOW, _corners(*_moved(UNDER))), (TOP, _corners(*_moved(HERE)))], seed=11)
    shift = face_shift(face, now, top, config)
    assert shift is not None and shift.warp is not None
    first = shift.warp.copy()
    clean = unhindered(face, shift, config)
    assert clean is not None and not np.allclose(clean.warp, first, atol=1e-4)
    assert np.array_equal(shift.warp, first)
    again = unhindered(face, shift, config)
    assert again is not None and np.array_equal(again.warp, clean.warp)


def test_a_face_mostly_hidden_is_not_registered_without_the_hand():
    config = DEFAULT_TRACKER_CONFIG
    top = _sighting(_corners(*HERE))
    face = face_of(_frame([(BELOW, _corners(*UNDER)), (TOP, _corners(*HERE))], seed=10), top, config)
    now = _frame([(BELOW, _corners(*UNDER)), (TOP, _corners(*HERE))], seed=11)
    cv2.rectangle(now, (120, 60), (240, 200), (120, 150, 200), -1)  # a palm over most of the card
    shift = face_shift(face, now, top, config)
    assert shift is not None
    assert unhindered(face, shift, config) is None


def _pushing(frame: np.ndarray) -> np.ndarray:
    """``frame`` with a hand resting on the lower part of the top card, fingers and palm."""
    frame = _fingers(frame)
    cv2.rectangle(frame, (130, 165), (235, SIZE[1]), (120, 150, 200), -1)
    return frame


def _registered(after: list[tuple[np.ndarray, np.ndarray]], hand: bool = False, alone: bool = False,
                checked: bool = False, soft: float = 0.0, shadow: float = 0.0,
                config: TrackerConfig = DEFAULT_TRACKER_CONFIG):
    """The top card's face taken clear, and registered on the view ``after`` (a hand on it, perhaps;
    the last card casting a ``shadow`` and blurred by ``soft`` pixels, perhaps)."""
    below = [] if alone else [(BELOW, _corners(*UNDER))]
    top = _sighting(_corners(*HERE))
    face = face_of(_frame([*below, (TOP, _corners(*HERE))], seed=10, checked=checked), top, config)
    now = _frame(after, seed=11, checked=checked, shadow=shadow)
    if soft:
        now = cv2.GaussianBlur(now, (0, 0), soft)
    shift = face_shift(face, _pushing(now) if hand else now, top, config)
    assert shift is not None
    return face, shift


PUSHED = [(BELOW, _corners(*_moved(UNDER))), (TOP, _corners(*_moved(HERE)))]
TWIN = [(BELOW, _corners(*UNDER)), (TOP, _corners(*HERE)), (TOP, _corners(*_moved(HERE)))]


def test_a_twin_laid_a_little_off_is_told_by_the_card_below_staying_put():
    config = DEFAULT_TRACKER_CONFIG
    assert stayed_put(*_registered(TWIN), config)
    assert not stayed_put(*_registered(PUSHED), config)


def test_a_twin_laid_a_little_off_and_seen_a_little_softer_is_told_by_the_card_below_staying_put():
    # a view a little softer than the one the face was taken from (focus, a trace of motion blur) weakens
    # every edge, the old cut with them (to about 0.65 of its strength here), while a push takes it away
    config = DEFAULT_TRACKER_CONFIG
    twin, pushed = (_registered(after, soft=1.0) for after in (TWIN, PUSHED))
    assert stayed_put(*twin, config)
    assert not stayed_put(*pushed, config) and moved_along(*pushed, config)


def test_a_twin_laid_a_little_off_in_its_own_shadow_is_told_by_the_ground_staying_plainly():
    # seen softer, and darkened by the twin's shadow, the old cut keeps under ``twin_cut_kept`` of its
    # strength (0.43 here), well over what a push leaves; the ground beside it stays plainly (``edge_plain``)
    config = DEFAULT_TRACKER_CONFIG
    twin, pushed = (_registered(after, soft=1.3, shadow=40.0) for after in (TWIN, PUSHED))
    assert config.cut_kept < cut_kept(twin[0], twin[1].warp, twin[1].seen, config) < config.twin_cut_kept
    assert stayed_put(*twin, config)
    assert not stayed_put(*pushed, config) and moved_along(*pushed, config)


def test_a_twin_laid_off_a_lone_card_on_a_checked_cloth_is_told_by_the_cut_left_behind():
    # the cloth stays put under a push as under a twin: the old cut, still there, tells
    config = DEFAULT_TRACKER_CONFIG
    twin = [(TOP, _corners(*HERE)), (TOP, _corners(*_moved(HERE)))]
    assert stayed_put(*_registered(twin, alone=True, checked=True), config)
    assert not stayed_put(*_registered([(TOP, _corners(*_moved(HERE)))], alone=True, checked=True), config)


def test_a_pile_pushed_by_a_hand_resting_on_its_top_card_is_pushed_plainly():
    # the hand spoils the registration of the face and leaves too little of it to register without,
    # yet what lay beside the card plainly moved along, and its cut went with it
    config = DEFAULT_TRACKER_CONFIG
    face, shift = _registered(PUSHED, hand=True)
    assert config.face_loose_match <= shift.match < config.face_sure_match
    assert unhindered(face, shift, config) is None and not moved_along(face, shift, config)
    assert pushed_plainly(face, shift, config)
    assert not pushed_plainly(*_registered(TWIN, hand=True), config)


def test_a_twin_laid_a_little_off_with_a_fingertip_on_it_is_told_by_the_card_below_staying_put():
    # the fingertip spoils the registration a little (below ``cut_match``, at ``face_sure_match`` or
    # better); it could hide the old cut, but never show it where the card no longer lies
    config = DEFAULT_TRACKER_CONFIG
    top = _sighting(_corners(*HERE))
    face = face_of(_frame([(BELOW, _corners(*UNDER)), (TOP, _corners(*HERE))], seed=10), top, config)
    for after, twin in ((TWIN, True), (PUSHED, False)):
        now = cv2.ellipse(_frame(after, seed=11), (180, 215), (18, 40), 0, 0, 360, (120, 150, 200), -1)
        shift = face_shift(face, now, top, config)
        assert shift is not None and config.face_sure_match <= shift.match < config.cut_match
        assert stayed_put(face, shift, config) is twin


def test_the_cut_of_a_card_outlined_on_the_frame_printed_inside_it_is_its_edge():
    # the stand-in deck prints a frame just inside the card's edge, and an outline may lie on its inner side;
    # a twin 2 mm off covers that frame with its own white border, while the card's edge, a few pixels out,
    # still shows where the twin does not lie; a push takes the edge along
    config = DEFAULT_TRACKER_CONFIG
    art = Art.of()
    pineapple, salami = (cv2.resize(art.faces[parse_card(n)], CARD, interpolation=cv2.INTER_AREA) for n in "AS")
    here = _corners(*HERE)
    middle = here.mean(axis=0)
    inset = 1 - 0.0425 * CARD[0] / np.abs(here - middle).max(axis=0)  # the frame's inner side: 4 % of the width in
    on_frame = (middle + (here - middle) * inset).astype(np.float32)
    top = _sighting(on_frame)
    face = face_of(_frame([(salami, _corners(*UNDER)), (pineapple, here)], seed=10), top, config)
    move = (2.0, 1.5, 1.0)
    moved = (HERE[0] + move[0], HERE[1] + move[1], HERE[2] + move[2])
    under_moved = (UNDER[0] + move[0], UNDER[1] + move[1], UNDER[2] + move[2])
    twin = _frame([(salami, _corners(*UNDER)), (pineapple, here), (pineapple, _corners(*moved))], seed=11)
    pushed = _frame([(salami, _corners(*under_moved)), (pineapple, _corners(*moved))], seed=11)
    kept = []
    for now in (twin, pushed):
        shift = face_shift(face, now, top, config)
        assert shift is not None and shift.match >= config.cut_match
        kept.append(cut_kept(face, shift.warp, shift.seen, config))
    assert kept[0] >= config.twin_cut_kept and kept[1] < config.cut_kept
