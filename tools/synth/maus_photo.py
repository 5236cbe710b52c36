"""Synthetic photos of Maus au Chocolat cards laid side by side, with truth.

A player lays three or four cards in a row (a combination, or the bids turned
up) and photographs them. The row may lie at a slant, a card a little askew
or upside down, the camera tilted; the table and the camera's defects are the
Mamma Mia! synthetic camera's (:mod:`tools.synth.photo_spec`,
:mod:`tools.synth.synth_photo`), which draws any faces it is given.

>>> art = MausArt.of()
>>> photo = random_laid_photo(art, item_rng(7, 0))
>>> 3 <= len(photo.cards) <= 4, photo.image.shape
(True, (720, 1280, 3))
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator, Mapping, Sequence

import numpy as np

from companion.maus.engine import Card

from tools.synth.camera_effects import CameraLook
from tools.synth.datasets import item_rng
from tools.synth.maus_art import maus_faces, render_maus_back, render_maus_face
from tools.synth.maus_style import DEFAULT_MAUS_STYLE, MausStyle
from tools.synth.backgrounds import TABLE_KINDS
from tools.synth.photo_spec import PhotoSpec, PlacedCard, card_fits
from tools.synth.synth_photo import SyntheticPhoto, render_table_photo
from vision.geometry import CARD_MM, Camera, CardPose

LAID = "laid"


@dataclass(frozen=True)
class MausArt:
    """The images the synthetic camera films: every face and the back."""

    faces: Mapping[Card, np.ndarray]
    back: np.ndarray

    @classmethod
    def of(cls, style: MausStyle = DEFAULT_MAUS_STYLE) -> MausArt:
        return cls({card: render_maus_face(card, style) for card in maus_faces()}, render_maus_back(style))


def sample_laid_spec(rng: np.random.Generator, faces: Sequence[Card], size: tuple[int, int] = (1280, 720),
                     count: int | None = None) -> PhotoSpec:
    """3 or 4 cards (or ``count``) side by side, left to right in the row's
    own direction; the row turned by up to 20 degrees (sometimes photographed
    from the other side of the table), each card askew by a few degrees and
    now and then laid upside down."""
    count = count or int(rng.integers(3, 5))
    cards = [faces[int(rng.integers(len(faces)))] for _ in range(count)]
    gap = float(rng.uniform(4, 20))
    turn = float(rng.uniform(-20, 20)) + (180.0 if rng.random() < 0.15 else 0.0)
    w, h = size
    for attempt in range(200):
        row_px = w * float(rng.uniform(0.55, 0.9)) * 0.98 ** attempt
        row_mm = count * CARD_MM[0] + (count - 1) * gap
        focal = w * float(rng.uniform(0.75, 1.3))
        camera = Camera(size, focal, focal * row_mm / row_px, tilt=float(rng.uniform(0, 30)),
                        tilt_axis=float(rng.uniform(0, 360)), roll=turn,
                        target=(w * float(rng.uniform(0.42, 0.58)), h * float(rng.uniform(0.42, 0.58))))
        poses = [_pose(k, count, gap, rng) for k in range(count)]
        if all(card_fits(camera, pose, 6) for pose in poses):
            break
    else:
        raise RuntimeError("no row of cards fits the frame")
    placed = tuple(PlacedCard(card, pose) for card, pose in zip(cards, poses))
    return PhotoSpec(LAID, size, TABLE_KINDS[int(rng.integers(len(TABLE_KINDS)))], camera, placed, (), None, CameraLook.sample(size, rng))


def _pose(k: int, count: int, gap: float, rng: np.random.Generator) -> CardPose:
    x = (k - (count - 1) / 2) * (CARD_MM[0] + gap) + float(rng.normal(0, 1.5))
    upside = 180.0 if rng.random() < 0.1 else 0.0
    return CardPose(x, float(rng.normal(0, 3)), upside + float(rng.normal(0, 3)))


def random_laid_photo(art: MausArt, rng: np.random.Generator, size: tuple[int, int] = (1280, 720)) -> SyntheticPhoto:
    spec = sample_laid_spec(rng, list(art.faces), size)
    return render_table_photo(art.faces, spec, rng, art.back)


def laid_photo_stream(art: MausArt, count: int, seed: int, start: int = 0) -> Iterator[SyntheticPhoto]:
    """Photo ``i`` drawn from its own generator seeded with ``(seed, i)``."""
    for index in range(start, start + count):
        yield random_laid_photo(art, item_rng(seed, index))


def left_to_right(photo: SyntheticPhoto) -> list[Card]:
    """The laid cards as the photo shows them, left to right (by the centre of each)."""
    ordered = sorted(photo.cards, key=lambda truth: float(np.mean([x for x, _ in truth.corners])))
    return [truth.card for truth in ordered]


def truth_json(photo: SyntheticPhoto, image_name: str) -> dict[str, Any]:
    """What a laid photo shows, cards left to right in notation."""
    ordered = sorted(photo.cards, key=lambda truth: float(np.mean([x for x, _ in truth.corners])))
    return {"image": image_name, "size": list(photo.spec.size), "table": photo.spec.table,
            "camera": photo.spec.look.as_json(),
            "cards": [{"card": t.card.notation, "corners": [[round(x, 2), round(y, 2)] for x, y in t.corners],
                       "visible_fraction": round(t.visible_fraction, 3)} for t in ordered]}
