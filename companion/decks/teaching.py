"""Teaching a deck from pictures: each picture's card is found and
straightened (:func:`vision.recognize.capture.capture`), a poor picture is
refused with the reason and a hint, and a good one is either taught at once
(its card named) or held until the player names it (:mod:`.pending`).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.cvcompat import encode_png
from vision.recognize.capture import DEFAULT_CAPTURE, CaptureConfig, Problem, capture
from vision.recognize.imagefile import read_image
from vision.recognize.misfits import MISFIT, fits

from . import pending
from .advice import Likeness, Suggestion, similar_faces, suggestions
from .games import MAMMA_MIA
from .store import Card, Deck, DeckStore, DeckStoreError

PNG_LEVEL = 3  # a face a few hundred kB, written in milliseconds


class PictureRefused(DeckStoreError):
    """A picture that would make a poor reference; ``problem`` says why and what to do."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.message)
        self.problem = problem


class UnknownCapture(DeckStoreError):
    pass


@dataclass(frozen=True)
class Taught:
    """A face added: the card, the deck now, and taught faces that look much like it."""

    card: Card
    deck: Deck
    similar: list[Likeness]


@dataclass(frozen=True)
class Held:
    """A picture waiting for its card to be named."""

    token: str
    deck: Deck
    suggestions: list[Suggestion]


def teach_picture(store: DeckStore, deck: Deck, image: np.ndarray, original: bytes, suffix: str,
                  card: Card | None = None, config: CaptureConfig = DEFAULT_CAPTURE) -> Taught | Held:
    """Teach ``card``'s face from ``image`` (the picture ``original``, a
    ``suffix`` file), or without ``card`` hold it for the player to name.
    ``deck`` is as the caller found it, editable and without ``card`` (a
    check worth making before reading the picture); the store checks both
    again as it adds the face."""
    found = capture(image, config)
    if not found.ok:
        raise PictureRefused(found.problems[0])
    assert found.face is not None
    face_png = encode_png(found.face, level=PNG_LEVEL)
    if card is None:
        held = pending.hold(deck.folder, face_png, original, suffix)
        return Held(held.token, deck, suggestions(deck, found.face, config))
    _check_fits(deck, card, found.face)
    return _taught(store.add_face(deck.id, card, face_png, original, suffix), card, found.face, config)


def teach_held(store: DeckStore, deck_id: str, token: str, card: Card,
               config: CaptureConfig = DEFAULT_CAPTURE) -> Taught:
    """Name the card of the picture held under ``token``: it is taught."""
    with store.lock:  # two taps on the same picture: the second finds it gone
        deck = store.editable(deck_id)
        held = held_capture(deck, token)
        store.check_new_face(deck, card)
        _check_fits(deck, card, read_image(held.face))
        face_png = held.face.read_bytes()
        added = store.add_face(deck_id, card, face_png, held.original.read_bytes(), held.original.suffix)
        pending.drop(held)
    return _taught(added, card, read_image(added.faces[card]), config)


def _check_fits(deck: Deck, card: Card, face: np.ndarray) -> None:
    """Refuse ``card``'s ``face`` when it does not fit the faces the deck
    has already been taught (an order cut unlike the other orders): one
    picture's own checks cannot see that. The check knows Mamma Mia!'s
    families of faces; another game's faces are checked each on its own."""
    if deck.game.id != MAMMA_MIA:
        return
    taught = [(other, read_image(path)) for other, path in deck.faces.items() if other != card]
    if not fits(taught + [(card, face)], card):
        raise PictureRefused(MISFIT)


def held_capture(deck: Deck, token: str) -> pending.Pending:
    found = pending.find(deck.folder, token) if deck.editable else None
    if found is None:
        raise UnknownCapture("no such picture waiting (or it waited more than an hour): take it again")
    return found


def _taught(deck: Deck, card: Card, face: np.ndarray, config: CaptureConfig) -> Taught:
    others = [like for like in similar_faces(deck, face, config) if like.card != card]
    return Taught(card, deck, others)

