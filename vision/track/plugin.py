"""The flip tracker over the photo recogniser of :mod:`vision.recognize`,
built from a deck, and as a benchmark plug-in (``make_tracker(deck)``)."""
from __future__ import annotations

import dataclasses
from typing import Callable, Sequence

import numpy as np

from ..deck_files import DeckFace
from .config import DEFAULT_TRACKER_CONFIG, TrackerConfig
from .tracker import FlipTracker
from .types import Sighting


def sightings_from(recogniser, least: float = 0.0) -> Callable[[np.ndarray], list[Sighting]]:  # noqa: ANN001
    """The detections of ``recogniser`` (a vision.recognize Recogniser) at
    least ``least`` confident, as the tracker's sightings."""
    def recognise(image: np.ndarray) -> list[Sighting]:
        return [Sighting(d.card, float(d.confidence), d.match.runner_up, float(d.match.runner_up_confidence),
                         np.asarray(d.corners, np.float32)) for d in recogniser.recognise(image) if d.confidence >= least]
    return recognise


def tracker_for(recogniser, config: TrackerConfig = DEFAULT_TRACKER_CONFIG,  # noqa: ANN001
                fps: float | None = None) -> FlipTracker:
    """A tracker that recognises cards with ``recogniser`` (a
    :class:`vision.recognize.pipeline.Recogniser`), set as ``config`` says."""
    from ..recognize.pipeline import Recogniser

    tracking = Recogniser(recogniser.deck, dataclasses.replace(
        recogniser.config, outline_growth=config.outline_growth, detect_width=config.detect_width,
        edge_blur=config.edge_blur, fallback_width=config.fallback_width, finer_width=config.finer_width))
    return FlipTracker(sightings_from(tracking, config.min_sighting_confidence), config, fps)


def make_tracker(deck: Sequence[DeckFace]) -> FlipTracker:
    from ..recognize.identify import ReferenceDeck
    from ..recognize.pipeline import Recogniser

    return tracker_for(Recogniser(ReferenceDeck.from_faces((f.card, f.image) for f in deck)))
