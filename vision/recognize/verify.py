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
from functools import lru_cache

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
    def of(cls, image: np.ndarray, scale: float, config: VisionConfig = DEFAULT_CONFIG) -> Gradients:
        """``image``: BGR, already reduced by ``scale``."""
        return cls(smoothed(image, config), scale)

    def at(self, xs: np.ndarray, ys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(x, y) gradient at integer pixels ``xs``, ``ys`` (inside the image)."""
        height, width = self.smooth.shape[:2]
        pixels = self.smooth.reshape(height * width, -1)
        at = ys * width + xs
        # a point on the image's border stands in for its missing neighbour
        left, right = pixels[at - (xs > 0)], pixels[at + (xs < width - 1)]
        up, down = pixels[at - width * (ys > 0)], pixels[at + width * (ys < height - 1)]
        gx, gy = right.astype(np.float32) - left, down.astype(np.float32) - up
        strongest = np.argmax(gx * gx + gy * gy, axis=-1).ravel()
        points = np.arange(strongest.size)
        return gx.reshape(-1, gx.shape[-1])[points, strongest].reshape(xs.shape), \
            gy.reshape(-1, gy.shape[-1])[points, strongest].reshape(xs.shape)


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
    # a check is a few hundred points: the count of numpy calls, not their size, is its cost
    corners = corners.astype(np.float32) * gradients.scale
    sides = corners[[1, 2, 3, 0]] - corners
    along, offsets = _probe_steps(config.support_samples, config.support_reach)
    points = corners[:, None] + along * sides[:, None]   # (4, samples, 2)
    tangent = sides / np.maximum(np.hypot(sides[:, 0], sides[:, 1]), 1e-6)[:, None]
    normal = np.stack([-tangent[:, 1], tangent[:, 0]], axis=1)                  # (4, 2)
    probes = points[:, :, None] + offsets * normal[:, None, None]  # (4, s, o, 2)
    xs, ys = np.rint(probes[..., 0]).astype(int), np.rint(probes[..., 1]).astype(int)
    height, width = gradients.smooth.shape[:2]
    inside = (xs >= 0) & (xs < width) & (ys >= 0) & (ys < height)
    gx, gy = gradients.at(np.minimum(np.maximum(xs, 0), width - 1), np.minimum(np.maximum(ys, 0), height - 1))
    strength = np.hypot(gx, gy)
    across = np.abs(gx * normal[:, None, None, 0] + gy * normal[:, None, None, 1])
    edge = inside & (strength >= config.support_gradient) & (across >= config.support_alignment * strength)
    seen = inside.any(axis=2)
    if not seen.any():
        return 0.0
    return float((edge.any(axis=2) & seen).sum() / seen.sum())


@lru_cache(maxsize=4)
def _probe_steps(samples: int, reach: int) -> tuple[np.ndarray, np.ndarray]:
    """Where along a side its points lie (1, samples, 1), and the offsets
    across it that are probed (1, 1, 2 * reach + 1, 1)."""
    along = np.linspace(0.05, 0.95, samples, dtype=np.float32)[None, :, None]
    offsets = np.arange(-reach, reach + 1, dtype=np.float32)[None, None, :, None]
    return along, offsets
