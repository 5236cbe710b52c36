"""The flip tracker on short generated videos (480x270): runs of identical
cards, cards of one kind laid almost exactly on each other, an empty
stretch, light drifting, a blurred frame, another frame rate, a hand
hovering over the pile, and the benchmark's tracker on them."""
from __future__ import annotations

import dataclasses
from functools import lru_cache

import cv2
import numpy as np
import pytest

from companion.engine import parse_pile
from tools.synth.datasets import Art
from tools.synth.flip_plan import FlipPlan, plan_flip_video
from vision.geometry import CardPose
from vision.recognize.decks import load_reference_deck
from vision.recognize.pipeline import Recogniser
from tools.synth.synth_video import render_flip_frames
from tools.bench.plugins.track import make_tracker
from vision.track.factory import tracker_for
from vision.track.tracker import FlipTracker

from .track_support import notations


SIZE = (480, 270)
RUNS = "S S S g:4S+P P A2 A2"  # a run of three identical cards, then a pair


@lru_cache(maxsize=4)
def flip_video(notation: str = RUNS, seed: int = 3) -> tuple[FlipPlan, tuple[np.ndarray, ...]]:
    """A short video (shared by the tests of a session: rendering is the slow part)."""
    art = Art.of()
    plan = plan_flip_video(parse_pile(notation), np.random.default_rng(seed), SIZE, pause_scale=0.3)
    frames = tuple(f.shot.image for f in render_flip_frames(plan, art.faces, np.random.default_rng(seed + 100),
                                                             art.back))
    return plan, frames


@lru_cache(maxsize=1)
def recogniser() -> Recogniser:
    return Recogniser(load_reference_deck(None))


def track(frames, fps: float = 15.0, tracker: FlipTracker | None = None):
    tracker = tracker or tracker_for(recogniser())
    events = []
    for index, frame in enumerate(frames):
        events += tracker.feed(frame, index / fps)
    return events + tracker.finish(), tracker


def noisy_copies(frame: np.ndarray, count: int, seed: int) -> list[np.ndarray]:
    """A scene that does not change, with fresh sensor noise in every frame."""
    rng = np.random.default_rng(seed)
    return [np.clip(frame + rng.normal(0, 2.0, frame.shape), 0, 255).astype(np.uint8) for _ in range(count)]


def test_runs_of_identical_cards_are_counted_one_by_one():
    plan, frames = flip_video()
    events, _ = track(frames)
    assert notations(events) == RUNS
    for event, flip in zip(events, plan.flips):
        assert flip.entered <= event.frame <= flip.hand_left + 7  # at most 0.5 s after the hand left
        assert event.time == pytest.approx(event.frame / 15)
        assert 0.5 < event.confidence <= 1 and event.match.runner_up not in (None, event.card)
        assert event.corners is not None and len(event.corners) == 4
    assert [e.frame for e in events] == sorted(e.frame for e in events)


def test_an_empty_stretch_reports_nothing_and_costs_almost_no_recognition():
    _, frames = flip_video()
    tracker = tracker_for(recogniser())
    lead = noisy_copies(frames[0], 30, 1)  # the empty table before the first card
    assert track(lead, tracker=tracker)[0] == [] and tracker.recognitions <= 2
    events = [e for i, frame in enumerate(frames, len(lead)) for e in tracker.feed(frame, i / 15)]
    looked = tracker.recognitions
    tail = noisy_copies(frames[-1], 60, 2)  # everyone stares at the finished pile
    events += [e for i, frame in enumerate(tail, len(lead) + len(frames)) for e in tracker.feed(frame, i / 15)]
    assert notations(events + tracker.finish()) == RUNS
    assert tracker.recognitions - looked <= 2


def test_light_drifting_and_a_blurred_frame_change_nothing():
    plan, frames = flip_video()
    gains = np.linspace(0.8, 1.15, len(frames))
    drifted = [cv2.convertScaleAbs(f, alpha=float(g)) for f, g in zip(frames, gains)]
    moving = plan.flips[3].entered + 1  # mid-flight: the card and the hand are moving
    resting = plan.flips[1].hand_left + 1
    for index in (moving, resting):
        drifted[index] = cv2.GaussianBlur(drifted[index], (0, 0), 4)
    assert notations(track(drifted)[0]) == RUNS


