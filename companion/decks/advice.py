"""What the app tells a player teaching a deck: which card a new picture
probably is, and which taught faces look so alike the camera might confuse
them.

A face can rarely be named from art never seen before, so the suggestions
are modest: the next card still missing in the pad's order, and a warning
when the picture looks like a face already taught (most likely that card
photographed again).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from vision.recognize.capture import DEFAULT_CAPTURE, CaptureConfig
from vision.recognize.imagefile import ImageFileError, read_image
from vision.recognize.likeness import Signature, likeness, signature, where_they_differ

from .store import Card, Deck


@dataclass(frozen=True)
class Likeness:
    """A taught face like another, how alike (0..1) and where they differ most."""

    card: Card
    similarity: float
    where: str


@dataclass(frozen=True)
class Suggestion:
    card: Card
    reason: str
    taught: bool  # the card already has a face in the deck: most likely a retake by mistake


def similar_faces(deck: Deck, face: np.ndarray, config: CaptureConfig = DEFAULT_CAPTURE,
                  least: float | None = None) -> list[Likeness]:
    """The deck's taught faces at least ``least`` (default: ``config.similar``)
    alike to ``face``, the most alike first."""
    least = config.similar if least is None else least
    new = signature(face)
    found = []
    for card, path in deck.faces.items():
        taught = _signature_of(path)
        if taught is None:
            continue
        similarity = likeness(new, taught)
        if similarity >= least:
            found.append(Likeness(card, similarity, where_they_differ(new, taught)))
    return sorted(found, key=lambda x: -x.similarity)


def suggestions(deck: Deck, face: np.ndarray, config: CaptureConfig = DEFAULT_CAPTURE) -> list[Suggestion]:
    """For a picture not named yet: the taught face it looks like, if any,
    then the next card missing."""
    found = []
    lookalikes = similar_faces(deck, face, config, least=config.same)
    if lookalikes:
        card = lookalikes[0].card
        found.append(Suggestion(card, f"this looks like the {deck.game.describe(card)} you already taught", True))
    if deck.missing:
        card = deck.missing[0]
        found.append(Suggestion(card, f"the next card still missing: {deck.game.describe(card)}", False))
    return found


def _signature_of(path: Path) -> Signature | None:
    try:
        modified = path.stat().st_mtime_ns
    except OSError:
        return None
    return _cached_signature(str(path), modified)


@lru_cache(maxsize=512)
def _cached_signature(path: str, modified: int) -> Signature | None:
    """A taught face's signature, read once per version of its file (a retake is a new file)."""
    try:
        return signature(read_image(path))
    except ImageFileError:
        return None
