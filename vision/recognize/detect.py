"""Stage 1: find card outlines (quadrilaterals) in an image.

Edges of every colour channel are traced into chains; each chain's convex
hull that looks like a card seen in perspective becomes a candidate quad (a
card's outline is often broken by a thumb or merged with the cards beneath,
but its hull stays card-shaped). A thumb over a corner cuts the hull's corner off: the four longest hull
edges are then extended until they meet, which restores the hidden corner.
Candidates are not yet cards: identification confirms or rejects them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import cv2
import numpy as np

from ..geometry import quad_areas
from .config import DEFAULT_CONFIG, VisionConfig
from .rectify import resized_points
from .types import Quad


def find_contours(mask: np.ndarray) -> list[np.ndarray]:
    """``cv2.findContours`` returned three values in OpenCV 3 and two since 4."""
    found = cv2.findContours(mask, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    return list(found[-2])


@dataclass(frozen=True)
class EdgeChains:
    """The traced edges of one image that could outline a card, at the reduced
    detection scale."""

    contours: list[np.ndarray]  # chains whose bounding box could hold a card
    scale: float  # detection pixels per image pixel
    area: float   # of the reduced image, in detection pixels
    small: np.ndarray  # the reduced image
    smooth: np.ndarray  # the reduced image as smoothed for edge finding
    coarse: np.ndarray  # the reduced image halved once more, which glances sample

    @classmethod
    def of(cls, image: np.ndarray, config: VisionConfig = DEFAULT_CONFIG) -> EdgeChains:
        small = reduce(image, config.detect_width)
        scale = small.shape[1] / image.shape[1]
        area = float(small.shape[0] * small.shape[1])
        smooth = smoothed(small, config)
        # fixed thresholds: a faint card edge on a bright table is as faint as on a dark one
        edges = colour_edges(smooth, config.edge_low, config.edge_high)
        # thin edges keep a card apart from its neighbours; thickened ones close small breaks
        contours = find_contours(edges) + find_contours(cv2.dilate(edges, np.ones((3, 3), np.uint8)))
        coarse = cv2.resize(small, (small.shape[1] // 2, small.shape[0] // 2), interpolation=cv2.INTER_AREA)
        return cls(_card_sized(contours, config.min_card_area * area), scale, area, small, smooth, coarse)

    def to_coarse(self, corners: np.ndarray) -> np.ndarray:
        """Image pixels (any shape (..., 2)) in the pixels of ``coarse``
        (pixel centres at integral coordinates in both)."""
        return resized_points(corners, self.scale * self.coarse.shape[1] / self.small.shape[1])


def colour_edges(image: np.ndarray, low: float, high: float) -> np.ndarray:
    """Canny's edges of a BGR ``image``, following at each pixel the channel
    whose gradient is strongest, so that edges of colour count as well as
    brightness. This is what ``cv2.Canny`` does with three channels, in
    about a third less time (1.7 against 2.4 ms at 640 x 360, measured in
    the recogniser): its own choice of channel is not vectorised, while here
    the gradients are chosen by whole-image operations and Canny then runs
    on one channel's.

    >>> image = np.zeros((40, 40, 3), np.uint8); image[10:30, 10:30, 2] = 200  # a red square
    >>> bool((colour_edges(image, 50, 150) == cv2.Canny(image, 50, 150)).all())
    True
    """
    # the channels are parted before the gradients: parting three-channel gradients costs more
    # than the gradients themselves
    gradients = [tuple(cv2.Sobel(channel, cv2.CV_16S, *order, ksize=3, borderType=cv2.BORDER_REPLICATE)
                       for order in ((1, 0), (0, 1))) for channel in cv2.split(image)]
    x, y = gradients[0]
    strongest = cv2.add(np.abs(x), np.abs(y))
    for dx, dy in gradients[1:]:
        strength = cv2.add(np.abs(dx), np.abs(dy))
        stronger = cv2.compare(strength, strongest, cv2.CMP_GT)  # the first channel wins a tie, as in Canny
        cv2.copyTo(dx, stronger, x)
        cv2.copyTo(dy, stronger, y)
        strongest = cv2.max(strength, strongest)
    return cv2.Canny(x, y, low, high)


def _card_sized(contours: list[np.ndarray], least: float) -> list[np.ndarray]:
    """Chains whose bounding box could hold a card, one per box: the thin and
    the thickened edge maps trace most chains twice. A chain of two points
    has no area and no corner."""
    boxes: dict[tuple[int, ...], np.ndarray] = {}
    for contour in contours:
        if len(contour) < 3:
            continue
        x, y, w, h = cv2.boundingRect(contour)
        if w * h >= least:
            boxes.setdefault((x // 3, y // 3, w // 3, h // 3), contour)
    return list(boxes.values())


def reduce(image: np.ndarray, width: int) -> np.ndarray:
    """``image`` scaled down to about ``width`` pixels across: halvings, each
    pixel the mean of the two by two it replaces (OpenCV's fast case of area
    averaging; a pyramid step smooths more and costs three times as much, and
    edges are smoothed for anyway), then one linear step."""
    while image.shape[1] >= 2 * width:
        half = (image.shape[1] // 2, image.shape[0] // 2)
        image = cv2.resize(image, half, interpolation=cv2.INTER_AREA)
    if image.shape[1] > width:
        height = round(image.shape[0] * width / image.shape[1])
        image = cv2.resize(image, (width, height), interpolation=cv2.INTER_LINEAR)
    return image


def detect(image: np.ndarray, config: VisionConfig = DEFAULT_CONFIG) -> list[Quad]:
    """Candidate card outlines in ``image`` (BGR), in full-image pixels, largest first."""
    return outline_quads(EdgeChains.of(image, config), config)


def outline_quads(chains: EdgeChains, config: VisionConfig = DEFAULT_CONFIG) -> list[Quad]:
    hulls, hull_areas = [], []
    for contour in chains.contours:
        # an edge chain's own area is tiny; its convex hull is what may be a card
        hull = cv2.convexHull(contour)
        hull_area = cv2.contourArea(hull)
        if config.min_card_area * chains.area <= hull_area <= config.max_card_area * chains.area:
            hulls.append(hull)
            hull_areas.append(hull_area)
    fits, owners = hull_fits(hulls)
    if not len(fits):
        return []
    card_like = _card_like(fits, np.array(hull_areas)[owners], config)
    return distinct([Quad(q) for q in order_corners_many(fits[card_like] / chains.scale)], 0.03)


def smoothed(image: np.ndarray, config: VisionConfig = DEFAULT_CONFIG) -> np.ndarray:
    """The reduced image with its pixel noise smoothed away, as edges are found on it."""
    size = config.edge_blur
    return cv2.GaussianBlur(image, (size, size), 0) if size > 1 else image


def hull_fits(hulls: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """At most one four-corner fit per convex hull: its simplified polygon when
    that has four corners, else (five to twelve) the meeting points of its four
    longest sides, which restores a corner hidden under a thumb. Returns the
    fits (n, 4, 2), in the order of their hulls, and each one's hull index."""
    polygons = [cv2.approxPolyDP(hull, 0.015 * cv2.arcLength(hull, True), True).reshape(-1, 2) for hull in hulls]
    counts = np.array([len(p) for p in polygons], int)
    four = np.flatnonzero(counts == 4)
    several = np.flatnonzero((counts > 4) & (counts <= _MOST_SIDES))
    met, whole = _longest_sides_meet([polygons[i] for i in several], counts[several])
    owners = np.concatenate([four, several[whole]])
    fits = np.concatenate([np.array([polygons[i] for i in four], np.float32).reshape(-1, 4, 2),
                           met[whole].astype(np.float32)])
    order = np.argsort(owners, kind="stable")
    return fits[order], owners[order]


