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
    matrix = cv2.getPerspectiveTransform(quad.corners.astype(np.float32), image_outline(k * width, k * height))
    warped = cv2.warpPerspective(image, matrix, (k * width, k * height), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_REPLICATE)
    return warped if k == 1 else cv2.resize(warped, (width, height), interpolation=cv2.INTER_AREA)


def rectify_many(image: np.ndarray, corners: np.ndarray, size: tuple[int, int], oversample: int) -> np.ndarray:
    """:func:`rectify` for a stack of outlines (n, 4, 2, image pixels): the
    faces (n, height, width, channels). They are warped one above the other
    into one image and averaged down together: the blocks averaged never
    straddle two faces."""
    width, height = size
    k = oversample
    target = image_outline(k * width, k * height)
    warped = np.empty((len(corners), k * height, k * width) + image.shape[2:], image.dtype)
    for face, outline in zip(warped, corners.astype(np.float32)):
        cv2.warpPerspective(image, cv2.getPerspectiveTransform(outline, target), (k * width, k * height), face,
                            flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    if k == 1:
        return warped
    if not len(corners):
        return np.empty((0, height, width) + image.shape[2:], image.dtype)
    column = warped.reshape((len(corners) * k * height, k * width) + image.shape[2:])
    small = cv2.resize(column, (width, len(corners) * height), interpolation=cv2.INTER_AREA)
    return small.reshape((len(corners), height, width) + image.shape[2:])


def image_outline(width: int, height: int) -> np.ndarray:
    """The outline of a ``width`` x ``height`` image: the outer corners of its
    corner pixels, clockwise from the top left. OpenCV puts a pixel's centre at
    integral coordinates, so the image spans -0.5 .. width - 0.5; mapping a
    card's corners here (not to 0 .. width) samples the face evenly, and a face
    cut out upside down is exactly the upright one turned.

    >>> image_outline(4, 2).tolist()
    [[-0.5, -0.5], [3.5, -0.5], [3.5, 1.5], [-0.5, 1.5]]
    """
    return np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32) - 0.5


def resized_points(points: np.ndarray, factor: float) -> np.ndarray:
    """Where ``points`` (pixel centres at integral coordinates) land in an
    image resized by ``factor``: the image's outline scales, so a point x
    goes to (x + 0.5) * factor - 0.5.

    >>> resized_points(image_outline(4, 2), 0.5).tolist()
    [[-0.5, -0.5], [1.5, -0.5], [1.5, 0.5], [-0.5, 0.5]]
    """
    return (points + 0.5) * factor - 0.5
