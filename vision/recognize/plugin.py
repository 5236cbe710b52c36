"""The recogniser of :mod:`vision.recognize` as a benchmark plug-in
(:mod:`vision.recognition`'s protocol), so ``bench/vision_bench.py --plugin
vision.recognize.plugin`` measures exactly what ``mamma-mia scan`` runs.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from ..deck_files import DeckFace
from ..recognition import Detection
from .config import DEFAULT_CONFIG, VisionConfig
from .identify import ReferenceDeck
from .pipeline import Recogniser
from .types import Detection as Found


class PipelineRecogniser:
    """Every card the pipeline finds is reported as a top card: it recognises
    only faces it can see whole enough to identify."""

    name = "vision.recognize"

    def __init__(self, deck: Sequence[DeckFace], config: VisionConfig = DEFAULT_CONFIG) -> None:
        self.recogniser = Recogniser(ReferenceDeck.from_faces(((f.card, f.image) for f in deck), config))

    def identify_photo(self, image: np.ndarray) -> list[Detection]:
        return [as_benchmark_detection(found) for found in self.recogniser.recognise(image)]


def as_benchmark_detection(found: Found) -> Detection:
    corners = tuple((float(x), float(y)) for x, y in found.corners)
    return Detection(found.card, score=float(found.confidence), top=True, corners=corners)


def make_recogniser(deck: Sequence[DeckFace]) -> PipelineRecogniser:
    return PipelineRecogniser(deck)
