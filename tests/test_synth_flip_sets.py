"""The hard and gestures sets of flip videos, planned (no pixel drawn): runs
and doubles in the sequence, landings close to the card below, hands from
every side, and gestures that lay no card."""
from __future__ import annotations

import random

import numpy as np

from companion.engine import IngredientCard
from tools.synth.datasets import video_plan
from tools.synth.gesture_video import scene_at
from tools.synth.hard_flips import hard_sequence
from tools.synth.video_sets import laid


def test_hard_sequences_hold_runs_of_two_to_five_and_streaks_of_doubles():
    rng = random.Random(5)
    cards = [c for _ in range(20) for c in hard_sequence(24, rng)]
    runs, run = [], 1
    for before, after in zip(cards, cards[1:]):
        if after == before and isinstance(after, IngredientCard) and not after.double:
            run += 1
        else:
            runs.append(run)
            run = 1
    assert {2, 3, 4, 5} <= set(runs)
    doubles = [isinstance(a, IngredientCard) and a.double and isinstance(b, IngredientCard) and b.double and a != b
               for a, b in zip(cards, cards[1:])]
    assert sum(doubles) >= 10


def test_hard_videos_lay_cards_close_to_the_last_and_turned_half_round():
    offsets, turns, sides = [], [], set()
    for index in range(6):
        plan, _ = video_plan(31, index, (18, 24), kind="hard")
        for below, above in zip(plan.flips, plan.flips[1:]):
            offsets.append(np.hypot(above.pose.x - below.pose.x, above.pose.y - below.pose.y))
            turns.append(abs((above.pose.angle - below.pose.angle + 180) % 360 - 180))
        sides |= {round((f.grip + f.pose.angle) / 90) % 4 for f in plan.flips}
    offsets, turns = np.array(offsets), np.array(turns)
    assert np.median(offsets) < 4 and (offsets < 1).mean() > 0.15
    assert (turns > 170).mean() > 0.1 and np.median(turns[turns < 90]) < 5
    assert len(sides) == 4  # hands from every side


def test_gestures_lay_no_card_and_put_a_lifted_card_back_where_it_lay():
    kinds = set()
    for index in range(8):
        plan, _ = video_plan(41, index, (4, 6), kind="gestures")
        kinds |= {g.kind for g in plan.gestures}
        for gesture in plan.gestures:
            before, _, _ = scene_at(plan, gesture.entered - 1)
            after, _, _ = scene_at(plan, gesture.left + 1)
            assert [c for c, _ in after] == [c for c, _ in before]  # no card laid or taken
            if gesture.kind == "lift":
                _, carried, _ = scene_at(plan, (gesture.lifted[0] + gesture.lifted[1]) // 2)
                assert carried is not None and carried[0] == before[-1][0]
                assert abs(after[-1][1].x - before[-1][1].x) < 2 and abs(after[-1][1].y - before[-1][1].y) < 2
            if gesture.kind == "nudge":
                moved = np.hypot(after[0][1].x - before[0][1].x, after[0][1].y - before[0][1].y)
                assert moved > 1
        assert len(laid(plan)) >= 4
    assert kinds == {"pass", "nudge", "lift", "rest"}


def test_hard_videos_carry_twins_in_fast_onto_the_last_card():
    # the case the tracker finds hardest: a card of the top card's kind, in flight for a frame or two, laid
    # within a millimetre of it
    fast_twins = 0
    for index in range(6):
        plan, _ = video_plan(31, index, (18, 24), kind="hard")
        for below, above in zip(plan.flips, plan.flips[1:]):
            close = np.hypot(above.pose.x - below.pose.x, above.pose.y - below.pose.y) < 1
            fast_twins += above.card == below.card and above.fast and close and above.settled - above.entered <= 4
    assert fast_twins >= 1
