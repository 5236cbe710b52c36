"""The choreography of a flip video, decided before any pixel is drawn.

A fixed camera watches the face-up pile grow. For each card a hand enters
from one side of the frame carrying it, lays it on the pile with a small
offset and turn, lets go, and leaves the frame; then a pause. The plan knows
the true timeline, so the ground truth never depends on rendering.
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from companion.engine import Card, card_to_json

from tools.synth.backgrounds import TABLE_KINDS
from tools.synth.camera_effects import CameraLook
from vision.geometry import CARD_MM, Camera, CardPose, apply_homography

ENTRY_SIDES = ("bottom", "left", "right")
ALL_SIDES = ("bottom", "left", "right", "top")


@dataclass(frozen=True)
class Flip:
    """One card's trip: frame numbers are absolute; the card rests from
    ``settled`` on, and from ``hand_left`` on the hand is out of the frame."""

    card: Card
    pose: CardPose
    start: CardPose
    entered: int
    settled: int
    released: int
    hand_left: int
    fast: bool
    # the side of the card (degrees from its own x axis, on the table) the hand holds it by
    grip: float = 90.0

    def as_json(self) -> dict:
        return {"card": card_to_json(self.card), "settled": self.settled, "hand_left": self.hand_left,
                "hand_entered": self.entered, "fast": self.fast}

    def earlier(self, frames: int) -> "Flip":
        """The same trip, ``frames`` sooner."""
        return dataclasses.replace(self, entered=self.entered - frames, settled=self.settled - frames,
                                   released=self.released - frames, hand_left=self.hand_left - frames)


@dataclass(frozen=True)
class FlipPlan:
    size: tuple[int, int]
    fps: float
    table: str
    camera: Camera
    look: CameraLook
    side: str
    flips: tuple[Flip, ...]
    frame_count: int
    stock: CardPose  # where the face-down pile waits

    def window(self, first: int, last: int, lead: int = 6, tail: int = 8) -> "FlipPlan":
        """The stretch of this video in which flips ``first`` to ``last - 1``
        are laid, starting ``lead`` frames before the first hand comes: the
        cards laid before lie on the pile from the first frame, as they lay.
        A short test video of a moment a long one holds (its camera, table,
        light and poses), far quicker to render."""
        flips = self.flips
        sooner = flips[first].entered - lead
        end = flips[last].entered if last < len(flips) else self.frame_count
        laid = tuple(dataclasses.replace(f, entered=0, settled=0, released=0, hand_left=0) for f in flips[:first])
        return dataclasses.replace(self, flips=laid + tuple(f.earlier(sooner) for f in flips[first:last]),
                                   frame_count=end - sooner + tail)

    def truth_json(self) -> dict:
        return {
            "size": list(self.size), "fps": self.fps, "frame_count": self.frame_count, "table": self.table,
            "entry_side": self.side, "cards": [f.as_json() for f in self.flips],
            "notation": " ".join(f.card.notation for f in self.flips),
        }


def flip_timing(fast: bool, rng: np.random.Generator, pause_scale: float) -> tuple[int, int, int, int]:
    """Frames to enter, hold after release, leave, and pause afterwards."""
    if fast:
        return int(rng.integers(2, 5)), int(rng.integers(0, 2)), int(rng.integers(2, 5)), int(rng.integers(0, 3))
    pause = int(rng.choice([rng.integers(2, 8), rng.integers(8, 25), rng.integers(25, 50)], p=[0.4, 0.45, 0.15]))
    return int(rng.integers(6, 13)), int(rng.integers(1, 5)), int(rng.integers(5, 11)), round(pause * pause_scale)


def entry_direction(camera: Camera, side: str) -> np.ndarray:
    """Unit vector on the table pointing from the pile towards ``side`` of the image."""
    w, h = camera.size
    edge = {"bottom": (w / 2, h * 1.6), "left": (-w * 0.6, h / 2), "right": (w * 1.6, h / 2),
            "top": (w / 2, -h * 0.6)}[side]
    inverse = np.linalg.inv(camera.table_to_image())
    point = apply_homography(inverse, np.array([edge]))[0]
    return point / np.linalg.norm(point)


def hand_scale(camera: Camera) -> float:
    """Palm width in pixels: a little wider than a card (about 80 mm)."""
    return 80.0 / camera.mm_per_pixel_at_target()


def offscreen_start(camera: Camera, final: CardPose, direction: np.ndarray) -> CardPose:
    w, h = camera.size
    to_image = camera.table_to_image()
    margin = hand_scale(camera) * 2.5
    for distance in range(120, 4000, 20):
        x, y = final.x + direction[0] * distance, final.y + direction[1] * distance
        wrist = apply_homography(to_image, np.array([[x, y]]))[0]
        if wrist[0] < -margin or wrist[0] > w + margin or wrist[1] < -margin or wrist[1] > h + margin:
            return CardPose(x, y, final.angle + 25, lift=1.12)
    raise RuntimeError("camera sees too much table to hide the hand")


def plan_flip_video(cards: Sequence[Card], rng: np.random.Generator, size: tuple[int, int] = (960, 540),
                    fps: float = 15.0, fast_share: float = 0.25, pause_scale: float = 1.0) -> FlipPlan:
    """Choose camera, table and every card's pose and timing. At least one
    flip is fast when there are two or more cards; ``pause_scale`` shortens
    (or lengthens) the waits between flips."""
    camera = sample_camera(size, rng)
    side = str(rng.choice(ENTRY_SIDES, p=[0.6, 0.2, 0.2]))
    direction = entry_direction(camera, side)
    base_angle = math.degrees(math.atan2(direction[1], direction[0])) - 90 + rng.uniform(-15, 15)
    fast = rng.random(len(cards)) < fast_share
    if len(cards) >= 2 and not fast.any():
        fast[int(rng.integers(1, len(cards)))] = True
    frame = int(rng.integers(4, 12))
    flips = []
    for card, quick in zip(cards, fast):
        enter, hold, leave, pause = flip_timing(bool(quick), rng, pause_scale)
        pose = CardPose(rng.normal(0, 4), rng.normal(0, 4), base_angle + rng.normal(0, 7))
        start = offscreen_start(camera, pose, direction)
        settled = frame + enter
        released = settled + hold
        flips.append(Flip(card, pose, start, frame, settled, released, released + leave, bool(quick)))
        frame = released + leave + pause
    side_dir = np.array([-direction[1], direction[0]])
    stock = CardPose(*(side_dir * 95 * (1 if rng.random() < 0.5 else -1)), angle=base_angle + rng.normal(0, 5))
    look = sample_look(size, rng)
    return FlipPlan(size, fps, TABLE_KINDS[int(rng.integers(len(TABLE_KINDS)))], camera, look, side,
                    tuple(flips), frame + int(rng.integers(6, 15)), stock)


def sample_camera(size: tuple[int, int], rng: np.random.Generator) -> Camera:
    """A fixed camera looking down at the pile from a little aside."""
    w, h = size
    focal = w * rng.uniform(0.8, 1.2)
    card_px = h * rng.uniform(0.28, 0.42)
    return Camera(size, focal, focal * CARD_MM[1] / card_px, tilt=rng.uniform(5, 30), tilt_axis=rng.uniform(-20, 20),
                  roll=rng.uniform(-8, 8), target=(w * rng.uniform(0.42, 0.58), h * rng.uniform(0.42, 0.58)))


def sample_look(size: tuple[int, int], rng: np.random.Generator) -> CameraLook:
    """A video camera's look: focused, no glare, mild noise, moderate JPEG."""
    look = CameraLook.sample(size, rng, harsh=0.6)
    return CameraLook(**{**look.__dict__, "blur": "focus", "blur_amount": min(look.blur_amount, 1.2),
                         "glare": None, "noise": min(look.noise, 2.5), "jpeg_quality": int(rng.integers(60, 90))})
