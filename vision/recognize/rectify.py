"""Stage 2: cut a card out of the image as an upright, canonical face."""
from __future__ import annotations

import cv2
import numpy as np

from .types import Quad


def rectify(image: np.ndarray, quad: Quad, size: tuple[int, int]) -> np.ndarray:
    """The face inside ``quad`` warped to ``size`` (width, height), first corner top-left.

    Warps to twice the size and then averages down, so fine detail is smoothed
    rather than aliased.
    """
    width, height = size
    target = np.array([[0, 0], [2 * width, 0], [2 * width, 2 * height], [0, 2 * height]], np.float32)
    matrix = cv2.getPerspectiveTransform(quad.corners.astype(np.float32), target)
    big = cv2.warpPerspective(image, matrix, (2 * width, 2 * height), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_REPLICATE)
    return cv2.resize(big, (width, height), interpolation=cv2.INTER_AREA)