_MOST_SIDES = 12  # a hull simplified to more sides than this is no card seen whole or in part


def _longest_sides_meet(polygons: list[np.ndarray], counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each polygon (5.._MOST_SIDES corners), where its four longest sides
    meet in turn (m, 4, 2), and whether no two of those sides are parallel."""
    if not polygons:
        return np.zeros((0, 4, 2)), np.zeros(0, bool)
    present = np.arange(_MOST_SIDES)[None] < counts[:, None]
    starts = np.zeros((len(polygons), _MOST_SIDES, 2))
    starts[present] = np.concatenate(polygons)
    following = (np.arange(_MOST_SIDES)[None] + 1) % counts[:, None]
    sides = np.take_along_axis(starts, following[..., None], axis=1) - starts
    lengths = np.where(present, np.hypot(sides[..., 0], sides[..., 1]), -np.inf)
    longest = np.sort(np.argsort(-lengths, axis=1, kind="stable")[:, :4], axis=1)
    rows = np.arange(len(polygons))[:, None]
    after = np.roll(longest, -1, axis=1)
    met, parallel = lines_meet(starts[rows, longest], sides[rows, longest], starts[rows, after], sides[rows, after])
    return met, ~parallel.any(axis=1)


def lines_meet(p: np.ndarray, u: np.ndarray, q: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where the lines through points ``p`` along ``u`` meet those through
    ``q`` along ``v`` (arrays of shape (..., 2)), and which of them are
    (nearly) parallel, so that their meeting point means nothing."""
    cross = u[..., 0] * v[..., 1] - u[..., 1] * v[..., 0]
    parallel = np.abs(cross) < 1e-6 * np.hypot(u[..., 0], u[..., 1]) * np.hypot(v[..., 0], v[..., 1])
    with np.errstate(divide="ignore", invalid="ignore"):
        k = ((q[..., 0] - p[..., 0]) * v[..., 1] - (q[..., 1] - p[..., 1]) * v[..., 0]) / cross
        return p + k[..., None] * u, parallel


def line_meeting(p: np.ndarray, u: np.ndarray, q: np.ndarray, v: np.ndarray) -> np.ndarray | None:
    """Where the line through ``p`` along ``u`` meets the one through ``q``
    along ``v``; ``None`` for (nearly) parallel lines.

    >>> line_meeting(np.array([0.0, 1.0]), np.array([1.0, 0.0]), np.array([2.0, 0.0]), np.array([0.0, 1.0]))
    array([2., 1.])
    """
    met, parallel = lines_meet(*(np.asarray(a, np.float64) for a in (p, u, q, v)))
    return None if parallel else met


def order_corners(corners: np.ndarray) -> np.ndarray:
    """Clockwise on screen, starting so that the first edge is a short side."""
    return order_corners_many(corners[None])[0]


def order_corners_many(quads: np.ndarray) -> np.ndarray:
    """:func:`order_corners` for a stack of quads (n, 4, 2)."""
    centers = quads.mean(axis=1, keepdims=True)
    angles = np.arctan2(quads[..., 1] - centers[..., 1], quads[..., 0] - centers[..., 0])
    # image y points down: increasing angle is clockwise
    ordered = np.take_along_axis(quads, np.argsort(angles, axis=1)[..., None], axis=1)
    edges = ordered[:, [1, 2, 3, 0]] - ordered
    sides = np.hypot(edges[..., 0], edges[..., 1])
    long_first = sides[:, 0] + sides[:, 2] > sides[:, 1] + sides[:, 3]
    ordered[long_first] = ordered[long_first][:, [1, 2, 3, 0]]
    return ordered.astype(np.float32)


def _card_like(fits: np.ndarray, hull_areas: np.ndarray, config: VisionConfig) -> np.ndarray:
    """Which fits (n, 4, 2) cover their hulls well and have a card's shape."""
    areas = quad_areas(fits)
    return (config.min_quad_fill * hull_areas <= areas) & (areas <= config.max_quad_growth * hull_areas) & \
        card_shaped_many(fits, config)


def card_shaped(corners: np.ndarray, config: VisionConfig = DEFAULT_CONFIG) -> bool:
    """Whether four corners could be a card seen from above or at a slant:
    convex, no corner far from square, long and short sides in a card's ratio."""
    return bool(card_shaped_many(np.asarray(corners, np.float64)[None], config)[0])


def card_shaped_many(quads: np.ndarray, config: VisionConfig = DEFAULT_CONFIG) -> np.ndarray:
    """:func:`card_shaped` for a stack of quads (n, 4, 2)."""
    edges = quads[:, [1, 2, 3, 0]] - quads
    sides = np.hypot(edges[..., 0], edges[..., 1])
    previous = edges[:, [3, 0, 1, 2]]
    turns = previous[..., 0] * edges[..., 1] - previous[..., 1] * edges[..., 0]
    convex = (turns > 0).all(axis=1) | (turns < 0).all(axis=1)  # every corner turns the same way
    with np.errstate(divide="ignore", invalid="ignore"):
        cosines = -(previous * edges).sum(axis=2) / (sides[:, [3, 0, 1, 2]] * sides)
        pairs = np.stack([sides[:, 0] + sides[:, 2], sides[:, 1] + sides[:, 3]], axis=1)
        ratio = pairs.max(axis=1) / pairs.min(axis=1)
    square_enough = np.abs(cosines).max(axis=1) <= config.max_corner_cosine
    in_ratio = np.abs(ratio - config.card_aspect) <= config.aspect_tolerance * config.card_aspect
    return convex & (sides.min(axis=1) > 0) & square_enough & in_ratio


def distinct(quads: list[Quad], tolerance: float) -> list[Quad]:
    """Largest first, dropping near-duplicates: quads whose corners all lie
    within ``tolerance`` card sizes of a kept one (e.g. the inner and outer
    contour of one edge loop). Kept quads are bucketed by centre so each is
    compared with its neighbours only."""
    kept: dict[tuple[int, int], list[Quad]] = {}
    result = []
    for quad in sorted(quads, key=lambda q: -q.area):
        size = np.sqrt(quad.area)
        cell = max(size, 1.0)
        cx, cy = int(quad.center[0] // cell), int(quad.center[1] // cell)
        near = [k for dx in (-1, 0, 1) for dy in (-1, 0, 1) for k in kept.get((cx + dx, cy + dy), ())]
        if all(np.abs(quad.corners - k.corners).max() > tolerance * size for k in near):
            kept.setdefault((cx, cy), []).append(quad)
            result.append(quad)
    return result
