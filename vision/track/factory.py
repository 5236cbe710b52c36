"""The flip tracker over the photo recogniser of :mod:`vision.recognize`."""
from __future__ import annotations

import dataclasses
from typing import Callable

import numpy as np

from ..recognize.pipeline import Recogniser
from ..recognize.types import Detection
from .config import DEFAULT_TRACKER_CONFIG, TrackerConfig
from .tracker import FlipTracker


def detections_from(recogniser: Recogniser, least: float = 0.0) -> Callable[[np.ndarray], list[Detection]]:
    """What ``recogniser`` finds in an image, at least ``least`` confident."""
    def recognise(image: np.ndarray) -> list[Detection]:
        return [d for d in recogniser.recognise(image) if d.confidence >= least]
    return recognise


def tracker_for(recogniser: Recogniser, config: TrackerConfig = DEFAULT_TRACKER_CONFIG,
                fps: float | None = None) -> FlipTracker:
    """A tracker that recognises cards with ``recogniser``'s deck, its
    recogniser set for frames of a video as ``config`` says."""
    tracking = dataclasses.replace(
        recogniser.config, outline_growth=config.outline_growth, detect_width=config.detect_width,
        edge_blur=config.edge_blur, fallback_width=config.fallback_width, finer_width=config.finer_width)
    finer = dataclasses.replace(tracking, detect_width=config.finer_detect_width, edge_blur=config.finer_edge_blur)
    return FlipTracker(detections_from(Recogniser(recogniser.deck, tracking), config.min_sighting_confidence),
                       config, fps, detections_from(Recogniser(recogniser.deck, finer), config.min_sighting_confidence))
