"""Rendering a :class:`~tools.synth.gestures.GesturePlan` frame by frame.

The pile is recomputed for every frame (cards landed, nudged, lifted) and
drawn anew only when it changed; a card added on top is drawn over the
cached picture, as :mod:`tools.synth.synth_video` does.
"""
from __future__ import annotations

import math
from typing import Iterator, Mapping

import numpy as np

from companion.engine import Card

from tools.synth.backgrounds import table_background
from tools.synth.camera_effects import SensorNoise, light_field, shoot
from tools.synth.compose import HAND, composite_card, new_labels
from tools.synth.deck_art import render_back
from tools.synth.gestures import Gesture, GesturePlan
from tools.synth.hand import HandLook
from tools.synth.style import DEFAULT_STYLE
from tools.synth.synth_video import VideoFrame, _card_pose, _hand_anchor, _size, draw_hand_at
from vision.geometry import CardPose

Laid = tuple[Card, CardPose]


def _nudged(pile: list[Laid], gesture: Gesture, frame: int) -> list[Laid]:
    """``pile`` as far as ``gesture`` has pushed it by ``frame``."""
    start, end = gesture.moved
    t = min(1.0, (frame - start) / max(1, end - start))
    dx, dy, turn = (v * t for v in gesture.shift)
    cx, cy = np.mean([[p.x, p.y] for _, p in pile], axis=0)
    a = math.radians(turn)
    moved = []
    for card, p in pile:
        x, y = p.x - cx, p.y - cy
        moved.append((card, CardPose(cx + x * math.cos(a) - y * math.sin(a) + dx,
                                     cy + x * math.sin(a) + y * math.cos(a) + dy, p.angle + turn, p.lift)))
    return moved


def scene_at(plan: GesturePlan, frame: int) -> tuple[list[Laid], Laid | None, tuple[CardPose, float] | None]:
    """The pile at ``frame``, the card a gesture carries (if any) and the
    gesture's hand (grip point and grip side), if a gesture is under way."""
    events = sorted([(f.settled, 0, f) for f in plan.flips.flips] + [(g.entered, 1, g) for g in plan.gestures],
                    key=lambda e: (e[0], e[1]))
    pile: list[Laid] = []
    carried, hand = None, None
    for time, _, event in events:
        if time > frame:
            break
        if not isinstance(event, Gesture):
            pile.append((event.card, event.pose))
            continue
        top = pile[-1][1]
        if event.kind == "nudge" and frame >= event.moved[0]:
            pile = _nudged(pile, event, frame)
        if event.lifted is not None and frame >= event.lifted[0]:
            card = pile.pop()[0]
            if frame < event.lifted[1]:
                carried = (card, event.hand(frame, top))
            else:
                pile.append((card, event.hand(event.lifted[1], top)))
        if event.entered <= frame < event.left:
            hand = (event.hand(frame, top), event.grip)
    return pile, carried, hand


def render_gesture_frames(plan: GesturePlan, faces: Mapping[Card, np.ndarray], rng: np.random.Generator,
                          back: np.ndarray | None = None) -> Iterator[VideoFrame]:
    """Yield every frame of the video in order."""
    flips = plan.flips
    to_image = flips.camera.table_to_image()
    table = table_background(flips.table, flips.size, rng)
    table_labels = new_labels(flips.size)
    back_image = back if back is not None else render_back(DEFAULT_STYLE)
    for k in range(3):
        stock = CardPose(flips.stock.x + k * 0.6, flips.stock.y - k * 0.8, flips.stock.angle + k * 1.5)
        composite_card(table, table_labels, -3, back_image, to_image @ stock.face_to_table(_size(back_image)))
    field = light_field(flips.size, flips.look)
    hand_look = HandLook.sample(rng)
    noise = SensorNoise(flips.size, rng)
    drawn: list[Laid] = []
    # a copy: a pile pushed or lifted is drawn anew on the bare table
    canvas, labels = table.copy(), table_labels.copy()
    for frame in range(flips.frame_count):
        pile, carried, hand = scene_at(plan, frame)
        if pile != drawn:
            if pile[:len(drawn)] != drawn:  # something under the top changed: draw the pile anew
                canvas, labels, drawn = table.copy(), table_labels.copy(), []
            for card, pose in pile[len(drawn):]:
                composite_card(canvas, labels, 0, faces[card], to_image @ pose.face_to_table(_size(faces[card])))
            drawn = list(pile)
        scene, frame_labels = canvas.copy(), labels.copy()
        if carried is not None:
            face = faces[carried[0]]
            composite_card(scene, frame_labels, 1, face, to_image @ carried[1].face_to_table(_size(face)), shadow=0.5)
        active = next((f for f in flips.flips if f.entered <= frame < f.hand_left), None)
        if active is not None:
            pose = _card_pose(active, frame)
            if pose is not None:
                face = faces[active.card]
                composite_card(scene, frame_labels, 1, face, to_image @ pose.face_to_table(_size(face)), shadow=0.5)
            hand = (_hand_anchor(active, frame), active.grip)
        if hand is not None:
            draw_hand_at(scene, frame_labels, flips.camera, hand[0], hand_look, hand[1])
        yield VideoFrame(frame, shoot(scene, flips.look, rng, field, noise), bool(np.any(frame_labels == HAND)))
