"""Drawing what the recogniser saw onto the image, for people checking it.

Each card gets its outline, a dot on the face's top-left corner (so a card
read upside down is obvious) and a label with its notation and confidence.
Lines have a dark halo and labels a dark box, so they stay readable on wood,
cloth, glare and the card art itself. Sure matches are green, unsure ones
(low confidence, or a close runner-up) amber.
"""
from __future__ import annotations

from typing import Sequence

import cv2
import numpy as np

from ..cvcompat import LINE_AA, Color3, put_text, text_size
from .config import DEFAULT_CONFIG, VisionConfig
from .types import Detection

SURE: Color3 = (60, 220, 60)
UNSURE: Color3 = (0, 190, 255)
HALO: Color3 = (20, 20, 20)
TEXT: Color3 = (255, 255, 255)
FONT = cv2.FONT_HERSHEY_SIMPLEX


def annotate(image: np.ndarray, detections: Sequence[Detection],
             config: VisionConfig = DEFAULT_CONFIG) -> np.ndarray:
    """A copy of ``image`` with every detection drawn; the most confident last (on top)."""
    canvas = image.copy()
    unit = max(0.5, min(canvas.shape[:2]) / 720)
    for detection in sorted(detections, key=lambda d: d.confidence):
        colour = SURE if config.is_sure(detection.match) else UNSURE
        corners = np.asarray(detection.corners, np.float32)
        _outline(canvas, corners, colour, unit)
        _label(canvas, label_text(detection), corners, colour, unit)
    return canvas


def label_text(detection: Detection) -> str:
    return f"{detection.card.notation} {detection.confidence:.2f}"


def _outline(canvas: np.ndarray, corners: np.ndarray, colour: Color3, unit: float) -> None:
    points = np.round(corners).astype(np.int32).reshape(-1, 1, 2)
    width = max(2, round(3 * unit))
    cv2.polylines(canvas, [points], True, HALO, width + 2 * max(1, round(unit)), LINE_AA)
    cv2.polylines(canvas, [points], True, colour, width, LINE_AA)
    centre = (round(float(corners[0][0])), round(float(corners[0][1])))
    radius = max(4, round(7 * unit))
    cv2.circle(canvas, centre, radius + max(1, round(unit)), HALO, -1, LINE_AA)
    cv2.circle(canvas, centre, radius, colour, -1, LINE_AA)


def _label(canvas: np.ndarray, text: str, corners: np.ndarray, colour: Color3, unit: float) -> None:
    """Text in a dark box just outside the card's top-left corner, kept inside the image."""
    scale, thickness = 0.7 * unit, max(1, round(2 * unit))
    width, height, baseline = text_size(text, FONT, scale, thickness)
    pad = max(3, round(5 * unit))
    box_w, box_h = width + 2 * pad, height + baseline + 2 * pad
    x = round(float(corners[0][0])) + pad
    y = round(float(corners[0][1])) - box_h - pad
    if y < 0:  # no room above the corner: put the label below it
        y = round(float(corners[0][1])) + pad
    x = min(max(0, x), max(0, canvas.shape[1] - box_w))
    y = min(max(0, y), max(0, canvas.shape[0] - box_h))
    cv2.rectangle(canvas, (x, y), (x + box_w, y + box_h), HALO, -1)
    cv2.rectangle(canvas, (x, y), (x + box_w, y + box_h), colour, max(1, round(unit)))
    put_text(canvas, text, (x + pad, y + pad + height), FONT, scale, TEXT, thickness)
