"""The flip tracker on short hard videos (480x270, hands from any side):
runs of 2-5 identical cards, some laid almost exactly on the last one or
turned half round on it, doubles one after another, and hands that lay no
card: one passing over the pile, one nudging it."""
from __future__ import annotations

import dataclasses
from functools import lru_cache

import numpy as np

from companion.engine import parse_pile
from tools.synth.datasets import Art
from tools.synth.flip_plan import FlipPlan
from tools.synth.gesture_video import render_gesture_frames
from tools.synth.gestures import GesturePlan, plan_gesture_video
from tools.synth.hard_flips import plan_hard_flip_video
from tools.synth.synth_video import render_flip_frames
from vision.geometry import CardPose

from .test_track_tracker import track
from .track_support import notations

SIZE = (480, 270)


def laid_like_the_last(plan: FlipPlan, every: int) -> FlipPlan:
    """``plan`` with every card of a run laid within half a millimetre and
    half a degree of the one below, and every ``every``-th of them turned
    half round instead."""
    flips = list(plan.flips)
    for k in range(1, len(flips)):
        if flips[k].card == flips[k - 1].card:
            below = flips[k - 1].pose
            turn = 180 if k % every == 0 else 0.4
            flips[k] = dataclasses.replace(flips[k], pose=CardPose(below.x + 0.4, below.y - 0.3, below.angle + turn))
    return dataclasses.replace(plan, flips=tuple(flips))


@lru_cache(maxsize=4)
def hard_video(notation: str, seed: int, every: int = 3) -> tuple[FlipPlan, tuple[np.ndarray, ...]]:
    art = Art.of()
    plan = plan_hard_flip_video(parse_pile(notation), np.random.default_rng(seed), SIZE, pause_scale=0.3)
    plan = laid_like_the_last(plan, every)
    frames = tuple(f.shot.image for f in render_flip_frames(plan, art.faces, np.random.default_rng(seed + 1),
                                                             art.back, quick_noise=True))
    return plan, frames


@lru_cache(maxsize=4)
def gesture_video(notation: str, kind: str, seed: int) -> tuple[GesturePlan, tuple[np.ndarray, ...]]:
    art = Art.of()
    plan = plan_gesture_video(parse_pile(notation), np.random.default_rng(seed), SIZE, gestures=2, kinds=(kind,),
                              pause_scale=0.3)
    frames = tuple(f.shot.image for f in render_gesture_frames(plan, art.faces, np.random.default_rng(seed + 1),
                                                                art.back))
    return plan, frames


RUNS = "S S P P P M M M M A A A A A"


def test_runs_of_two_to_five_identical_cards_lose_none():
    plan, frames = hard_video(RUNS, 11)
    sides = {round(f.grip + f.pose.angle) % 360 for f in plan.flips}
    assert len(sides) > 3  # hands from several sides
    events, _ = track(frames)
    assert notations(events) == RUNS


def test_a_card_turned_half_round_on_its_twin_counts():
    plan, frames = hard_video("O O P P", 12, every=1)
    assert abs((plan.flips[1].pose.angle - plan.flips[0].pose.angle) % 360 - 180) < 1
    assert notations(track(frames)[0]) == "O O P P"


DOUBLES = "S S2 M2 O2 A2 P2 M2 M2 A"


def test_doubles_one_after_another_lose_none():
    _, frames = hard_video(DOUBLES, 13)
    assert notations(track(frames)[0]) == DOUBLES


def test_a_hand_passing_over_a_run_adds_no_card():
    plan, frames = gesture_video("S S S", "pass", 21)
    assert [g.kind for g in plan.gestures] == ["pass", "pass"]
    assert notations(track(frames)[0]) == "S S S"


def test_a_nudged_pile_adds_no_card():
    plan, frames = gesture_video("M M A", "nudge", 22)
    assert [g.kind for g in plan.gestures] == ["nudge", "nudge"]
    assert all(np.hypot(*g.shift[:2]) >= 1.5 for g in plan.gestures)  # each moves the pile by millimetres
    assert notations(track(frames)[0]) == "M M A"
