"""How alike two faces of a deck are, and where they differ, for teaching.

A face is compared with another by the recogniser's own descriptors
(:func:`.identify.describe`), either way up as the recogniser compares
them, so a high likeness means the recogniser may confuse the two. Where
they differ is said in words a player can check on the cards ("the frame",
"the centre"), from their difference at a small size less its median (a
difference in light or colour cast between two photos is about the same
everywhere).
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .identify import canonical_face, describe

THUMB_SIZE = (50, 78)  # width, height: fine enough to tell a frame from the picture inside it
FRAME_SHARE = 0.12  # the outer band of the face, per side, that is its "frame"
REGIONS = ("the frame", "the top", "the centre", "the bottom")


@dataclass(frozen=True, eq=False)
class Signature:
    """What a face is compared by: its descriptor upright and turned over,
    and a small copy."""

    upright: np.ndarray
    turned: np.ndarray
    thumb: np.ndarray


def signature(face: np.ndarray) -> Signature:
    turned = cv2.rotate(face, cv2.ROTATE_180)
    thumb = cv2.resize(face, THUMB_SIZE, interpolation=cv2.INTER_AREA).astype(np.float32)
    return Signature(describe(canonical_face(face)), describe(canonical_face(turned)), thumb)


def likeness(one: Signature, other: Signature) -> float:
    """Correlation of the two faces' descriptors, the better way up (0..1)."""
    return max(0.0, float(max(one.upright @ other.upright, one.upright @ other.turned)))


def where_they_differ(one: Signature, other: Signature) -> str:
    """The part of the face (one of :data:`REGIONS`) where the two differ most."""
    other_thumb = other.thumb
    if one.upright @ other.turned > one.upright @ other.upright:
        other_thumb = other_thumb[::-1, ::-1]
    signed = one.thumb - other_thumb
    difference = np.abs(signed - np.median(signed, axis=(0, 1))).mean(axis=2)
    height, width = difference.shape
    bx, by = round(width * FRAME_SHARE), round(height * FRAME_SHARE)
    frame = np.ones_like(difference, bool)
    frame[by:height - by, bx:width - bx] = False
    inner = difference[by:height - by, bx:width - bx]
    thirds = np.array_split(inner, 3, axis=0)
    means = [difference[frame].mean()] + [part.mean() for part in thirds]
    return REGIONS[int(np.argmax(means))]
