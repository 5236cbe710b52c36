"""The teaching video: every face shown once, still for about 1.2 s, a gap
between faces, as a fake-camera .mjpeg whose JSON says where each face is in
the frames Chromium plays."""
from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from companion.engine import card_from_json, parse_card
from tools.synth.deck_art import render_face
from tools.synth.style import HARD_STYLE
from tools.synth.teach_plan import HOLD_SECONDS, plan_teach_video
from tools.synth.teach_video import write_teach_video
from tools.synth.video_files import split_mjpeg
from vision.cvcompat import decode_image
from vision.recognize.rectify import rectify
from vision.recognize.types import Quad

CARDS = [parse_card(t) for t in ("S", "r:S+4A", "r:S+4M", "!")]
SIZE = (320, 240)


def likeness(frame: np.ndarray, corners: np.ndarray, face: np.ndarray) -> float:
    """Correlation of the grey levels cut out at ``corners`` with the face as drawn
    (light and cast change the levels, not the picture)."""
    cut = rectify(frame, Quad(np.float32(corners)), (100, 156)).astype(np.float32)
    drawn = cv2.resize(face, (100, 156), interpolation=cv2.INTER_AREA).astype(np.float32)
    a, b = (x[8:-8, 8:-8].mean(axis=2).ravel() for x in (cut, drawn))
    return float(np.corrcoef(a, b)[0, 1])


@pytest.fixture(scope="module")
def video(tmp_path_factory):
    out = tmp_path_factory.mktemp("teach") / "teach.mjpeg"
    mjpeg, truth = write_teach_video(out, HARD_STYLE, 4, CARDS, SIZE)
    return split_mjpeg(mjpeg.read_bytes()), json.loads(truth.read_text()), mjpeg


def test_every_face_is_shown_once_still_for_its_hold(video):
    frames, truth, _ = video
    assert sorted(c["notation"] for c in truth["cards"]) == sorted(c.notation for c in CARDS)
    assert [card_from_json(c["card"]).notation for c in truth["cards"]] == truth["notation"].split()
    assert len(frames) == truth["gaps"][-1]["playback_frames"][1] + 1 == 2 * truth["frame_count"]
    spans = sorted([c["frames"] for c in truth["cards"]] + [g["frames"] for g in truth["gaps"]])
    assert spans[0][0] == 0 and all(a[1] + 1 == b[0] for a, b in zip(spans, spans[1:]))
    for card in truth["cards"]:
        first, last = card["frames"]
        assert (last - first + 1) / truth["fps"] == pytest.approx(HOLD_SECONDS, abs=0.07)
        assert card["playback_frames"] == [2 * first, 2 * last + 1]  # 15 fps played at 30
    for gap in truth["gaps"]:
        assert 0.3 <= (gap["frames"][1] - gap["frames"][0] + 1) / truth["fps"] <= 0.85


def test_the_frames_show_the_face_where_the_truth_says(video):
    frames, truth, _ = video
    for card in truth["cards"]:
        first, last = card["playback_frames"]
        still = [decode_image(frames[k]).astype(np.float32) for k in (first, (first + last) // 2, last)]
        assert max(np.abs(still[0] - s).mean() for s in still[1:]) < 3  # sensor noise only
        corners = np.float32(card["corners"])
        drawn = render_face(card_from_json(card["card"]), HARD_STYLE)
        there = likeness(still[1], corners, drawn)
        beside = likeness(still[1], corners + [0.03 * (corners[1][0] - corners[0][0]), 0], drawn)
        assert there > 0.7 and there > beside + 0.15, (card["notation"], there, beside)
    empty = truth["gaps"][-1]["playback_frames"][0]
    shown = truth["cards"][-1]["playback_frames"][1]
    assert np.abs(decode_image(frames[empty]).astype(float) - decode_image(frames[shown])).mean() > 5


def test_a_hand_passes_in_some_gaps_and_the_plan_is_seeded():
    rng = np.random.default_rng(3)
    plan = plan_teach_video([parse_card("S")] * 12, rng)
    assert {g.hand for g in plan.gaps[:-1]} == {True, False} and not plan.gaps[-1].hand
    assert 5 <= plan.camera.tilt <= 15
    again = plan_teach_video([parse_card("S")] * 12, np.random.default_rng(3))
    assert again == plan


def test_same_seed_same_bytes(video, tmp_path):
    _, _, mjpeg = video
    copy, _ = write_teach_video(tmp_path / "again.mjpeg", HARD_STYLE, 4, CARDS, SIZE)
    assert copy.read_bytes() == mjpeg.read_bytes()
