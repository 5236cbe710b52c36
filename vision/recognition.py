"""The contracts a card recogniser and a flip tracker fulfil, so the
benchmark (and later the app) can use any implementation.

A plug-in is a module with ``make_recogniser(deck)`` and/or
``make_tracker(deck)``, where ``deck`` is the enrolled faces
(:class:`~vision.deck_files.DeckFace`: card + image).
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType
from typing import Callable, Protocol, Sequence

import numpy as np

from companion.engine import Card

from .deck_files import DeckFace


@dataclass(frozen=True)
class Detection:
    """A card the recogniser sees: ``top`` marks the top card of a pile;
    ``corners`` (TL, TR, BR, BL of the face, pixels) when it can locate it."""

    card: Card
    score: float = 1.0
    top: bool = True
    corners: tuple[tuple[float, float], ...] | None = None


@dataclass(frozen=True)
class TrackEvent:
    """A newly revealed card, reported at ``frame`` (the frame index at which
    the tracker decided; ``time`` in seconds when the tracker knows it).
    ``runner_up`` is the next most likely card, so an app can ask the player
    when ``confidence`` is low; ``corners`` (TL, TR, BR, BL of the face,
    pixels) where it lies."""

    card: Card
    frame: int
    confidence: float = 1.0
    runner_up: Card | None = None
    runner_up_confidence: float = 0.0
    time: float | None = None
    corners: tuple[tuple[float, float], ...] | None = None


class Recogniser(Protocol):
    name: str

    def identify_photo(self, image: np.ndarray) -> list[Detection]:
        """Every face-up card in a BGR photo; an empty list for an empty table."""
        ...


class Tracker(Protocol):
    name: str

    def feed(self, frame: np.ndarray) -> list[TrackEvent]:
        """Take the next video frame; return the cards newly revealed by it.
        (A tracker may also accept the frame's time in seconds as a second
        argument; the benchmark then passes it.)"""
        ...

    def finish(self) -> list[TrackEvent]:
        """The video has ended: report anything still pending."""
        ...


RecogniserFactory = Callable[[Sequence[DeckFace]], Recogniser]
TrackerFactory = Callable[[Sequence[DeckFace]], Tracker]


def load_plugin(name: str) -> ModuleType:
    """Import a recognition plug-in module by dotted name, checking its factories."""
    module = importlib.import_module(name)
    if not hasattr(module, "make_recogniser") and not hasattr(module, "make_tracker"):
        raise ValueError(f"{name} has neither make_recogniser(deck) nor make_tracker(deck)")
    return module
