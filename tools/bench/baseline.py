"""A deliberately naive stand-in recogniser and tracker, to prove the
benchmark end to end. Do not mistake its numbers for a real recogniser's.

``NearestColourBaseline`` compares the hue/saturation histogram of the
middle of the photo with each enrolled face and names the closest, or
nothing when none is close. ``MotionGateBaseline`` waits for movement to
stop after something moved, then asks the colour baseline.
"""
from __future__ import annotations

from typing import Sequence

import cv2
import numpy as np

from tools.synth.deck_files import DeckFace
from vision.recognize.types import Detection, Match
from vision.track.types import Landing

_BINS = (24, 16)
_WORK_WIDTH = 320


def _histogram(image: np.ndarray, window: float) -> np.ndarray:
    h, w = image.shape[:2]
    dy, dx = int(h * (1 - window) / 2), int(w * (1 - window) / 2)
    crop = image[dy:h - dy, dx:w - dx]
    hsv = cv2.cvtColor(crop, cv2.COLOR_BGR2HSV)
    hist = cv2.calcHist([hsv], [0, 1], None, list(_BINS), [0, 180, 0, 256])
    return cv2.normalize(hist, None, 1.0, 0.0, cv2.NORM_L1)


def _small(image: np.ndarray) -> np.ndarray:
    scale = _WORK_WIDTH / image.shape[1]
    return cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)


class NearestColourBaseline:
    """BASELINE: nearest colour histogram of the photo's centre."""

    name = "baseline-nearest-colour"

    def __init__(self, deck: Sequence[DeckFace], window: float = 0.45, reject_above: float = 0.88) -> None:
        self.cards = [f.card for f in deck]
        self.histograms = [_histogram(f.image, 0.8) for f in deck]
        self.window = window
        self.reject_above = reject_above

    def distances(self, image: np.ndarray) -> np.ndarray:
        probe = _histogram(_small(image), self.window)
        return np.array([cv2.compareHist(probe, h, cv2.HISTCMP_BHATTACHARYYA) for h in self.histograms])

    def identify_photo(self, image: np.ndarray) -> list[Detection]:
        d = self.distances(image)
        best = int(np.argmin(d))
        if d[best] > self.reject_above:
            return []
        # the colour of the middle says nothing of where the card lies: the whole photo stands for it
        h, w = image.shape[:2]
        corners = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
        return [Detection(Match(self.cards[best], float(1 - d[best]), False, None, 0.0), corners)]


class MotionGateBaseline:
    """BASELINE: after motion stops, classify the centre by colour."""

    name = "baseline-motion-gate"

    def __init__(self, deck: Sequence[DeckFace], moving: float = 2.2, still: float = 1.4, still_frames: int = 5) -> None:
        self.recogniser = NearestColourBaseline(deck, window=0.3, reject_above=1.0)
        self.moving, self.still, self.still_frames = moving, still, still_frames  # multiples of the noise floor
        self.previous: np.ndarray | None = None
        self.changes: list[float] = []
        self.index = -1
        self.armed = False
        self.quiet = 0

    def feed(self, frame: np.ndarray) -> list[Landing]:
        self.index += 1
        grey = cv2.cvtColor(_small(frame), cv2.COLOR_BGR2GRAY).astype(np.float32)
        change = 0.0 if self.previous is None else float(np.mean(np.abs(grey - self.previous)))
        self.previous = grey
        if self.index > 0:
            self.changes = (self.changes + [change])[-30:]
        floor = max(0.3, float(np.percentile(self.changes, 20))) if self.changes else 1.0
        if change > self.moving * floor:
            self.armed, self.quiet = True, 0
            return []
        if not self.armed:
            return []
        self.quiet = self.quiet + 1 if change < self.still * floor else 0
        if self.quiet < self.still_frames:
            return []
        self.armed = False
        found = self.recogniser.identify_photo(frame)
        return [Landing(found[0].match, self.index, None, found[0].corners)] if found else []

    def finish(self) -> list[Landing]:
        return []


def make_recogniser(deck: Sequence[DeckFace]) -> NearestColourBaseline:
    return NearestColourBaseline(deck)


def make_tracker(deck: Sequence[DeckFace]) -> MotionGateBaseline:
    return MotionGateBaseline(deck)
