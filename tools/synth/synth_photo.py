"""Rendering a :class:`~vision.photo_spec.PhotoSpec` into a photo with its
ground truth: for each face-up card, its identity, the four corners of its
face in image pixels (TL, TR, BR, BL of the face as drawn), whether it is on
top of its pile and how much of it is visible.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np

from companion.engine import Card, card_to_json

from tools.synth.backgrounds import table_background
from tools.synth.camera_effects import shoot
from tools.synth.compose import HAND, composite_card, new_labels, visible_fraction
from tools.synth.deck_art import render_back
from tools.synth.hand import HandLook, draw_thumb
from tools.synth.photo_spec import PhotoSpec, sample_photo_spec
from tools.synth.style import DEFAULT_STYLE


@dataclass(frozen=True)
class CardTruth:
    card: Card
    corners: tuple[tuple[float, float], ...]  # TL, TR, BR, BL of the face
    top: bool  # no other card lies on it (a thumb may still cover part)
    visible_fraction: float

    def as_json(self) -> dict[str, Any]:
        return {
            "card": card_to_json(self.card),
            "corners": [[round(x, 2), round(y, 2)] for x, y in self.corners],
            "top": self.top,
            "visible_fraction": round(self.visible_fraction, 3),
        }


@dataclass(frozen=True)
class SyntheticPhoto:
    image: np.ndarray
    jpeg: bytes
    spec: PhotoSpec
    cards: tuple[CardTruth, ...]  # bottom to top, as drawn

    def truth_json(self, image_name: str) -> dict[str, Any]:
        spec = self.spec
        return {
            "image": image_name,
            "kind": spec.kind,
            "size": list(spec.size),
            "table": spec.table,
            "thumb": spec.thumb is not None,
            "face_down_cards": len(spec.backs),
            "camera": spec.look.as_json(),
            "cards": [c.as_json() for c in self.cards],
        }


def render_table_photo(faces: Mapping[Card, np.ndarray], spec: PhotoSpec, rng: np.random.Generator,
                       back: np.ndarray | None = None) -> SyntheticPhoto:
    """Draw the table, face-down cards, the face-up cards bottom first, the
    thumb, then pass it all through the camera."""
    scene = table_background(spec.table, spec.size, rng)
    labels = new_labels(spec.size)
    to_image = spec.camera.table_to_image()
    back_image = back if back is not None else render_back(DEFAULT_STYLE)
    for pose in spec.backs:
        composite_card(scene, labels, 10_000, back_image, to_image @ pose.face_to_table(_size(back_image)))
    quads = []
    for index, placed in enumerate(spec.cards):
        face = faces[placed.card]
        quads.append(composite_card(scene, labels, index, face, to_image @ placed.pose.face_to_table(_size(face))))
    if spec.thumb is not None:
        mask = np.zeros(labels.shape, np.uint8)
        draw_thumb(scene, mask, spec.thumb.tip, spec.thumb.direction, spec.thumb.width, HandLook.sample(rng))
        labels[mask > 127] = HAND
    shot = shoot(scene, spec.look, rng)
    truths = tuple(
        CardTruth(placed.card, tuple((float(x), float(y)) for x, y in quad), not placed.under,
                  visible_fraction(labels, index, quad))
        for index, (placed, quad) in enumerate(zip(spec.cards, quads))
    )
    return SyntheticPhoto(shot.image, shot.jpeg, spec, truths)


def _size(image: np.ndarray) -> tuple[int, int]:
    return image.shape[1], image.shape[0]


def random_photo(faces: Mapping[Card, np.ndarray], kind: str, rng: np.random.Generator,
                 size: tuple[int, int] = (1280, 720), back: np.ndarray | None = None) -> SyntheticPhoto:
    """Sample a spec of ``kind`` and render it, from one generator."""
    spec = sample_photo_spec(kind, rng, size, list(faces))
    return render_table_photo(faces, spec, rng, back)
