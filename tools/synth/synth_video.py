"""Rendering a :class:`~vision.flip_plan.FlipPlan` frame by frame.

Settled cards are drawn once into a cached canvas; each frame adds only the
moving card and the hand, then passes through the (fixed) camera with fresh
sensor noise, so a 60-card video renders in seconds.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterator, Mapping

import numpy as np

from companion.engine import Card

from tools.synth.backgrounds import table_background
from tools.synth.camera_effects import SensorNoise, Shot, light_field, shoot
from tools.synth.compose import HAND, composite_card, new_labels
from tools.synth.deck_art import render_back
from tools.synth.flip_plan import Flip, FlipPlan, hand_scale
from vision.geometry import CARD_MM, Camera, CardPose, apply_homography
from tools.synth.hand import HandLook, draw_hand
from tools.synth.style import DEFAULT_STYLE


@dataclass(frozen=True)
class VideoFrame:
    index: int
    shot: Shot
    hand_visible: bool


def _ease(t: float) -> float:
    t = min(1.0, max(0.0, t))
    return 1 - (1 - t) ** 3


def _lerp_pose(a: CardPose, b: CardPose, t: float) -> CardPose:
    return CardPose(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.angle + (b.angle - a.angle) * t,
                    a.lift + (b.lift - a.lift) * t)


def _card_pose(flip: Flip, frame: int) -> CardPose | None:
    """Where the carried card is at ``frame``; None once it has settled."""
    if frame >= flip.settled:
        return None
    t = (frame - flip.entered) / max(1, flip.settled - flip.entered)
    return _lerp_pose(flip.start, flip.pose, _ease(t))


def _hand_anchor(flip: Flip, frame: int) -> CardPose | None:
    """Where the hand's grip point is (as a card pose) at ``frame``."""
    if frame >= flip.hand_left:
        return None
    if frame < flip.released:
        return _card_pose(flip, frame) or flip.pose
    t = (frame - flip.released) / max(1, flip.hand_left - flip.released)
    return _lerp_pose(flip.pose, flip.start, t * t)


def draw_hand_at(scene: np.ndarray, labels: np.ndarray, camera: Camera, anchor: CardPose, look: HandLook,
                 grip: float = 90.0) -> None:
    """A hand holding (or reaching as if to hold) a card at ``anchor`` by its
    side ``grip`` degrees from the card's own x axis."""
    to_image = camera.table_to_image()
    a = math.radians(anchor.angle + grip)
    back = np.array([math.cos(a), math.sin(a)])
    grip = np.array([anchor.x, anchor.y]) + back * CARD_MM[1] * 0.42 * anchor.lift
    behind = grip + back * 30
    wrist_img, behind_img = apply_homography(to_image, np.array([grip, behind]))
    direction = math.degrees(math.atan2(wrist_img[1] - behind_img[1], wrist_img[0] - behind_img[0]))
    scale = hand_scale(camera) * 0.55 * anchor.lift
    unit = (wrist_img - behind_img) / max(1e-6, float(np.linalg.norm(wrist_img - behind_img)))
    start = wrist_img - unit * scale * 1.2  # fingertips reach just over the card's near edge
    mask = np.zeros(labels.shape, np.uint8)
    draw_hand(scene, mask, (float(start[0]), float(start[1])), direction, scale, look, spread=0.3, arm_length=7)
    labels[mask > 127] = HAND


def render_flip_frames(plan: FlipPlan, faces: Mapping[Card, np.ndarray], rng: np.random.Generator,
                       back: np.ndarray | None = None, quick_noise: bool = False) -> Iterator[VideoFrame]:
    """Yield every frame of the video in order (``quick_noise``: the noise
    drawn once for the video, see :class:`SensorNoise`)."""
    to_image = plan.camera.table_to_image()
    canvas = table_background(plan.table, plan.size, rng)
    labels = new_labels(plan.size)
    back_image = back if back is not None else render_back(DEFAULT_STYLE)
    for k in range(3):
        stock = CardPose(plan.stock.x + k * 0.6, plan.stock.y - k * 0.8, plan.stock.angle + k * 1.5)
        composite_card(canvas, labels, -3, back_image, to_image @ stock.face_to_table(_size(back_image)))
    field = light_field(plan.size, plan.look)
    hand_look = HandLook.sample(rng)
    noise = SensorNoise(plan.size, rng) if quick_noise else None
    pending = list(plan.flips)
    for frame in range(plan.frame_count):
        while pending and frame >= pending[0].hand_left:
            pending.pop(0)
        for flip in plan.flips:
            if flip.settled == frame:
                face = faces[flip.card]
                composite_card(canvas, labels, 0, face, to_image @ flip.pose.face_to_table(_size(face)))
        scene = canvas.copy()
        frame_labels = labels.copy()
        active = pending[0] if pending and frame >= pending[0].entered else None
        if active is not None:
            pose = _card_pose(active, frame)
            if pose is not None:
                face = faces[active.card]
                composite_card(scene, frame_labels, 1, face, to_image @ pose.face_to_table(_size(face)), shadow=0.5)
            anchor = _hand_anchor(active, frame)
            if anchor is not None:
                draw_hand_at(scene, frame_labels, plan.camera, anchor, hand_look, active.grip)
        yield VideoFrame(frame, shoot(scene, plan.look, rng, field, noise), bool(np.any(frame_labels == HAND)))


def _size(image: np.ndarray) -> tuple[int, int]:
    return image.shape[1], image.shape[0]