def test_neither_frame_rate_nor_resolution_is_assumed():
    _, frames = flip_video()
    doubled = [f for f in frames for _ in range(2)]  # the same scene filmed at 30 fps
    events, _ = track(doubled, fps=30.0)
    assert notations(events) == RUNS
    assert all(e.time == pytest.approx(e.frame / 30) for e in events)


def test_a_hand_hovering_over_the_pile_adds_no_card():
    plan, frames = flip_video()
    scene = frames[-1]
    top = plan.camera.table_to_image()
    center = tuple(int(v) for v in (top @ np.array([plan.flips[-1].pose.x, plan.flips[-1].pose.y, 1]))[:2] /
                   (top @ np.array([plan.flips[-1].pose.x, plan.flips[-1].pose.y, 1]))[2])
    hover = []
    for step in list(range(12)) + [11] * 8 + list(range(11, -1, -1)):  # in, rest on the pile, out
        frame = scene.copy()
        x = int(SIZE[0] + 40 - step * (SIZE[0] + 40 - center[0]) / 11)
        cv2.ellipse(frame, (x, center[1]), (60, 45), 0, 0, 360, (60, 90, 150), -1)
        hover.append(frame)
    video = list(frames) + noisy_copies(scene, 10, 3) + hover + noisy_copies(scene, 20, 4)
    assert notations(track(video)[0]) == RUNS


NEAR = "P S S S A2 A2 M"  # runs of identical cards, each laid within a millimetre of the one below


@lru_cache(maxsize=1)
def near_duplicates_video() -> tuple[FlipPlan, tuple[np.ndarray, ...]]:
    """Every card of a run lands 1 mm and half a degree from the one below:
    their outlines agree within the tolerance of outlines, only the faces
    show the card moved."""
    art = Art.of()
    plan = plan_flip_video(parse_pile(NEAR), np.random.default_rng(3), SIZE, pause_scale=0.3)
    flips = list(plan.flips)
    for k in range(1, len(flips)):
        if flips[k].card == flips[k - 1].card:
            below = flips[k - 1].pose
            flips[k] = dataclasses.replace(flips[k], pose=CardPose(below.x + 0.8, below.y - 0.6, below.angle + 0.5))
    plan = dataclasses.replace(plan, flips=tuple(flips))
    frames = tuple(f.shot.image for f in render_flip_frames(plan, art.faces, np.random.default_rng(103), art.back))
    return plan, frames


def test_a_card_laid_almost_exactly_on_one_of_its_kind_still_counts():
    plan, frames = near_duplicates_video()
    for below, above in zip(plan.flips, plan.flips[1:]):
        if below.card == above.card:  # the outlines alone cannot tell these apart
            assert abs(above.pose.x - below.pose.x) < 1 and abs(above.pose.angle - below.pose.angle) < 1
    events, _ = track(frames)
    assert notations(events) == NEAR
    for event, flip in zip(events, plan.flips):
        assert flip.entered <= event.frame <= flip.hand_left + 7


