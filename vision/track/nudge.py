"""Whether the pile moved along with its top card: a nudge, not a twin laid a little off.

A card of the top card's kind laid a few millimetres from it and the top card
pushed as far show the same thing on the face: the same picture, moved. What
differs is the card that was on top. Under a twin it stays where it lay, and
the stretch of its edge the twin leaves bare shows exactly as before; pushed,
it went along, and what shows at its old edge now is what lay beside it then
(the cards below, the table), moved as the face moved.

So the ground just outside the old outline is compared, pixel by pixel and
by its edges, with the earlier view as it was and with the earlier view
moved as the face moved (the registration of :mod:`vision.track.faces`).
Pixels that neither explains (a finger) count for neither. The ground leaves
no evidence when the new card covers it (a twin within a millimetre: the
face registration tells that one apart) or when it is plain; the pile then
counts as not pushed.
"""
from __future__ import annotations

import cv2
import numpy as np

from .config import TrackerConfig
from .faces import Face, Shift


def moved_along(before: Face, shift: Shift, config: TrackerConfig) -> bool:
    """Whether the bare ground just outside the top card's old outline, in
    the view ``shift`` registered on ``before`` (cleanly, and moved by at
    least ``edge_least_move``: a card moved less keeps its own blurred edge in
    that ground), shows the earlier view moved as the face moved clearly more
    than the earlier view as it was: the card and what lay beside it were
    pushed together."""
    if shift.warp is None or shift.seen is None or shift.match < config.face_sure_match or \
            shift.moved < config.edge_least_move:
        return False
    ground = _bare_ground(before, shift.warp, config)
    if int(ground.sum()) < config.edge_least_pixels:
        return False
    height, width = before.patch.shape
    pushed = cv2.warpAffine(before.patch, shift.warp, (width, height), borderMode=cv2.BORDER_REPLICATE)
    # edges, not grey levels: the new card's shadow darkens the card it lies on smoothly
    seen, as_it_was, as_pushed = (_gradients(patch)[ground] for patch in (shift.seen, before.patch, pushed))
    off_was = np.linalg.norm(seen - as_it_was, axis=1)
    off_pushed = np.linalg.norm(seen - as_pushed, axis=1)
    explained = np.minimum(off_was, off_pushed) < config.edge_explained
    for_push = float(((off_was - off_pushed > config.edge_contrast) & explained).mean())
    for_stay = float(((off_pushed - off_was > config.edge_contrast) & explained).mean())
    return for_push >= config.edge_pushed and for_push >= config.edge_ratio * for_stay


def _gradients(patch: np.ndarray) -> np.ndarray:
    """The horizontal and vertical gradient of ``patch`` at each pixel (rows, columns, 2)."""
    return np.dstack([cv2.Sobel(patch, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(patch, cv2.CV_32F, 0, 1, ksize=3)])


def _bare_ground(before: Face, warp: np.ndarray, config: TrackerConfig) -> np.ndarray:
    """The pixels of ``before``'s patch just outside the card's outline there
    (within ``edge_band``: an outline may lie on a frame printed inside the
    cut, and the card's cut and what lay beside it are a few pixels out), and
    farther than ``edge_gap`` from the card where the registration puts it
    now (its edge blurs and casts a shadow)."""
    shape = before.patch.shape
    band, gap = (max(1, round(f * config.face_width)) for f in (config.edge_band, config.edge_gap))
    card = np.zeros(shape, np.uint8)
    cv2.fillConvexPoly(card, np.round(before.outline).astype(np.int32), 1)
    ground = (cv2.dilate(card, np.ones((2 * band + 1, 2 * band + 1), np.uint8)) > 0) & (card == 0)
    now = np.zeros(shape, np.uint8)
    cv2.fillConvexPoly(now, np.round(np.c_[before.outline, np.ones(4)] @ warp.T).astype(np.int32), 1)
    ground &= cv2.dilate(now, np.ones((2 * gap + 1, 2 * gap + 1), np.uint8)) == 0
    # the border of the patch: the moved view is made up there
    ground[:band + 1], ground[-band - 1:], ground[:, :band + 1], ground[:, -band - 1:] = False, False, False, False
    return ground
