"""Flip videos: sequences cut from simulated piles (with runs of identical
cards), a hand that comes and goes, the truth's cards visible in order, and
reproducible files."""
from __future__ import annotations

import json
import random

import cv2
import numpy as np
import pytest

from companion.engine import MAMMA_MIA, IngredientCard, card_from_json, parse_pile
from tools.synth.datasets import Art
from tools.synth.flip_plan import plan_flip_video
from vision.geometry import card_quad
from tools.synth.piles import flip_sequence, longest_run, simulated_pile
from tools.synth.synth_video import render_flip_frames
from tools.synth.video_files import fake_camera_repeats, split_mjpeg, write_flip_video

SIZE = (480, 270)


@pytest.fixture(scope="module")
def art():
    return Art.of()


def test_simulated_pile_is_a_real_oven_pile():
    pile = simulated_pile(7, players=3)
    assert len(pile) > 20 and MAMMA_MIA not in pile
    assert pile == simulated_pile(7, players=3)
    assert any(isinstance(c, IngredientCard) for c in pile) and any(not isinstance(c, IngredientCard) for c in pile)


def test_longest_run_counts_identical_ingredient_cards_only():
    assert longest_run(parse_pile("S S S A g:4A+P g:4A+P")) == 3
    assert longest_run(parse_pile("S S2 S")) == 1
    assert longest_run(parse_pile("g:4A+P g:4A+P")) == 0


@pytest.mark.parametrize("length", [5, 20, 60])
def test_flip_sequence_has_the_length_and_a_run_of_three(length):
    cards = flip_sequence(length, random.Random(length))
    assert len(cards) == length and longest_run(cards) >= 3
    assert flip_sequence(length, random.Random(length)) == cards


def test_plan_timeline_is_ordered_with_a_fast_flip():
    cards = flip_sequence(12, random.Random(1))
    plan = plan_flip_video(cards, np.random.default_rng(1), SIZE)
    assert [f.card for f in plan.flips] == cards
    assert any(f.fast for f in plan.flips) and not all(f.fast for f in plan.flips)
    for a, b in zip(plan.flips, plan.flips[1:]):
        assert a.entered < a.settled <= a.released < a.hand_left <= b.entered
    assert plan.flips[-1].hand_left < plan.frame_count
    durations = [f.hand_left - f.entered for f in plan.flips]
    assert min(durations) <= 10 and max(durations) >= 12


def rectify(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    dst = np.array([[0, 0], [59, 0], [59, 93], [0, 93]], np.float32)
    warped = cv2.warpPerspective(image, cv2.getPerspectiveTransform(quad.astype(np.float32), dst), (60, 94))
    return cv2.cvtColor(warped, cv2.COLOR_BGR2GRAY).astype(np.float32)


def similarity(a: np.ndarray, b: np.ndarray) -> float:
    a, b = (a - a.mean()) / (a.std() + 1e-6), (b - b.mean()) / (b.std() + 1e-6)
    return float((a * b).mean())


def test_video_shows_the_truth_cards_in_order_and_the_hand_comes_and_goes(art):
    cards = parse_pile("S S S g:4A+P A2 y:15+")
    plan = plan_flip_video(cards, np.random.default_rng(4), SIZE)
    frames = list(render_flip_frames(plan, art.faces, np.random.default_rng(5), art.back))
    assert len(frames) == plan.frame_count
    to_image = plan.camera.table_to_image()
    small = {c: cv2.resize(img, (60, 94), interpolation=cv2.INTER_AREA) for c, img in art.faces.items()}
    reference = {c: cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32) for c, img in small.items()}
    for flip in plan.flips:
        assert not frames[flip.hand_left].hand_visible
        assert any(frames[i].hand_visible for i in range(flip.entered, flip.hand_left))
        assert frames[flip.settled].hand_visible
        face = art.faces[flip.card]
        quad = card_quad(to_image @ flip.pose.face_to_table((face.shape[1], face.shape[0])), (face.shape[1], face.shape[0]))
        seen = rectify(frames[flip.hand_left].shot.image, quad)
        scores = {c: similarity(seen, r) for c, r in reference.items()}
        assert max(scores, key=scores.get) == flip.card
    before = rectify(frames[plan.flips[0].entered].shot.image, quad)
    assert similarity(before, reference[cards[-1]]) < 0.5


def test_written_video_matches_truth_and_is_reproducible(tmp_path, art):
    cards = parse_pile("M M M r:S+3?")
    plan = plan_flip_video(cards, np.random.default_rng(2), SIZE, pause_scale=0.2)
    files = write_flip_video(plan, art.faces, np.random.default_rng(3), tmp_path / "a", "flip", fake_camera=True,
                             back=art.back)
    truth = json.loads(files.truth.read_text())
    assert [card_from_json(c["card"]) for c in truth["cards"]] == cards
    assert truth["frame_count"] == files.frame_count == plan.frame_count
    assert all(c["settled"] < c["hand_left"] for c in truth["cards"])
    assert truth["notation"] == "M M M r:S+3?"
    capture = cv2.VideoCapture(str(files.avi))
    count = 0
    while capture.read()[0]:
        count += 1
    capture.release()
    assert count == plan.frame_count
    jpegs = sorted(files.frames_dir.glob("*.jpg"))
    assert len(jpegs) == plan.frame_count
    chunks = split_mjpeg(files.mjpeg.read_bytes())
    assert len(chunks) == 2 * plan.frame_count and chunks[0] == chunks[1] == jpegs[0].read_bytes()
    again = write_flip_video(plan, art.faces, np.random.default_rng(3), tmp_path / "b", "flip", back=art.back)
    assert again.avi.read_bytes() == files.avi.read_bytes()
    assert (again.frames_dir / jpegs[-1].name).read_bytes() == jpegs[-1].read_bytes()


def test_fake_camera_repeats_frames_to_play_in_real_time():
    assert [fake_camera_repeats(i, 15) for i in range(3)] == [2, 2, 2]
    assert [fake_camera_repeats(i, 20) for i in range(4)] == [1, 2, 1, 2]
