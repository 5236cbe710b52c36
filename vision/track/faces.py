"""A card's face registered at full resolution, to tell whether it moved.

Outlines are rough to a pixel or two, and rougher with a hand near; a card
of the same kind laid a millimetre and a degree from the last one moves its
outline by less than that. The picture on the face, registered on how it
looked when it last settled, shows a shift of a few hundredths of a pixel.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from .config import TrackerConfig
from ..recognize.types import Detection


@dataclass(frozen=True)
class Face:
    """The middle of a card's face at full resolution, to register another view on."""

    patch: np.ndarray  # grey, resampled by ``scale``
    mask: np.ndarray   # the middle of the face on ``patch``
    quad: np.ndarray   # that middle's corners on ``patch``
    outline: np.ndarray  # the whole card's corners on ``patch``
    box: tuple[int, int, int, int]  # x0, y0, x1, y1 of the crop in frame pixels
    scale: float


def face_of(frame: np.ndarray | None, sighting: Detection, config: TrackerConfig,
            box: tuple[int, int, int, int] | None = None, scale: float | None = None) -> Face | None:
    """The middle of ``sighting``'s face in ``frame``, grey, blurred a little
    and resampled to ``config.face_width`` pixels across the card (or cut
    from ``box`` at ``scale``, to compare with an earlier view)."""
    if frame is None:
        return None
    height, width = frame.shape[:2]
    corners = sighting.corners
    if box is None:
        pad = 0.1 * sighting.width
        (x0, y0), (x1, y1) = corners.min(axis=0) - pad, corners.max(axis=0) + pad
        box = (max(0, int(x0)), max(0, int(y0)), min(width, int(np.ceil(x1))), min(height, int(np.ceil(y1))))
    x0, y0, x1, y1 = box
    if x1 - x0 < 8 or y1 - y0 < 8:
        return None
    crop = frame[y0:y1, x0:x1]
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) if crop.ndim == 3 else crop
    scale = scale or config.face_width / max(1.0, sighting.width)
    size = (max(8, round((x1 - x0) * scale)), max(8, round((y1 - y0) * scale)))
    patch = cv2.GaussianBlur(cv2.resize(grey, size, interpolation=cv2.INTER_AREA).astype(np.float32), (0, 0), 1.0)
    outline = (corners - np.array([x0, y0], np.float32)) * scale
    center = outline.mean(axis=0)
    quad = (center + (outline - center) * 0.8).astype(np.float32)
    mask = np.zeros(patch.shape, np.uint8)
    cv2.fillConvexPoly(mask, np.round(quad).astype(np.int32), 1)
    return Face(patch, mask, quad, outline.astype(np.float32), box, scale)


@dataclass(frozen=True)
class Shift:
    """How far a face moved between two views (mean corner shift of its
    middle, per card width), and how well the views matched once registered
    (correlation, up to 1)."""

    moved: float
    match: float
    turned: bool = False  # the face now lies turned half round
    # the registration: a point of the earlier view's patch to where it lies now (2x3), and the view now,
    # cut and resampled as the earlier one (both None when turned)
    warp: np.ndarray | None = field(default=None, compare=False, repr=False)
    seen: np.ndarray | None = field(default=None, compare=False, repr=False)


def face_shift(before: Face, frame: np.ndarray, sighting: Detection, config: TrackerConfig) -> Shift | None:
    """How far the face seen ``before`` has moved in ``frame``, cut from the
    same place; None when the two views cannot be registered. A face that
    registers only turned half round (a card of the same kind laid the other
    way up on the last) has moved by far more than any threshold."""
    now = face_of(frame, sighting, config, before.box, before.scale)
    if now is None or now.patch.shape != before.patch.shape:
        return None
    shift = _register(before, now.patch, np.eye(2, 3, dtype=np.float32), config)
    if shift is not None and shift.match >= config.face_sure_match:
        return shift
    # a face much like itself turned half round (an ingredient's picture) registers loosely either way, and
    # one with fingers on it may register about as well either way: turned only when clearly better so
    turned = _register(_half_turned(before), now.patch, np.eye(2, 3, dtype=np.float32), config)
    if turned is not None and turned.match >= config.face_match and \
            turned.match >= (0.0 if shift is None else shift.match) + config.turn_margin:
        return Shift(turned.moved, turned.match, True)
    return shift


def face_shift_along(before: Face, frame: np.ndarray, sighting: Detection, config: TrackerConfig) -> Shift | None:
    """How far the face seen ``before`` has moved in ``frame``, registered
    from where ``sighting``'s outline says it went rather than from where it
    was: a card of its kind laid several millimetres and degrees off the
    last lies beyond what registering from the old place finds. None when
    the views do not register so either."""
    now = face_of(frame, sighting, config, before.box, before.scale)
    if now is None or now.patch.shape != before.patch.shape:
        return None
    return _register(before, now.patch, _carried(before.outline, now.outline), config)


def _carried(before: np.ndarray, after: np.ndarray) -> np.ndarray:
    """The turn and shift (2x3) that carry the corners ``before`` nearest to
    ``after``, by the lesser turn of the two ways round the corners may be
    listed (an outline read upside down lists them half round).

    >>> square = np.float32([[0, 0], [2, 0], [2, 2], [0, 2]])
    >>> (np.round(_carried(square, square[[2, 3, 0, 1]] + 5), 3) + 0.0).tolist()
    [[1.0, 0.0, 5.0], [0.0, 1.0, 5.0]]
    """
    best, warp = np.inf, np.eye(2, 3, dtype=np.float32)
    for roll in (0, 2):
        target = np.roll(after, roll, axis=0).astype(np.float64)
        a, b = before - before.mean(axis=0), target - target.mean(axis=0)
        angle = np.arctan2((a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0]).sum(), (a * b).sum())
        turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
        shift = target.mean(axis=0) - turn @ before.mean(axis=0)
        if abs(angle) < best:
            best, warp = abs(angle), np.c_[turn, shift].astype(np.float32)
    return warp


