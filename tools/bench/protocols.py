"""What a benchmark plug-in provides, so the benchmark can measure any
recogniser or tracker with the product's own result types.

A plug-in is a module with ``make_recogniser(deck)`` and/or
``make_tracker(deck)``, where ``deck`` is the enrolled faces
(:class:`~tools.synth.deck_files.DeckFace`: card + image). A recogniser
returns :class:`~vision.recognize.types.Detection` (every card it reports is
a top card), a tracker :class:`~vision.track.types.Landing`.
"""
from __future__ import annotations

import importlib
from types import ModuleType
from typing import Protocol

import numpy as np

from vision.recognize.types import Detection
from vision.track.types import Landing


class PhotoReader(Protocol):
    """May also have ``is_sure(match) -> bool``: whether a game would take the
    reading without asking (the benchmark otherwise judges with the
    product's ``DEFAULT_CONFIG.is_sure``)."""

    name: str

    def identify_photo(self, image: np.ndarray) -> list[Detection]:
        """Every face-up card in a BGR photo; an empty list for an empty table."""
        ...


class PileFollower(Protocol):
    name: str

    def feed(self, frame: np.ndarray) -> list[Landing]:
        """Take the next video frame; return the cards newly revealed by it.
        (A tracker may also accept the frame's time in seconds as a second
        argument; the benchmark then passes it.)"""
        ...

    def finish(self) -> list[Landing]:
        """The video has ended: report anything still pending."""
        ...


def load_plugin(name: str) -> ModuleType:
    """Import a recognition plug-in module by dotted name, checking its factories."""
    module = importlib.import_module(name)
    if not hasattr(module, "make_recogniser") and not hasattr(module, "make_tracker"):
        raise ValueError(f"{name} has neither make_recogniser(deck) nor make_tracker(deck)")
    return module
