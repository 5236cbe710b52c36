"""The flip tracker of :mod:`vision.track` as a benchmark plug-in, so
``python -m tools.bench.vision_bench --plugin tools.bench.plugins.track``
measures exactly what ``mamma-mia scan --sequence`` runs."""
from __future__ import annotations

from typing import Sequence

from tools.synth.deck_files import DeckFace
from vision.recognize.identify import ReferenceDeck
from vision.recognize.pipeline import Recogniser
from vision.track.factory import tracker_for
from vision.track.tracker import FlipTracker


def make_tracker(deck: Sequence[DeckFace]) -> FlipTracker:
    return tracker_for(Recogniser(ReferenceDeck.from_faces((f.card, f.image) for f in deck)))