def frame_warp(face: Face, shift: Shift) -> np.ndarray | None:
    """The move ``shift`` registered on ``face`` (patch pixels) as a warp
    of frame pixels (2x3); None when it was registered turned."""
    if shift.warp is None:
        return None
    turn, offset = shift.warp[:, :2].astype(np.float64), shift.warp[:, 2].astype(np.float64)
    corner = np.array(face.box[:2], np.float64)
    return np.c_[turn, corner - turn @ corner + offset / face.scale].astype(np.float32)


def carried_face(face: Face, warp: np.ndarray) -> Face:
    """``face`` as it lies after the card was carried by ``warp`` (frame
    pixels, 2x3): its crop moved by whole pixels, the rest of the move
    resampled on the patch. A card pushed along under the top one is
    registered where the push took it.

    >>> face = Face(np.zeros((20, 20), np.float32), np.ones((20, 20), np.uint8),
    ...             np.float32([[5, 5], [15, 5], [15, 15], [5, 15]]), np.float32([[0, 0], [20, 0], [20, 20], [0, 20]]),
    ...             (100, 50, 120, 70), 1.0)
    >>> moved = carried_face(face, np.float32([[1, 0, 3.4], [0, 1, -2.0]]))
    >>> moved.box, [round(float(v), 2) for v in moved.quad[0]]
    ((103, 48, 123, 68), [5.4, 5.0])
    """
    corner = np.array(face.box[:2], np.float64)
    moved = warp[:, :2].astype(np.float64) @ corner + warp[:, 2] - corner
    whole = np.round(moved).astype(int)
    # patch pixels of the old crop to patch pixels of the crop moved by whole pixels
    on_patch = np.c_[warp[:, :2], face.scale * (moved - whole)].astype(np.float32)
    size = (face.patch.shape[1], face.patch.shape[0])
    patch = cv2.warpAffine(face.patch, on_patch, size, borderMode=cv2.BORDER_REPLICATE)
    mask = cv2.warpAffine(face.mask, on_patch, size, flags=cv2.INTER_NEAREST)
    quad, outline = ((np.c_[q, np.ones(4)] @ on_patch.T).astype(np.float32) for q in (face.quad, face.outline))
    x0, y0, x1, y1 = face.box
    box = (x0 + int(whole[0]), y0 + int(whole[1]), x1 + int(whole[0]), y1 + int(whole[1]))
    return Face(patch, mask, quad, outline, box, face.scale)


def _half_turned(face: Face) -> Face:
    """``face`` turned half round about its middle, on the same patch."""
    middle = face.quad.mean(axis=0)
    turn = cv2.getRotationMatrix2D((float(middle[0]), float(middle[1])), 180, 1.0)
    size = (face.patch.shape[1], face.patch.shape[0])
    patch = cv2.warpAffine(face.patch, turn, size, borderMode=cv2.BORDER_REFLECT)
    mask = cv2.warpAffine(face.mask, turn, size, flags=cv2.INTER_NEAREST)
    quad, outline = ((np.c_[q, np.ones(4)] @ turn.T).astype(np.float32) for q in (face.quad, face.outline))
    return Face(patch, mask, quad, outline, face.box, face.scale)


def unhindered(before: Face, shift: Shift, config: TrackerConfig) -> Shift | None:
    """``shift`` registered again on the part of the face the two views show
    alike: fingers on the card in either view (a hand that held still on it
    when its face was taken, or one pushing it now) are left out. None when
    too little of the face is left (``face_unhindered``) or it does not
    register.

    A pile pushed by a hand resting on its top card registers at about 0.9
    on the whole face; on the rest of it, as a card moved whole, at 0.99."""
    if shift.warp is None or shift.seen is None:
        return None
    height, width = before.patch.shape
    back = cv2.warpAffine(shift.seen, shift.warp, (width, height), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)
    inside = before.mask > 0
    # correlation ignores brightness and contrast: so does the comparison, in units of each view's spread
    off = np.abs(_standard(before.patch, inside) - _standard(back, inside))
    apart = (off > config.face_outlier).astype(np.uint8)
    alike = inside & (cv2.dilate(apart, np.ones((5, 5), np.uint8)) == 0)
    if alike.sum() < config.face_unhindered * inside.sum():
        return None
    return _register(before, shift.seen, shift.warp, config, alike.astype(np.uint8))


def _standard(patch: np.ndarray, inside: np.ndarray) -> np.ndarray:
    values = patch[inside]
    return (patch - values.mean()) / max(float(values.std()), 1e-3)


def _register(before: Face, seen: np.ndarray, warp: np.ndarray, config: TrackerConfig,
              mask: np.ndarray | None = None) -> Shift | None:
    criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 50, config.face_register_step)
    try:
        # OpenCV refines the warp it is given in place: the caller's registration must stay as it was
        match, warp = cv2.findTransformECC(before.patch, seen, warp.copy(), cv2.MOTION_EUCLIDEAN, criteria,
                                           before.mask if mask is None else mask, 1)
    except cv2.error:  # did not converge: the faces are too unlike to tell
        return None
    moved = np.linalg.norm(np.c_[before.quad, np.ones(4)] @ warp.T - before.quad, axis=1).mean()
    return Shift(float(moved) / config.face_width, float(match), warp=warp, seen=seen)
