"""What the tracker's tests share: a sighting at a fixed outline, and the
reported cards as notation."""
from __future__ import annotations

import numpy as np

from companion.engine import parse_card
from vision.recognize.types import Detection, Match


def notations(events) -> str:
    return " ".join(e.card.notation for e in events)


CORNERS = np.array([[40, 20], [80, 20], [80, 82], [40, 82]], np.float32)


def sighting(notation: str, confidence: float, runner_up: str = "O", runner_up_confidence: float = 0.6) -> Detection:
    return Detection(Match(parse_card(notation), confidence, False, parse_card(runner_up), runner_up_confidence), CORNERS)
