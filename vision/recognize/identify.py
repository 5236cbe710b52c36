"""Stage 3: say which card a rectified face is.

Each face becomes a descriptor: its colours at low resolution, with each
channel's brightness level and linear light gradient removed and its contrast
normalised. Uneven light, colour casts and exposure then cancel out, while
what is printed (frame colour, the icons on the pizza) remains. A face is
compared with every reference, upright and upside down, by correlation.
Nothing here knows how the stand-in art looks: references come from images.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable

import cv2
import numpy as np

from companion.engine import Card

from .config import DEFAULT_CONFIG, VisionConfig
from .discern import FineDeck
from .types import Match


@lru_cache(maxsize=8)
def _planes(width: int, height: int) -> np.ndarray:
    """The planes a + b*x + c*y over a (width x height) face, orthonormal, as
    columns that pick them out of a flattened opponent face: column 3*k + c
    holds plane k on channel c (pixel p of channel c is entry 3*p + c)."""
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float64)
    basis = np.stack([np.ones(width * height), xs.ravel() / width - 0.5, ys.ravel() / height - 0.5], 1)
    orthonormal = np.linalg.qr(basis)[0]
    columns = np.zeros((width * height * 3, 9), np.float32)
    for channel in range(3):
        columns[channel::3, channel::3] = orthonormal
    return columns


def describe(face: np.ndarray, config: VisionConfig = DEFAULT_CONFIG) -> np.ndarray:
    """Unit-length descriptor of a face (at ``config.face_size``, or at
    ``config.glance_size`` for a glance).

    Brightness and two colour-opponent channels (red-green, yellow-blue), each
    with its level and linear gradient removed, then scaled together to unit
    length, so colour differences keep their strength relative to brightness
    (a red and a brown frame differ mostly in red-green).
    """
    return describe_many(face[None], config)[0]


def describe_many(faces: np.ndarray, config: VisionConfig = DEFAULT_CONFIG) -> np.ndarray:
    """:func:`describe` for a stack of faces (n, height, width, 3): one row each."""
    count, height, width = faces.shape[:3]
    mx, my = round(width * config.face_margin), round(height * config.face_margin)
    inner = np.ascontiguousarray(faces[:, my:height - my, mx:width - mx], np.float32)
    h, w = inner.shape[1:3]
    opponent = cv2.transform(inner.reshape(count * h, w, 3), _OPPONENT).reshape(count, h * w * 3)
    planes = _planes(w, h)
    flat = opponent - (opponent @ planes) @ planes.T
    return flat / (np.linalg.norm(flat, axis=1, keepdims=True) + 1e-6)


# rows: brightness, red-green, yellow-blue; columns: the B, G, R input channels
_OPPONENT = np.array([[1 / 3, 1 / 3, 1 / 3], [0, -1, 1], [-1, 0.5, 0.5]], np.float32)


def canonical_face(image: np.ndarray, config: VisionConfig = DEFAULT_CONFIG,
                   size: tuple[int, int] | None = None) -> np.ndarray:
    """A reference image (any size, portrait) brought to the descriptor size
    (or ``size``, width and height)."""
    return cv2.resize(image, size or config.face_size, interpolation=cv2.INTER_AREA)


def gray_templates(image: np.ndarray, config: VisionConfig = DEFAULT_CONFIG) -> tuple[np.ndarray, ...]:
    """The face in gray at each alignment size, coarse to fine."""
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    return tuple(cv2.resize(gray, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32)
                 for w, h in (step.template for step in config.refine_steps))


def _turned(descriptors: np.ndarray) -> np.ndarray:
    """Descriptors of the faces turned 180 degrees: the pixel order reversed
    (the border crop and the plane removal are symmetric), channels kept."""
    return descriptors.reshape(len(descriptors), -1, 3)[:, ::-1, :].reshape(len(descriptors), -1)


@dataclass(frozen=True, eq=False)
class ReferenceDeck:
    """The descriptors of every distinct face of a deck."""

    cards: tuple[Card, ...]
    matrix: np.ndarray  # a descriptor per row: every card upright, then every card upside down
    templates: tuple[tuple[np.ndarray, ...], ...]  # per card: gray faces for alignment, coarse to fine
    config: VisionConfig = DEFAULT_CONFIG
    glance: np.ndarray | None = None  # as ``matrix``, of the faces at ``config.glance_size``
    fine: FineDeck | None = None  # the close faces' families, compared at full resolution

    @classmethod
    def from_faces(cls, faces: Iterable[tuple[Card, np.ndarray]], config: VisionConfig = DEFAULT_CONFIG,
                   discern: bool = True) -> ReferenceDeck:
        """``faces``: (card, upright face image cropped to the card) pairs.
        Without ``discern`` close faces are not compared again at full
        resolution (:mod:`.discern`): for a deck whose close faces another
        stage tells apart, that saves building the families, which grows
        with their size."""
        cards, images, canonical, small, templates = [], [], [], [], []
        for card, image in faces:
            cards.append(card)
            images.append(image)
            canonical.append(canonical_face(image, config))
            small.append(canonical_face(image, config, config.glance_size))
            templates.append(gray_templates(image, config))
        upright, glance = describe_many(np.stack(canonical), config), describe_many(np.stack(small), config)
        matrix = np.vstack([upright, _turned(upright)])
        return cls(tuple(cards), matrix, tuple(templates), config, np.vstack([glance, _turned(glance)]),
                   FineDeck(images, matrix, config) if discern else None)

    def templates_of(self, card: Card) -> tuple[np.ndarray, ...]:
        return self.templates[self.cards.index(card)]

    def __len__(self) -> int:
        return len(self.cards)


def identify(face: np.ndarray, deck: ReferenceDeck) -> Match:
    """The best reference for ``face`` (at ``deck.config.face_size``), either way up."""
    return identify_many(face[None], deck)[0]


def card_scores(face: np.ndarray, deck: ReferenceDeck) -> np.ndarray:
    """The similarity of ``face`` (at ``deck.config.face_size``) to each
    card of ``deck``, either way up: one value per card."""
    return (describe(face, deck.config) @ deck.matrix.T).reshape(2, -1).max(axis=0)


def identify_many(faces: np.ndarray, deck: ReferenceDeck, glance: bool = False) -> list[Match]:
    """:func:`identify` for a stack of faces (n, height, width, 3), in one
    matrix product against the references stored both ways up. A ``glance``
    compares faces at ``config.glance_size``: so few pixels that an outline
    a few pixels off still finds its card, though cards that differ only in
    detail come out nearly equal."""
    if not len(faces):
        return []
    references = deck.glance if glance else deck.matrix
    scores = (describe_many(faces, deck.config) @ references.T).reshape(len(faces), 2, -1)
    per_card = scores.max(axis=1)  # (n, cards): the better way up
    rows = np.arange(len(faces))
    best = per_card.argmax(axis=1)
    turned = (scores[rows, 1, best] > scores[rows, 0, best]).tolist()
    confidence = np.maximum(per_card[rows, best], 0.0).tolist()
    if per_card.shape[1] == 1:
        return [Match(deck.cards[0], c, t, None, 0.0) for c, t in zip(confidence, turned)]
    per_card[rows, best] = -np.inf
    second = per_card.argmax(axis=1)
    runner_up_confidence = np.maximum(per_card[rows, second], 0.0).tolist()
    cards = deck.cards
    return [Match(cards[b], c, t, cards[s], r)
            for b, c, t, s, r in zip(best.tolist(), confidence, turned, second.tolist(), runner_up_confidence)]
