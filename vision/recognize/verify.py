"""Stage 3b: check that an identified outline is the edge of something.

A card's four sides are edges in the image: along each, the picture changes
across the side. A pattern of the table that happens to look like a card
(a red check read as salami) is cut out by a quad whose sides run across the
pattern instead. Sampling the sides for a gradient at right angles to them
tells the two apart; a thumb or a low-contrast stretch leaves most of a real
card's outline standing.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .config import DEFAULT_CONFIG, VisionConfig
from .detect import smoothed


@dataclass(frozen=True)
class Gradients:
    """Where an image changes: central differences of its smoothed copy, at
    whichever colour channel changes most (a red card on a brown table
    differs in colour more than in brightness). Computed only at the points
    asked about, since a check needs a few hundred of them."""

    smooth: np.ndarray  # BGR, smoothed
    scale: float  # pixels of ``smooth`` per image pixel

    @classmethod
    def of(cls, image: np.ndarray, scale: float) -> Gradients:
        """``image``: BGR, already reduced by ``scale``."""
        return cls(smoothed(image), scale)

    def at(self, xs: np.ndarray, ys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(x, y) gradient at integer pixels ``xs``, ``ys`` (inside the image)."""
        height, width = self.smooth.shape[:2]
        left, right = self.smooth[ys, np.maximum(xs - 1, 0)], self.smooth[ys, np.minimum(xs + 1, width - 1)]
        up, down = self.smooth[np.maximum(ys - 1, 0), xs], self.smooth[np.minimum(ys + 1, height - 1), xs]
        gx, gy = right.astype(np.float32) - left, down.astype(np.float32) - up
        strongest = np.argmax(gx * gx + gy * gy, axis=-1)[..., None]
        return np.take_along_axis(gx, strongest, -1)[..., 0], np.take_along_axis(gy, strongest, -1)[..., 0]


def outline_support(gradients: Gradients, corners: np.ndarray, config: VisionConfig = DEFAULT_CONFIG) -> float:
    """The fraction (0..1) of the sides of ``corners`` (image pixels) that
    run along an edge: a strong gradient, at right angles to the side,
    within ``config.support_reach`` pixels of it. Points beyond the image
    count neither way.

    >>> import numpy as np
    >>> image = np.zeros((100, 100, 3), np.uint8); image[20:80, 30:70] = 200
    >>> square = np.float32([[30, 20], [70, 20], [70, 80], [30, 80]])
    >>> outline_support(Gradients.of(image, 1.0), square)
    1.0
    >>> round(outline_support(Gradients.of(image, 1.0), square + 25), 2) < 0.5
    True
    """
    corners = corners.astype(np.float32) * gradients.scale
    starts, ends = corners, np.roll(corners, -1, axis=0)
    along = np.linspace(0.05, 0.95, config.support_samples, dtype=np.float32)
    points = starts[:, None] + along[None, :, None] * (ends - starts)[:, None]   # (4, samples, 2)
    tangent = (ends - starts) / np.maximum(np.hypot(*(ends - starts).T), 1e-6)[:, None]
    normal = np.stack([-tangent[:, 1], tangent[:, 0]], axis=1)                  # (4, 2)
    offsets = np.arange(-config.support_reach, config.support_reach + 1, dtype=np.float32)
    probes = points[:, :, None] + offsets[None, None, :, None] * normal[:, None, None]  # (4, s, o, 2)
    xs, ys = np.rint(probes[..., 0]).astype(int), np.rint(probes[..., 1]).astype(int)
    height, width = gradients.smooth.shape[:2]
    inside = (xs >= 0) & (xs < width) & (ys >= 0) & (ys < height)
    gx, gy = gradients.at(np.clip(xs, 0, width - 1), np.clip(ys, 0, height - 1))
    strength = np.hypot(gx, gy)
    across = np.abs(gx * normal[:, None, None, 0] + gy * normal[:, None, None, 1])
    edge = inside & (strength >= config.support_gradient) & (across >= config.support_alignment * strength)
    seen = inside.any(axis=2)
    if not seen.any():
        return 0.0
    return float((edge.any(axis=2) & seen).sum() / seen.sum())
