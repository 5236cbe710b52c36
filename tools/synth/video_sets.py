"""The sets of flip videos, and rendering a plan of any of them.

- ``classic``: the first flip videos (:mod:`tools.synth.flip_plan`), kept as
  a regression set;
- ``hard``: runs, doubles, hands from any side, cards laid almost exactly on
  the last one or turned half round (:mod:`tools.synth.hard_flips`);
- ``gestures``: a few cards laid, and hands passing over the pile, nudging
  it, lifting its top card and putting it back, or resting beside it
  (:mod:`tools.synth.gestures`): no card may be added;
- ``nudges``: as ``gestures``, every gesture a nudge of the pile (a hand
  pushing it a few millimetres and degrees), the gesture most like a card of
  the top card's kind laid a little off.
"""
from __future__ import annotations

import random
from typing import Iterator, Mapping, Union

import numpy as np

from companion.engine import Card

from tools.synth.flip_plan import Flip, FlipPlan, plan_flip_video
from tools.synth.gesture_video import render_gesture_frames
from tools.synth.gestures import GesturePlan, plan_gesture_video
from tools.synth.hard_flips import hard_sequence, plan_hard_flip_video
from tools.synth.piles import flip_sequence
from tools.synth.synth_video import VideoFrame, render_flip_frames

VIDEO_SETS = ("classic", "hard", "gestures", "nudges")
AnyPlan = Union[FlipPlan, GesturePlan]


def plan_video(kind: str, length: int, rng: np.random.Generator, size: tuple[int, int] = (960, 540),
               fps: float = 15.0) -> AnyPlan:
    """A video of set ``kind`` with ``length`` cards laid."""
    cards = random.Random(int(rng.integers(2**32)))
    if kind == "classic":
        return plan_flip_video(flip_sequence(length, cards), rng, size, fps)
    if kind == "hard":
        return plan_hard_flip_video(hard_sequence(length, cards), rng, size, fps)
    if kind == "gestures":
        return plan_gesture_video(hard_sequence(length, cards), rng, size, fps)
    if kind == "nudges":
        return plan_gesture_video(hard_sequence(length, cards), rng, size, fps, kinds=("nudge",))
    raise ValueError(f"no video set {kind!r} (one of {', '.join(VIDEO_SETS)})")


def laid(plan: AnyPlan) -> tuple[Flip, ...]:
    """The cards the video lays, in order."""
    return plan.flips.flips if isinstance(plan, GesturePlan) else plan.flips


def render_frames(plan: AnyPlan, faces: Mapping[Card, np.ndarray], rng: np.random.Generator,
                  back: np.ndarray | None = None, kind: str = "classic") -> Iterator[VideoFrame]:
    """Every frame of ``plan``, a video of set ``kind``: the classic set keeps
    the frames it always had, the others draw their noise once (faster)."""
    if isinstance(plan, GesturePlan):
        return render_gesture_frames(plan, faces, rng, back)
    return render_flip_frames(plan, faces, rng, back, quick_noise=kind != "classic")
