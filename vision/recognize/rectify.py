"""Stage 2: cut a card out of the image as an upright, canonical face."""
from __future__ import annotations

import cv2
import numpy as np

from .types import Quad


def rectify(image: np.ndarray, quad: Quad, size: tuple[int, int], oversample: int = 2) -> np.ndarray:
    """The face inside ``quad`` warped to ``size`` (width, height), first corner top-left.

    Warps to ``oversample`` times the size and then averages down, so fine
    detail of a large card is smoothed rather than aliased; an image already
    reduced to about the face's size needs no oversampling.
    """
    width, height = size
    k = oversample
    target = np.array([[0, 0], [k * width, 0], [k * width, k * height], [0, k * height]], np.float32)
    matrix = cv2.getPerspectiveTransform(quad.corners.astype(np.float32), target)
    warped = cv2.warpPerspective(image, matrix, (k * width, k * height), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_REPLICATE)
    return warped if k == 1 else cv2.resize(warped, (width, height), interpolation=cv2.INTER_AREA)
