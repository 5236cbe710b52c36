"""The recogniser of :mod:`vision.recognize` as a benchmark plug-in, so
``python -m tools.bench.vision_bench --plugin tools.bench.plugins.recognise``
measures exactly what ``mamma-mia scan`` runs.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from tools.synth.deck_files import DeckFace
from vision.recognize.config import DEFAULT_CONFIG, VisionConfig
from vision.recognize.identify import ReferenceDeck
from vision.recognize.pipeline import Recogniser
from vision.recognize.types import Detection, Match


class PipelineReader:
    """Every card the pipeline finds is reported as a top card: it recognises
    only faces it can see whole enough to identify."""

    name = "vision.recognize"

    def __init__(self, deck: Sequence[DeckFace], config: VisionConfig = DEFAULT_CONFIG) -> None:
        self.recogniser = Recogniser(ReferenceDeck.from_faces(((f.card, f.image) for f in deck), config))

    def identify_photo(self, image: np.ndarray) -> list[Detection]:
        return self.recogniser.recognise(image)

    def is_sure(self, match: Match) -> bool:
        """Sure as the app and ``scan`` judge it, with this recogniser's settings."""
        return self.recogniser.config.is_sure(match)


def make_recogniser(deck: Sequence[DeckFace]) -> PipelineReader:
    return PipelineReader(deck)
