"""Putting card images into a scene through a homography, with a soft
shadow, while keeping a label map of which card (or hand) is visible where.

Label values: ``-1`` table, ``-2`` hand, ``k >= 0`` the k-th card drawn.
"""
from __future__ import annotations

import math

import cv2
import numpy as np

from vision.cvcompat import warp
from tools.synth.deck_art import face_mask
from vision.geometry import card_quad, translation

TABLE = -1
HAND = -2


def new_labels(size: tuple[int, int]) -> np.ndarray:
    return np.full((size[1], size[0]), TABLE, np.int16)


def composite_card(scene: np.ndarray, labels: np.ndarray, index: int, face: np.ndarray,
                   face_to_image: np.ndarray, shadow: float = 0.35) -> np.ndarray:
    """Draw ``face`` (rounded corners) into ``scene`` in place; returns its quad."""
    fh, fw = face.shape[:2]
    quad = card_quad(face_to_image, (fw, fh))
    side = math.dist(quad[0], quad[1])
    pad = int(max(4, side * 0.08))
    h, w = scene.shape[:2]
    x0, y0 = max(0, int(quad[:, 0].min()) - pad), max(0, int(quad[:, 1].min()) - pad)
    x1, y1 = min(w, int(quad[:, 0].max()) + pad + 2), min(h, int(quad[:, 1].max()) + pad + 2)
    if x1 <= x0 or y1 <= y0:
        return quad
    local = translation(-x0, -y0) @ face_to_image
    size = (x1 - x0, y1 - y0)
    alpha = warp(np.ascontiguousarray(face_mask(face)), local, size)
    region = scene[y0:y1, x0:x1].astype(np.float32)
    if shadow > 0:
        offset = translation(side * 0.025, side * 0.035) @ local
        soft = cv2.GaussianBlur(warp(np.ascontiguousarray(face_mask(face)), offset, size), (0, 0), side * 0.03 + 0.5)
        region *= (1.0 - shadow * soft)[..., None]
    colour = warp(face, local, size).astype(np.float32)
    a = alpha[..., None]
    scene[y0:y1, x0:x1] = np.clip(region * (1 - a) + colour * a, 0, 255).astype(np.uint8)
    labels[y0:y1, x0:x1][alpha > 0.5] = index
    return quad


def visible_fraction(labels: np.ndarray, index: int, quad: np.ndarray) -> float:
    """Share of the card's face area that ends up visible in the frame."""
    from vision.geometry import quad_area

    area = quad_area(quad)
    return 0.0 if area <= 0 else min(1.0, float(np.count_nonzero(labels == index)) / area)
