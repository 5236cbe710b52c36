"""The Maus faces the camera knows: taught by a table, or the stand-in deck.

A Maus deck folder is a deck folder as for Mamma Mia! (:mod:`vision.recognize.decks`:
``manifest.json`` and one image per face, ``enrolled/`` after enrollment),
whose manifest names each face in Maus card notation with its coins::

    {"cards": [{"image": "g5-3.png", "card": "g5/3"}, ...]}

A table teaches every distinct ingredient x value x coins face its deck has
(70 for the stand-in spread: docs/maus.md): faces differing only in coins
look alike everywhere but in their corners, and a face never taught is read
as the nearest one that was.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable

import numpy as np

from companion.assets import MAUS_DECK_DIR
from companion.maus.engine import Card, NotationError

from ..builtcache import kept
from ..recognize.decks import MANIFEST, DeckError, deck_folder, load_faces
from ..recognize.identify import ReferenceDeck
from .config import DEFAULT_MAUS_CONFIG, MausVisionConfig
from .numbers import CoinTemplates, NumeralTemplates


def card_from_manifest(value: Any) -> Card:
    """A manifest's ``card``: Maus card notation with the coins, ``"g5/3"``."""
    if not isinstance(value, str):
        raise ValueError(f"expected a card in Maus notation with its coins, like \"g5/3\", not {value!r}")
    try:
        card = Card.from_notation(value)
    except NotationError as error:
        raise ValueError(str(error)) from None
    if card.coins is None:
        raise ValueError(f"{value!r} lacks its coins: write it like \"{value}/3\"")
    return card


@dataclass(frozen=True, eq=False)
class MausDeck:
    """What the reader compares with: the faces' descriptors (the Mamma
    Mia! recogniser's, which name a face whatever it shows), and the numerals
    and coins as the same faces print them."""

    reference: ReferenceDeck
    numerals: NumeralTemplates
    coins: CoinTemplates

    @classmethod
    def from_faces(cls, faces: Iterable[tuple[Card, np.ndarray]],
                   config: MausVisionConfig = DEFAULT_MAUS_CONFIG) -> MausDeck:
        faces = list(faces)
        if not faces:
            raise DeckError("a Maus deck needs at least one face")
        # close faces (those differing only in their coins) are told apart by the coins'
        # own templates, not by the recogniser's second look
        reference = ReferenceDeck.from_faces(faces, config.recognise, discern=False)  # type: ignore[arg-type]
        return cls(reference, NumeralTemplates.learn(faces, config), CoinTemplates.learn(faces, config))

    @property
    def cards(self) -> tuple[Card, ...]:
        return self.reference.cards  # type: ignore[return-value]

    def __len__(self) -> int:
        return len(self.reference)


def load_maus_faces(folder: str | Path | None = None) -> list[tuple[Card, np.ndarray]]:
    """(card, upright face) of the Maus deck in ``folder`` (default: the
    stand-in deck the app ships), or :class:`DeckError` naming the file."""
    return load_faces(folder if folder is not None else MAUS_DECK_DIR, card_from_manifest)  # type: ignore[return-value]


def load_maus_deck(folder: str | Path | None = None, config: MausVisionConfig = DEFAULT_MAUS_CONFIG) -> MausDeck:
    """The deck in ``folder`` (default: the stand-in), built once per
    version of its manifest (building takes about a second) and kept on
    disk between runs (:mod:`vision.builtcache`)."""
    source = deck_folder(folder if folder is not None else MAUS_DECK_DIR)
    try:
        stamp = (source / MANIFEST).stat()
    except OSError:
        return MausDeck.from_faces(load_maus_faces(folder), config)  # load_faces says what is wrong
    return _built(str(source.resolve()), stamp.st_mtime_ns, stamp.st_size, config)


@lru_cache(maxsize=4)
def _built(source: str, modified: int, size: int, config: MausVisionConfig) -> MausDeck:
    return kept(Path(source), config, lambda: MausDeck.from_faces(load_maus_faces(source), config))
