"""What a synthetic table photo shows, chosen from a seeded generator.

A :class:`PhotoSpec` is plain data (camera, table, cards with their poses,
thumb, camera defects), so a test can build one by hand and a data set can be
described and reproduced by its seed.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from companion.engine import Card

from tools.synth.backgrounds import TABLE_KINDS
from tools.synth.camera_effects import CameraLook
from vision.catalog import distinct_faces, face_kind
from vision.geometry import CARD_MM, Camera, CardPose, apply_homography, is_convex, quad_inside

PHOTO_KINDS = ("top", "layout", "empty")
KIND_WEIGHTS = {"ingredient": 0.25, "double": 0.15, "order": 0.3, "special": 0.2, "mamma_mia": 0.1}


@dataclass(frozen=True)
class PlacedCard:
    """A face-up card on the table; ``under`` means another card lies on it."""

    card: Card
    pose: CardPose
    under: bool = False


@dataclass(frozen=True)
class Thumb:
    """A thumb over a card edge: tip position (pixels), pointing direction and width."""

    tip: tuple[float, float]
    direction: float
    width: float


@dataclass(frozen=True)
class PhotoSpec:
    kind: str
    size: tuple[int, int]
    table: str
    camera: Camera
    cards: tuple[PlacedCard, ...] = ()  # drawn in this order: bottom first
    backs: tuple[CardPose, ...] = ()  # face-down cards: no face to report
    thumb: Thumb | None = None
    look: CameraLook = field(default_factory=CameraLook)


def sample_card(rng: np.random.Generator, faces: Sequence[Card] | None = None) -> Card:
    """A face, first choosing its kind so rare kinds are well represented."""
    faces = list(faces) if faces is not None else distinct_faces()
    by_kind: dict[str, list[Card]] = {}
    for card in faces:
        by_kind.setdefault(face_kind(card), []).append(card)
    kinds = [k for k in KIND_WEIGHTS if k in by_kind]
    weights = np.array([KIND_WEIGHTS[k] for k in kinds])
    kind = kinds[int(rng.choice(len(kinds), p=weights / weights.sum()))]
    pool = by_kind[kind]
    return pool[int(rng.integers(len(pool)))]


def _camera(size: tuple[int, int], card_px: float, rng: np.random.Generator, max_tilt: float,
            target: tuple[float, float]) -> Camera:
    focal = size[0] * rng.uniform(0.75, 1.3)
    return Camera(size, focal, focal * CARD_MM[1] / card_px, tilt=rng.uniform(0, max_tilt),
                  tilt_axis=rng.uniform(0, 360), roll=rng.uniform(0, 360), target=target)


def _card_quad(camera: Camera, pose: CardPose) -> np.ndarray:
    w, h = CARD_MM
    corners = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]]) * pose.lift
    c, s = math.cos(math.radians(pose.angle)), math.sin(math.radians(pose.angle))
    table = corners @ np.array([[c, s], [-s, c]]) + [pose.x, pose.y]
    return apply_homography(camera.table_to_image(), table)


def card_fits(camera: Camera, pose: CardPose, margin: float = 4.0) -> bool:
    quad = _card_quad(camera, pose)
    return quad_inside(quad, camera.size, margin) and is_convex(quad)


def _top_photo(size: tuple[int, int], rng: np.random.Generator, faces: Sequence[Card] | None) -> PhotoSpec:
    w, h = size
    for attempt in range(200):
        card_px = h * rng.uniform(0.4, 0.92) * (0.98 ** attempt)
        camera = _camera(size, card_px, rng, 35, (rng.uniform(0.3, 0.7) * w, rng.uniform(0.35, 0.65) * h))
        top = CardPose(0.0, 0.0, rng.uniform(0, 360))
        if card_fits(camera, top):
            break
    else:
        raise RuntimeError("no top-card pose fits the frame")
    under = [PlacedCard(sample_card(rng, faces), CardPose(rng.normal(0, 5), rng.normal(0, 6),
                                                          top.angle + rng.normal(0, 9)), under=True)
             for _ in range(int(rng.choice([0, 1, 2, 3, 4], p=[0.25, 0.3, 0.2, 0.15, 0.1])))]
    cards = tuple(under) + (PlacedCard(sample_card(rng, faces), top),)
    backs = ()
    if rng.random() < 0.15:
        a = rng.uniform(0, 2 * math.pi)
        backs = (CardPose(95 * math.cos(a), 95 * math.sin(a), rng.uniform(0, 360)),)
    thumb = _thumb(_card_quad(camera, top), rng) if rng.random() < 0.3 else None
    return PhotoSpec("top", size, _table(rng), camera, cards, backs, thumb, CameraLook.sample(size, rng))


def _thumb(quad: np.ndarray, rng: np.random.Generator) -> Thumb:
    edge = int(rng.integers(4))
    a, b = quad[edge], quad[(edge + 1) % 4]
    point = a + (b - a) * rng.uniform(0.2, 0.8)
    centre = quad.mean(axis=0)
    inward = centre - point
    direction = math.degrees(math.atan2(inward[1], inward[0])) + rng.uniform(-25, 25)
    width = 0.2 * min(np.linalg.norm(quad[1] - quad[0]), np.linalg.norm(quad[3] - quad[0]))
    depth = rng.uniform(0.2, 0.7) * width
    tip = point + np.array([math.cos(math.radians(direction)), math.sin(math.radians(direction))]) * depth
    return Thumb((float(tip[0]), float(tip[1])), direction, float(width))


def _overlaps(quads: list[np.ndarray], quad: np.ndarray, size: tuple[int, int]) -> bool:
    import cv2

    scale = 0.25
    canvas = np.zeros((int(size[1] * scale) + 1, int(size[0] * scale) + 1), np.uint8)
    for q in quads:
        cv2.fillConvexPoly(canvas, np.round(q * scale).astype(np.int32), 1)
    mine = np.zeros_like(canvas)
    cv2.fillConvexPoly(mine, np.round(quad * scale).astype(np.int32), 1)
    grown = cv2.dilate(mine, np.ones((5, 5), np.uint8))
    return bool(np.any(canvas & grown))


def _layout_photo(size: tuple[int, int], rng: np.random.Generator, faces: Sequence[Card] | None) -> PhotoSpec:
    w, h = size
    wanted = int(rng.integers(2, 7))
    camera = _camera(size, h * rng.uniform(0.2, 0.36), rng, 30, (w / 2, h / 2))
    placed: list[PlacedCard] = []
    quads: list[np.ndarray] = []
    spread = camera.mm_per_pixel_at_target() * min(w, h) * 0.6
    for _ in range(300):
        if len(placed) == wanted:
            break
        pose = CardPose(rng.uniform(-1.4, 1.4) * spread, rng.uniform(-1, 1) * spread, rng.uniform(0, 360))
        if not card_fits(camera, pose, 6):
            continue
        quad = _card_quad(camera, pose)
        if _overlaps(quads, quad, size):
            continue
        placed.append(PlacedCard(sample_card(rng, faces), pose))
        quads.append(quad)
    return PhotoSpec("layout", size, _table(rng), camera, tuple(placed), (), None, CameraLook.sample(size, rng))


def _empty_photo(size: tuple[int, int], rng: np.random.Generator) -> PhotoSpec:
    w, h = size
    camera = _camera(size, h * rng.uniform(0.3, 0.8), rng, 35, (rng.uniform(0.3, 0.7) * w, rng.uniform(0.3, 0.7) * h))
    backs = (CardPose(0, 0, rng.uniform(0, 360)),) if rng.random() < 0.4 else ()
    return PhotoSpec("empty", size, _table(rng), camera, (), backs, None, CameraLook.sample(size, rng))


def _table(rng: np.random.Generator) -> str:
    return TABLE_KINDS[int(rng.integers(len(TABLE_KINDS)))]


def sample_photo_spec(kind: str, rng: np.random.Generator, size: tuple[int, int] = (1280, 720),
                      faces: Sequence[Card] | None = None) -> PhotoSpec:
    """A random photo of ``kind``: ``top`` (a pile's top card, maybe with cards
    peeking out below and a thumb), ``layout`` (2-6 separate cards) or ``empty``."""
    if kind == "top":
        return _top_photo(size, rng, faces)
    if kind == "layout":
        return _layout_photo(size, rng, faces)
    if kind == "empty":
        return _empty_photo(size, rng)
    raise ValueError(f"unknown photo kind {kind!r} (one of {', '.join(PHOTO_KINDS)})")
