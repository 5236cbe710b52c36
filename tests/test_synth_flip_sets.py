"""The hard and gestures sets of flip videos, planned (no pixel drawn): runs
and doubles in the sequence, landings close to the card below, hands from
every side, and gestures that lay no card."""
from __future__ import annotations

import random

import cv2
import numpy as np

from companion.engine import IngredientCard, one_of_a_kind, parse_pile
from tools.synth.datasets import Art, video_plan
from tools.synth.gesture_video import render_gesture_frames, scene_at
from tools.synth.gestures import plan_gesture_video
from tools.synth.hard_flips import hard_sequence
from tools.synth.video_sets import laid
from vision.geometry import CardPose, face_corners


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


def test_hard_sequences_hold_each_order_and_the_mamma_mia_card_at_most_once():
    rng = random.Random(7)
    for _ in range(200):
        held = [card for card in hard_sequence(60, rng) if one_of_a_kind(card)]
        assert len(held) == len(set(held)), [card.notation for card in held]


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


def test_the_nudges_set_only_pushes_the_pile():
    for index in range(4):
        plan, _ = video_plan(43, index, (3, 5), kind="nudges")
        assert plan.gestures and {g.kind for g in plan.gestures} == {"nudge"}
        for gesture in plan.gestures:
            before, _, _ = scene_at(plan, gesture.entered - 1)
            after, _, _ = scene_at(plan, gesture.left + 1)
            assert [c for c, _ in after] == [c for c, _ in before]
            assert np.hypot(after[0][1].x - before[0][1].x, after[0][1].y - before[0][1].y) > 1


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


def test_a_pushed_pile_leaves_the_table_bare_where_it_lay():
    # the pile is drawn anew where it was pushed: the table it left shows again, with no card left behind
    art = Art.of()
    plan = plan_gesture_video(parse_pile("M S"), np.random.default_rng(36), (960, 540), gestures=1, kinds=("nudge",),
                              pause_scale=0.3)
    nudge = plan.gestures[0]
    before, _, _ = scene_at(plan, nudge.entered - 1)
    after, _, _ = scene_at(plan, nudge.left + 1)
    assert len(before) == 1 and nudge.left + 1 < plan.flips.flips[1].entered  # one card, pushed, nothing else by it
    frames = [f.shot.image for f in render_gesture_frames(plan, art.faces, np.random.default_rng(35), art.back)]
    to_image = plan.flips.camera.table_to_image()

    def covered(pose: CardPose) -> np.ndarray:
        face = art.faces[before[0][0]]
        corners = cv2.perspectiveTransform(face_corners((face.shape[1], face.shape[0])).reshape(-1, 1, 2).astype(
            np.float64), to_image @ pose.face_to_table((face.shape[1], face.shape[0])))
        mask = np.zeros(frames[0].shape[:2], np.uint8)
        cv2.fillConvexPoly(mask, np.round(corners.reshape(-1, 2)).astype(np.int32), 1)
        return mask.astype(bool)

    old, new = covered(before[0][1]), covered(after[0][1])
    left_bare = old & ~cv2.dilate(new.astype(np.uint8), np.ones((9, 9))).astype(bool)
    around = cv2.dilate((old | new).astype(np.uint8), np.ones((31, 31))).astype(bool) & \
        ~cv2.dilate((old | new).astype(np.uint8), np.ones((11, 11))).astype(bool)
    assert left_bare.sum() > 100
    now = frames[nudge.left + 1].astype(np.float32)
    # the camera moves a little from frame to frame: the strip is compared with the table around the pile
    assert np.abs(np.median(now[left_bare], axis=0) - np.median(now[around], axis=0)).max() < 12
    assert np.abs(now[new].mean(axis=0) - now[around].mean(axis=0)).max() > 40  # the card is far from the table
