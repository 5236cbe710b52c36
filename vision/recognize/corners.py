"""Fallback outlines from card corners.

When a card's outline is broken (a hand over it) or merged with the cards
beneath, no edge chain has a card-shaped hull. Its corners usually survive:
two long straight edges meeting at about a right angle. Each such corner
proposes two rectangles of card proportions (either arm the long side), sized
by the longer visible arm; alignment and identification then decide. The
cards of a layout lie at about the same distance from the camera, so once
some are known, each corner also proposes rectangles of their size: a corner
whose arms run into a tablecloth's lines or stop short is otherwise sized
wrongly.
"""
from __future__ import annotations

from typing import Sequence

import cv2
import numpy as np

from .config import DEFAULT_CONFIG, VisionConfig
from .detect import EdgeChains, order_corners_many
from .types import Quad, median_short_side


def corner_hypotheses(chains: EdgeChains, config: VisionConfig = DEFAULT_CONFIG,
                      known: Sequence[np.ndarray] = ()) -> list[Quad]:
    """Card-proportioned quads grown from right-angled edge corners, longest
    arms first. Chains centred inside a ``known`` card outline (image pixels)
    and no larger than it are that card's own edges and are passed over."""
    min_arm = config.corner_min_arm * np.sqrt(chains.area)
    known_small = [(k * chains.scale).reshape(-1, 1, 2).astype(np.float32) for k in known]
    polygons = [cv2.approxPolyDP(contour, 2.0, True).reshape(-1, 2)
                for contour in chains.contours
                if not (known_small and _card_own(contour, known_small, config.own_chain_slack))]
    if not polygons:
        return []
    corner, u, v, la, lb = _right_angles(*_chained(polygons), min_arm)
    rectangles = _rectangles(corner, u, v, la, lb, config.card_aspect)
    weights = np.repeat(la + lb, 2)  # the longest visible arms are the likeliest card corners
    if known:
        # ranked below a proposal sized by its own arms where the two are alike
        sized = _sized_like(corner, u, v, np.array(known) * chains.scale, config.card_aspect)
        rectangles = np.concatenate([rectangles, sized])
        weights = np.concatenate([weights, config.known_size_weight * np.tile(la + lb, 2)])
    sides_u, sides_v = rectangles[:, 1] - rectangles[:, 0], rectangles[:, 3] - rectangles[:, 0]
    large = np.abs(sides_u[:, 0] * sides_v[:, 1] - sides_u[:, 1] * sides_v[:, 0]) >= config.min_card_area * chains.area
    rectangles, weights = rectangles[large], weights[large]
    kept = _spread(rectangles[np.argsort(-weights, kind="stable")], config)
    return [Quad(q) for q in order_corners_many(kept / chains.scale)]


def _spread(rectangles: np.ndarray, config: VisionConfig) -> np.ndarray:
    """The first ``max_corner_proposals`` rectangles that differ from every
    one kept before by more than ``corner_tolerance`` of their size, at the
    corner that differs most."""
    flat = rectangles.reshape(len(rectangles), 8)
    reach = config.corner_tolerance * np.hypot(*(rectangles[:, 2] - rectangles[:, 0]).astype(np.float64).T)
    kept: list[int] = []
    # block by block: all pairs at once would grow with the square of a busy table's corners
    for start in range(0, len(flat), _SPREAD_BLOCK):
        block = slice(start, start + _SPREAD_BLOCK)
        free = ~_near(flat[kept], flat[block], reach[block]).any(axis=0)
        near = _near(flat[block], flat[block], reach[block])
        for index in np.flatnonzero(free):
            if free[index]:
                kept.append(start + index)
                if len(kept) == config.max_corner_proposals:
                    return rectangles[kept]
                free &= ~near[index]
    return rectangles[kept]


_SPREAD_BLOCK = 64


def _near(these: np.ndarray, those: np.ndarray, reach: np.ndarray) -> np.ndarray:
    """(len(these), len(those)): whether each of ``these`` (flattened corners)
    lies within the ``reach`` of each of ``those`` at every coordinate."""
    return np.abs(these[:, None] - those[None]).max(axis=2) <= reach[None]