def test_a_hand_passing_over_cards_of_one_kind_adds_none():
    plan, frames = near_duplicates_video()
    scene = frames[-1]
    hover = []
    for step in list(range(12)) + [11] * 6 + list(range(11, -1, -1)):  # the whole pile hidden, then shown again
        frame = scene.copy()
        x = int(SIZE[0] + 60 - step * (SIZE[0] + 60 - SIZE[0] // 2) / 11)
        cv2.ellipse(frame, (x, SIZE[1] // 2), (110, 90), 0, 0, 360, (60, 90, 150), -1)
        hover.append(frame)
    video = list(frames) + noisy_copies(scene, 10, 5) + hover + noisy_copies(scene, 20, 6)
    assert notations(track(video)[0]) == NEAR


def test_the_benchmark_plugin_builds_a_tracker():
    from tools.synth.deck_files import load_deck
    from vision.recognize.decks import DEFAULT_DECK_DIR

    tracker = make_tracker(load_deck(DEFAULT_DECK_DIR))
    assert tracker.name == "vision.track"
    _, frames = flip_video()
    assert notations(track(frames, tracker=tracker)[0]) == RUNS


def test_a_pile_lost_for_a_while_is_looked_for_around_its_top_card_first():
    """A hand rests over the pile, so the looks find no card there, and
    after a few the pile counts as lost and is looked for everywhere. A pale
    card read surely on the crop around the pile may not read at all on the
    whole frame: here the whole frame never shows a card once there is one.
    The crop is looked at first, and every card after the hand is counted."""
    plan, frames = flip_video()
    pause = plan.flips[3].hand_left + 3
    assert pause < plan.flips[4].entered
    pose = plan.flips[3].pose
    at = plan.camera.table_to_image() @ np.array([pose.x, pose.y, 1.0])
    scene, center = frames[pause], (int(at[0] / at[2]), int(at[1] / at[2]))
    resting = []
    for step in list(range(12)) + [11] * 40 + list(range(11, -1, -1)):  # in, resting over the pile 2.7 s, out
        frame = scene.copy()
        x = int(SIZE[0] + 40 - step * (SIZE[0] + 40 - center[0]) / 11)
        cv2.ellipse(frame, (x, center[1]), (80, 60), 0, 0, 360, (60, 90, 150), -1)
        resting.append(frame)
    video = list(frames[:pause]) + noisy_copies(scene, 10, 7) + resting + list(frames[pause:])
    tracker = tracker_for(recogniser())
    read, whole = tracker.recognise, frames[0].shape

    def crop_only(image: np.ndarray):
        return [] if tracker.top is not None and image.shape == whole else read(image)

    tracker.recognise = crop_only
    events, _ = track(video, tracker=tracker)
    assert notations(events) == RUNS


def test_before_the_first_card_a_table_that_changed_is_searched_finer():
    """A pale card on a pale cloth may not outline in the whole frame at the
    tracker's usual scale: here that search never finds one. Once the table
    no longer looks empty, the frame is searched again at the finer scale,
    and the first card counts like the others."""
    _, frames = flip_video()
    tracker = tracker_for(recogniser())
    read, whole = tracker.recognise, frames[0].shape
    tracker.recognise = lambda image: [] if image.shape == whole else read(image)
    looks = []
    finer = tracker.finer
    assert finer is not None
    tracker.finer = lambda image: looks.append(image.shape) or finer(image)
    lead = noisy_copies(frames[0], 20, 3)  # the empty table: nothing to search finer for
    events, _ = track(lead + list(frames), tracker=tracker)
    assert notations(events) == RUNS
    # the whole frame only while the first card is missing: a few looks
    assert 1 <= looks.count(whole) <= 4


def test_the_pile_searched_in_vain_is_searched_again_finer():
    """A small card on the pile may not outline at the tracker's usual scale
    and smoothing: here that search finds the first card and then none. The
    crop around the pile, searched in vain, is searched again finer, and
    every card after the first counts."""
    _, frames = flip_video()
    tracker = tracker_for(recogniser())
    read = tracker.recognise
    tracker.recognise = lambda image: read(image) if tracker.top is None else []
    looks = []
    finer = tracker.finer
    assert finer is not None
    tracker.finer = lambda image: looks.append(image.shape) or finer(image)
    events, _ = track(frames, tracker=tracker)
    assert notations(events) == RUNS
    assert looks and all(shape[1] < frames[0].shape[1] for shape in looks)  # crops around the pile


def test_the_pile_is_not_searched_finer_while_its_top_card_is_lifted_off():
    """While the top card is in the hand over the pile, a look that finds no
    card there finds what the hand hides: a finer look would only read the
    card in the hand, put back but still held, and count it where it lies
    before the hand lets go."""
    from vision.track.stack import Laid

    plan, frames = flip_video()
    tracker = tracker_for(recogniser())
    track(frames[:plan.flips[0].hand_left + 8], tracker=tracker)
    assert tracker.top is not None
    small = tracker.motion.small(frames[plan.flips[0].hand_left + 8])
    assert tracker._card_missing(small)
    tracker.stack.lifted = Laid(tracker.top, tracker.face, tracker.face_clear)
    assert not tracker._card_missing(small)
