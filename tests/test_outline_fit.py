"""The outline benchmark's truth: where the synthetic camera drew each card,
and how an outline is judged against it."""
from __future__ import annotations

import cv2
import numpy as np

from companion.engine import parse_pile
from tools.bench.capture_cuts import verdict
from tools.bench.outline_fit import true_corners
from tools.synth.datasets import Art
from tools.synth.flip_plan import plan_flip_video
from tools.synth.synth_video import render_flip_frames


def test_the_true_corners_are_where_the_card_was_drawn():
    """Cut out along its true corners, the card laid last is its own face
    (not the first card's), closely: 3 % smaller, the cut-out already
    matches far worse (0.55 against 0.86). The same outline judges good,
    5 % smaller inside."""
    art = Art.of()
    plan = plan_flip_video(parse_pile("S A M"), np.random.default_rng(5), (480, 270), pause_scale=0.3)
    last = plan.flips[-1]
    frame = next(f.shot.image for f in render_flip_frames(plan, art.faces, np.random.default_rng(6), art.back)
                 if f.index == last.hand_left + 1)

    def seen_as(corners: np.ndarray, card) -> float:
        face = art.faces[card]
        height, width = face.shape[:2]
        size = (width // 4, height // 4)
        target = np.float32([[0, 0], [size[0], 0], [size[0], size[1]], [0, size[1]]])
        cut = cv2.warpPerspective(frame, cv2.getPerspectiveTransform(corners, target), size)
        small = cv2.resize(face, size, interpolation=cv2.INTER_AREA)
        return float(cv2.matchTemplate(cut, small, cv2.TM_CCOEFF_NORMED)[0, 0])

    truth = true_corners(plan, last, art.faces[last.card])
    assert seen_as(truth, last.card) > 0.8
    assert seen_as(truth, last.card) > seen_as(truth, plan.flips[0].card) + 0.2
    middle = truth.mean(axis=0)
    assert verdict(truth, truth) == "good"
    assert verdict(middle + (truth - middle) * 0.95, truth) == "inside"