def _card_own(contour: np.ndarray, outlines: list[np.ndarray], slack: float) -> bool:
    """Whether ``contour`` is the edge of one of the cards ``outlines``: its
    box is centred in the card's and at most ``slack`` times as large. A
    chain that runs on into a cloth's lines may be centred in any card, yet
    holds the corners of others."""
    x, y, w, h = cv2.boundingRect(contour)
    centre = (x + w / 2, y + h / 2)
    for outline in outlines:
        if cv2.pointPolygonTest(outline, centre, False) >= 0:
            _, _, width, height = cv2.boundingRect(outline)
            if w <= slack * width and h <= slack * height:
                return True
    return False


def _chained(polygons: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """All polygons' vertices in one array, and for each vertex the index of
    the next one round its own polygon."""
    points = np.concatenate(polygons).astype(np.float32)
    following = np.arange(1, len(points) + 1)
    ends = np.cumsum([len(p) for p in polygons])
    following[ends - 1] = ends - [len(p) for p in polygons]  # the last vertex of each goes back to its first
    return points, following


def _right_angles(points: np.ndarray, following: np.ndarray, min_arm: float) -> tuple[np.ndarray, ...]:
    """(corners, unit arms u, unit arms v, lengths of u, lengths of v) where
    two long sides of a polygon meet at 60..120 degrees, directly or across
    one short cut (a rounded corner); both arms point away from the corner.
    ``points`` and ``following`` as :func:`_chained` gives them."""
    index = np.arange(len(points))
    sides = points[following] - points
    lengths = np.hypot(sides[:, 0], sides[:, 1])
    long_ = lengths >= min_arm
    after = following
    cut = ~long_[after] & long_[following[after]] & (lengths[after] < min_arm / 2)
    after = np.where(cut, following[after], after)
    ok = long_ & long_[after] & (after != index)
    safe = np.maximum(lengths, 1e-9)[:, None]
    u, v = -sides / safe, sides[after] / safe[after]
    ok &= np.abs((u * v).sum(axis=1)) <= 0.5
    corners = (points[following] + points[after]) / 2
    return corners[ok], u[ok], v[ok], lengths[ok], lengths[after][ok]


def _rectangles(corner: np.ndarray, u: np.ndarray, v: np.ndarray, la: np.ndarray, lb: np.ndarray,
                aspect: float) -> np.ndarray:
    """Two card-proportioned rectangles per corner, (2n, 4, 2): first with
    arm u the long side, then with arm v; each side at least its visible arm."""
    long_u = np.stack([np.maximum(la, lb * aspect), np.maximum(la, lb / aspect)], axis=1)   # length along u
    long_v = np.stack([np.maximum(lb, la / aspect), np.maximum(lb, la * aspect)], axis=1)   # length along v
    du, dv = long_u[..., None, None] * u[:, None, None, :], long_v[..., None, None] * v[:, None, None, :]
    c = np.broadcast_to(corner[:, None, None, :], du.shape)
    rectangles = np.concatenate([c, c + du, c + du + dv, c + dv], axis=2)  # (n, 2, 4, 2)
    return rectangles.reshape(-1, 4, 2).astype(np.float32)


def _sized_like(corner: np.ndarray, u: np.ndarray, v: np.ndarray, known: np.ndarray,
                aspect: float) -> np.ndarray:
    """Two rectangles per corner, (2n, 4, 2), of the median size of the
    ``known`` outlines (k, 4, 2, face order): first with arm u the long side,
    then with arm v."""
    short = median_short_side(known)
    long_ = short * aspect
    c = corner[:, None, :]

    def rectangles(along_u: float, along_v: float) -> np.ndarray:
        du, dv = along_u * u[:, None], along_v * v[:, None]
        return np.concatenate([c, c + du, c + du + dv, c + dv], axis=1)

    return np.concatenate([rectangles(long_, short), rectangles(short, long_)]).astype(np.float32)
