"""The flip tracker on moments cut from the benchmark's hard videos (960x540,
the stand-in deck): a few seconds around cards once dropped, the cards laid
before lying on the pile from the first frame (:meth:`FlipPlan.window`)."""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from tools.synth.datasets import Art, video_plan
from tools.synth.flip_plan import FlipPlan
from tools.synth.video_sets import render_frames

from .test_track_tracker import track
from .track_support import notations


@lru_cache(maxsize=2)
def moment(seed: int, index: int, first: int, last: int) -> tuple[FlipPlan, FlipPlan, tuple[np.ndarray, ...]]:
    """Hard video ``index`` of ``seed`` (as the benchmark makes it), its
    window of flips ``first`` to ``last - 1``, and that window's frames."""
    plan, rng = video_plan(seed, index, (18, 24), kind="hard")
    window = plan.window(first, last)
    art = Art.of()
    return plan, window, tuple(f.shot.image for f in render_frames(window, art.faces, rng, art.back, "hard"))


def turn(a: float, b: float) -> float:
    """Degrees from angle ``a`` to ``b``, in -180..180."""
    return (b - a + 180) % 360 - 180


def test_a_twin_laid_fast_and_turned_half_round_counts_though_nothing_was_seen_passing_over():
    # the third pineapple is carried in within two frames and laid turned half round: the hand hides
    # nothing of the one below that motion notices, but no hand turns a card half round in place
    plan, window, frames = moment(4731, 36, 6, 10)
    laid = plan.flips[8]
    assert laid.fast and abs(abs(turn(plan.flips[7].pose.angle, laid.pose.angle)) - 180) < 10
    assert notations(track(frames)[0]) == "P P P P"
