"""Pictures for people: a grid of photos with their ground truth drawn on,
so a glance shows both what the camera saw and what the truth claims."""
from __future__ import annotations

from typing import Sequence

import cv2
import numpy as np

from vision.cvcompat import put_text
from tools.synth.synth_photo import SyntheticPhoto


def annotate(photo: SyntheticPhoto) -> np.ndarray:
    """The photo with each card's quad (green: top, orange: under), a red dot
    on its top-left corner and its notation."""
    image = photo.image.copy()
    for truth in photo.cards:
        quad = np.round(np.array(truth.corners)).astype(np.int32)
        colour = (60, 220, 60) if truth.top else (0, 160, 255)
        cv2.polylines(image, [quad], True, colour, 3, cv2.LINE_AA)
        cv2.circle(image, (int(quad[0][0]), int(quad[0][1])), 9, (0, 0, 255), -1, cv2.LINE_AA)
        label = f"{truth.card.notation} {truth.visible_fraction:.0%}"
        x, y = int(quad[:, 0].min()), int(quad[:, 1].min()) - 8
        put_text(image, label, (max(0, x), max(24, y)), cv2.FONT_HERSHEY_SIMPLEX, 0.9, (255, 255, 255), 4)
        put_text(image, label, (max(0, x), max(24, y)), cv2.FONT_HERSHEY_SIMPLEX, 0.9, (20, 20, 20), 2)
    if not photo.cards:
        put_text(image, "no card", (20, 50), cv2.FONT_HERSHEY_SIMPLEX, 1.4, (20, 20, 20), 3)
    return image


def photo_grid(photos: Sequence[SyntheticPhoto], columns: int = 4, width: int = 480) -> np.ndarray:
    tiles = []
    for photo in photos:
        image = annotate(photo)
        height = round(width * image.shape[0] / image.shape[1])
        tiles.append(cv2.resize(image, (width, height), interpolation=cv2.INTER_AREA))
    while len(tiles) % columns:
        tiles.append(np.zeros_like(tiles[0]))
    rows = [np.hstack(tiles[i:i + columns]) for i in range(0, len(tiles), columns)]
    return np.vstack(rows)
