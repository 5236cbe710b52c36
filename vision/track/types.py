"""What the tracker sees and what it reports, as small frozen dataclasses."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from companion.engine import Card

from ..geometry import inside_convex


@dataclass(frozen=True, eq=False)
class Sighting:
    """One recognised card in one frame: identity, certainty, and its face
    corners (TL, TR, BR, BL) in frame pixels."""

    card: Card
    confidence: float
    runner_up: Card | None
    runner_up_confidence: float
    corners: np.ndarray  # (4, 2) float32

    @property
    def margin(self) -> float:
        return self.confidence - self.runner_up_confidence

    @property
    def width(self) -> float:
        """The face's short side in pixels (mean of top and bottom edges)."""
        c = self.corners
        return float((np.linalg.norm(c[1] - c[0]) + np.linalg.norm(c[2] - c[3])) / 2)

    @property
    def height(self) -> float:
        """The face's long side in pixels (mean of left and right edges)."""
        c = self.corners
        return float((np.linalg.norm(c[3] - c[0]) + np.linalg.norm(c[2] - c[1])) / 2)

    @property
    def center(self) -> np.ndarray:
        return self.corners.mean(axis=0)

    def shifted(self, dx: float, dy: float) -> Sighting:
        """The same sighting in the coordinates of a larger frame."""
        corners = (self.corners + np.array([dx, dy], np.float32)).astype(np.float32)
        return Sighting(self.card, self.confidence, self.runner_up, self.runner_up_confidence, corners)

    def encloses(self, other: Sighting, growth: float, margin: float) -> bool:
        """Whether this outline is ``other``'s grown by fingers: at least
        ``growth`` larger (square root of the area ratio, less one) with all of
        ``other`` inside it, grown by ``margin`` of its width."""
        if np.sqrt(self.width * self.height / max(1.0, other.width * other.height)) < 1 + growth:
            return False
        center = self.center
        return bool(inside_convex(center + (self.corners - center) * (1 + margin), other.corners).all())

    def pose_distance(self, other: Sighting) -> float:
        """Mean corner displacement per card width; a card read upside down
        in one sighting is still compared with itself."""
        a, b = self.corners, other.corners
        moved = min(float(np.linalg.norm(a - np.roll(b, k, axis=0), axis=1).mean()) for k in (0, 2))
        return moved / max(1.0, self.width)
