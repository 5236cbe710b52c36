"""Flip videos in which hands also do things that lay no card.

Between the flips a hand passes over the pile (reaching across the table),
nudges the pile a few millimetres, lifts the top card off the pile and puts
it back, or rests on the table beside the pile. The truth is the cards laid;
whatever a tracker reports beyond them is a card added.
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from companion.engine import Card

from tools.synth.flip_plan import ALL_SIDES, Flip, FlipPlan, entry_direction, offscreen_start
from tools.synth.hard_flips import plan_hard_flip_video
from vision.geometry import CARD_MM, CardPose

GESTURES = ("pass", "nudge", "lift", "rest")
Key = tuple[int, CardPose]  # (frame, where the hand's grip point is)


@dataclass(frozen=True)
class Gesture:
    """A hand's trip that lays no card. ``keys`` are the hand's keyframes
    (eased between); ``grip`` the side of ``keys``' pose it reaches from.
    A nudge moves the pile by ``shift`` (x, y mm and degrees about the
    pile's middle) between frames ``moved``; a lift carries the top card
    between frames ``lifted`` and puts it back where the last key says."""

    kind: str
    keys: tuple[Key, ...]
    grip: float
    origin: CardPose  # the top card's pose as planned: the video moves the keys with the pile
    shift: tuple[float, float, float] = (0.0, 0.0, 0.0)
    moved: tuple[int, int] = (0, 0)
    lifted: tuple[int, int] | None = None

    @property
    def entered(self) -> int:
        return self.keys[0][0]

    @property
    def left(self) -> int:
        return self.keys[-1][0]

    def hand(self, frame: int, top: CardPose | None = None) -> CardPose | None:
        """The hand's grip point at ``frame`` over a top card at ``top`` (as
        planned, when not given); None when it is out of the picture."""
        if not self.entered <= frame < self.left:
            return None
        for (f0, a), (f1, b) in zip(self.keys, self.keys[1:]):
            if f0 <= frame < f1:
                t = 1 - (1 - (frame - f0) / (f1 - f0)) ** 2
                dx, dy, turn = (0.0, 0.0, 0.0) if top is None else \
                    (top.x - self.origin.x, top.y - self.origin.y, top.angle - self.origin.angle)
                return CardPose(a.x + (b.x - a.x) * t + dx, a.y + (b.y - a.y) * t + dy,
                                a.angle + (b.angle - a.angle) * t + turn, a.lift + (b.lift - a.lift) * t)
        return None

    def as_json(self) -> dict:
        return {"gesture": self.kind, "hand_entered": self.entered, "hand_left": self.left}

    def earlier(self, frames: int) -> "Gesture":
        """This gesture ``frames`` frames sooner (for a window of a video, as :meth:`Flip.earlier`)."""
        return dataclasses.replace(self, keys=tuple((f - frames, pose) for f, pose in self.keys),
                                   moved=(self.moved[0] - frames, self.moved[1] - frames),
                                   lifted=None if self.lifted is None else (self.lifted[0] - frames,
                                                                             self.lifted[1] - frames))


@dataclass(frozen=True)
class GesturePlan:
    """A flip video (``flips``) with ``gestures`` between its flips."""

    flips: FlipPlan
    gestures: tuple[Gesture, ...]

    @property
    def fps(self) -> float:
        return self.flips.fps

    @property
    def size(self) -> tuple[int, int]:
        return self.flips.size

    @property
    def frame_count(self) -> int:
        return self.flips.frame_count

    def truth_json(self) -> dict:
        return {**self.flips.truth_json(), "gestures": [g.as_json() for g in self.gestures]}


def _pause(rng: np.random.Generator) -> int:
    return int(rng.integers(4, 20))


def _gesture(kind: str, frame: int, top: CardPose, plan: FlipPlan, rng: np.random.Generator) -> Gesture:
    """One gesture starting at ``frame`` over a pile whose top card lies at ``top``."""
    side = str(rng.choice(ALL_SIDES))
    direction = entry_direction(plan.camera, side)
    toward = math.degrees(math.atan2(direction[1], direction[0])) + rng.uniform(-15, 15)
    length = CARD_MM[1]

    def at(offset: np.ndarray, angle: float = top.angle, lift: float = 1.0) -> CardPose:
        return CardPose(top.x + float(offset[0]), top.y + float(offset[1]), angle, lift)

    across = np.array([-direction[1], direction[0]])
    if kind == "pass":  # reaching over the pile for something beyond it
        near = at(-direction * length * rng.uniform(0.2, 1.0) + across * rng.normal(0, 10), lift=1.05)
        path = [near, near]
        times = [int(rng.integers(6, 12)), int(rng.integers(0, 10))]
    elif kind == "nudge":  # fingertips on the pile's edge push it a few millimetres
        touch = at(direction * length * rng.uniform(0.05, 0.25))
        push = -direction * rng.uniform(2, 6) + across * rng.normal(0, 1.5)
        path = [touch, at(direction * length * 0.15 + push), at(direction * length * 0.15 + push)]
        times = [int(rng.integers(6, 12)), int(rng.integers(3, 7)), int(rng.integers(1, 5))]
    elif kind == "lift":  # the top card lifted off, looked at, put back
        aside = at(direction * rng.uniform(30, 100) + across * rng.normal(0, 10), top.angle + rng.normal(0, 8), 1.08)
        back = CardPose(top.x + rng.normal(0, 0.3), top.y + rng.normal(0, 0.3), top.angle + rng.normal(0, 0.3))
        path = [top, top, aside, aside, back, back]
        times = [int(rng.integers(6, 12)), int(rng.integers(1, 4)), int(rng.integers(4, 9)),
                 int(rng.integers(5, 20)), int(rng.integers(4, 9)), int(rng.integers(1, 5))]
    else:  # a hand resting on the table beside the pile
        rest = at(direction * length * rng.uniform(1.0, 1.5) + across * length * rng.uniform(-0.6, 0.6))
        path = [rest, CardPose(rest.x + rng.normal(0, 0.5), rest.y + rng.normal(0, 0.5), rest.angle)]
        times = [int(rng.integers(6, 12)), int(rng.integers(15, 45))]
    start = offscreen_start(plan.camera, path[0], direction)
    keys, f = [(frame, start)], frame
    for pose, step in zip(path, times):
        f += max(1, step)
        keys.append((f, pose))
    keys.append((f + int(rng.integers(5, 11)), start))
    shift = (0.0, 0.0, 0.0)
    moved, lifted = (0, 0), None
    if kind == "nudge":
        shift = (float(push[0]), float(push[1]), float(rng.uniform(-4, 4)))
        moved = (keys[2][0], keys[3][0])
    elif kind == "lift":
        lifted = (keys[2][0], keys[5][0])
    return Gesture(kind, tuple(keys), toward - top.angle, top, shift, moved, lifted)


def plan_gesture_video(cards: Sequence[Card], rng: np.random.Generator, size: tuple[int, int] = (960, 540),
                       fps: float = 15.0, gestures: int = 4, kinds: Sequence[str] = GESTURES,
                       pause_scale: float = 0.6) -> GesturePlan:
    """A few cards laid, then ``gestures`` gestures (each of one of ``kinds``),
    each perhaps followed by one more card."""
    laid = plan_hard_flip_video(cards, rng, size, fps, pause_scale=pause_scale)
    first = max(1, len(cards) - gestures)
    later = sorted(rng.choice(np.arange(first, len(cards) + 1), size=gestures, replace=True).tolist())
    shifted, moves, offset, k = [], [], 0, 0
    for index, flip in enumerate(laid.flips):
        while k < len(later) and later[k] == index:
            frame = flip.entered + offset
            moves.append(_gesture(str(rng.choice(list(kinds))), frame, shifted[-1].pose, laid, rng))
            offset += moves[-1].left - frame + _pause(rng)
            k += 1
        shifted.append(_later(flip, offset))
    end = laid.frame_count + offset
    while k < len(later):
        moves.append(_gesture(str(rng.choice(list(kinds))), end, shifted[-1].pose, laid, rng))
        end = moves[-1].left + _pause(rng)
        k += 1
    return GesturePlan(FlipPlan(laid.size, laid.fps, laid.table, laid.camera, laid.look, laid.side,
                                tuple(shifted), end + 8, laid.stock), tuple(moves))


def _later(flip: Flip, frames: int) -> Flip:
    return Flip(flip.card, flip.pose, flip.start, flip.entered + frames, flip.settled + frames,
                flip.released + frames, flip.hand_left + frames, flip.fast, flip.grip)
