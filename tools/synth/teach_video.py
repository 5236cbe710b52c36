"""Rendering a :class:`~tools.synth.teach_plan.TeachPlan` and writing it as
Chromium's fake-camera ``.mjpeg`` (see :mod:`tools.synth.video_files`) with
a JSON of each face's notation and frames beside it.

The table and each still card are drawn and developed (light, cast, focus)
once; each frame then gets fresh sensor noise, so a still card looks still
the way a real camera shows it.
"""
from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Iterator, Mapping, Sequence

import numpy as np

from companion.engine import Card

from tools.synth.backgrounds import table_background
from tools.synth.camera_effects import capture, develop, light_field
from tools.synth.compose import composite_card, new_labels
from tools.synth.datasets import item_rng
from tools.synth.deck_art import render_face
from tools.synth.flip_plan import hand_scale
from tools.synth.hand import HandLook, draw_hand
from tools.synth.style import DeckStyle
from tools.synth.teach_plan import Gap, TeachPlan, plan_teach_video, truth_json
from tools.synth.video_files import fake_camera_repeats, playback_index
from vision.geometry import CardPose


def _hand_over(scene: np.ndarray, gap: Gap, frame: int, plan: TeachPlan, look: HandLook) -> np.ndarray:
    """The hand reaching in from below towards the table's middle and back."""
    w, h = plan.size
    scale = hand_scale(plan.camera)
    t = (frame - gap.first + 0.5) / (gap.last - gap.first + 1)
    reach = math.sin(math.pi * t)
    start, end = h + 2.0 * scale, 0.45 * h
    wrist = (gap.reach_x * w, start + (end - start) * reach)
    out = scene.copy()
    draw_hand(out, np.zeros((h, w), np.uint8), wrist, -90.0, scale, look, spread=0.2)
    return out


def _card_scene(table: np.ndarray, face: np.ndarray, plan: TeachPlan, pose: CardPose) -> np.ndarray:
    scene = table.copy()
    size = (face.shape[1], face.shape[0])
    composite_card(scene, new_labels(plan.size), 0, face, plan.camera.table_to_image() @ pose.face_to_table(size))
    return scene


def render_teach_frames(plan: TeachPlan, faces: Mapping[Card, np.ndarray],
                        rng: np.random.Generator) -> Iterator[bytes]:
    """Every frame of the video, in order, as JPEG bytes."""
    table = table_background(plan.table, plan.size, rng)
    field = light_field(plan.size, plan.look)
    hand = HandLook.sample(rng)
    empty = develop(table, plan.look, field)
    still: dict[int, np.ndarray] = {}
    for frame in range(plan.frame_count):
        showing = plan.showing_at(frame)
        gap = plan.gap_at(frame)
        if showing is not None:
            if showing.first not in still:
                still = {showing.first: develop(_card_scene(table, faces[showing.card], plan, showing.pose),
                                                plan.look, field)}
            developed = still[showing.first]
        elif gap is not None and gap.hand:
            developed = develop(_hand_over(table, gap, frame, plan, hand), plan.look, field)
        else:
            developed = empty
        yield capture(developed, plan.look, rng)


def write_teach_video(out: str | Path, style: DeckStyle, seed: int, cards: Sequence[Card],
                      size: tuple[int, int] = (640, 480), fps: float = 15.0) -> tuple[Path, Path]:
    """Write ``out`` (.mjpeg, played by Chromium at 30 frames a second) and
    ``out`` with ``.json`` for its truth; returns both paths."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    rng = item_rng(seed, 0)
    plan = plan_teach_video(cards, rng, size, fps)
    faces = {card: render_face(card, style) for card in cards}
    with out.open("wb") as mjpeg:
        for index, jpeg in enumerate(render_teach_frames(plan, faces, rng)):
            mjpeg.write(jpeg * fake_camera_repeats(index, fps))
    truth = out.with_suffix(".json")
    data = {"video": out.name, "style": style.name, "seed": seed,
            **truth_json(plan, lambda index: playback_index(index, fps), style.size)}
    truth.write_text(json.dumps(data, indent=1) + "\n")
    return out, truth
