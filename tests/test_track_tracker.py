"""The flip tracker on short generated videos (480x270): runs of identical
cards, cards of one kind laid almost exactly on each other, an empty
stretch, light drifting, a blurred frame, another frame rate, a hand
hovering over the pile; and its state machine with a stub recogniser:
waiting for agreement, reporting the runner-up, not trusting a card read
while a hand holds it, bounded memory, fast flips (a card read only once
before the next covers it, a card that never settled, a card of the top's
kind laid turned on one read with fingers over it), an outline the
recogniser cuts short in a crop, a card foreshortened by a slanted camera,
and fingers on or by a card when it was read (a face taken with a fingertip
on it, an outline grown around them), which add no card."""
from __future__ import annotations

import dataclasses
from functools import lru_cache

import cv2
import numpy as np
import pytest

from companion.engine import Card, parse_card, parse_pile
from tools.synth.datasets import Art
from tools.synth.flip_plan import FlipPlan, plan_flip_video
from vision.geometry import CardPose
from vision.recognize.decks import load_reference_deck
from vision.recognize.pipeline import Recogniser
from tools.synth.synth_video import render_flip_frames
from vision.track.config import TrackerConfig
from tools.bench.plugins.track import make_tracker
from vision.track.factory import detections_from, tracker_for
from vision.track.tracker import FlipTracker
from vision.recognize.types import Detection, Match

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


def notations(events) -> str:
    return " ".join(e.card.notation for e in events)


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


def test_the_tracker_aligns_every_card_its_recogniser_is_not_sure_of(monkeypatch):
    """Sightings are compared by pose, and a very sure one is reported at
    once: the tracker's recogniser aligns every card that is not sure at its
    outline, where a photo's may take it as sure from a look at the outline
    grown a little (closer to the card, but not as close as aligned). It
    also finds edges at the coarser scale a pile filmed up close needs, and
    searches each frame once."""
    import vision.track.factory as factory

    used = []
    monkeypatch.setattr(factory, "detections_from", lambda recogniser, least: used.append(recogniser) or (lambda image: []))
    photos = Recogniser(load_reference_deck())
    tracker_for(photos)
    [tracking] = used
    assert photos.config.outline_growth > 1.0 and photos.config.detect_width > 512
    assert photos.config.fallback_width and photos.config.finer_width
    assert tracking.deck is photos.deck and tracking.config == dataclasses.replace(
        photos.config, outline_growth=1.0, detect_width=512, edge_blur=5, fallback_width=0, finer_width=0)


def test_a_weak_match_a_photo_would_report_is_no_sighting_for_the_tracker():
    """A pale card under glare is reported in a photo from a similarity of
    0.55 when no other card comes near; a video frame's match that weak is
    mostly a hand's blur, and the tracker waits for a clearer frame."""
    from vision.recognize.types import Detection, Match

    card, other = parse_card("A"), parse_card("S")

    class Weak:
        def recognise(self, image):
            return [Detection(Match(card, confidence, False, other, 0.1), np.zeros((4, 2), np.float32))
                    for confidence in (0.62, 0.8)]

    assert [s.confidence for s in detections_from(Weak(), TrackerConfig().min_sighting_confidence)(None)] == [0.8]
    assert len(detections_from(Weak())(None)) == 2


# -- the state machine alone, with a stub recogniser -----------------------------------------

CORNERS = np.array([[40, 20], [80, 20], [80, 82], [40, 82]], np.float32)


def sighting(notation: str, confidence: float, runner_up: str = "O", runner_up_confidence: float = 0.6) -> Detection:
    return Detection(Match(parse_card(notation), confidence, False, parse_card(runner_up), runner_up_confidence), CORNERS)


class Stub:
    """Answers with the next of ``answers`` (the last one forever), counting calls."""

    def __init__(self, *answers: list[Detection]) -> None:
        self.answers, self.calls = list(answers), 0

    def __call__(self, image: np.ndarray) -> list[Detection]:
        self.calls += 1
        return self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]


def still_frames(count: int) -> list[np.ndarray]:
    """An empty table, then a card that lies still."""
    empty = np.full((108, 192, 3), 90, np.uint8)
    card = cv2.rectangle(empty.copy(), (40, 20), (80, 82), (230, 230, 230), -1)
    return [empty] + [card] * (count - 1)


def test_an_unsure_card_waits_for_frames_to_agree():
    stub = Stub([sighting("P", 0.72, "S", 0.70)], [sighting("S", 0.80)], [sighting("S", 0.81)])
    tracker = FlipTracker(stub)
    assert tracker.status() == "waiting" and tracker.top_card is None
    reported, statuses = [], []
    for i, frame in enumerate(still_frames(8)):
        reported += [(i, e) for e in tracker.feed(frame)]
        statuses.append(tracker.status())
    assert "reading" in statuses  # between the unsure guess and the agreement
    assert statuses[-1] in ("settled", "moving") and tracker.top_card == parse_card("S")
    assert len(reported) == 1
    index, event = reported[0]
    assert event.card == parse_card("S") and event.frame == index
    assert stub.calls >= 3  # the guess P was not reported; it took a second look at S to settle it
    assert event.match.runner_up == parse_card("O") and event.match.runner_up_confidence == pytest.approx(0.6)
    assert event.confidence < 0.81  # the disagreement costs confidence


def test_a_card_that_stays_disputed_is_reported_with_its_runner_up_in_time():
    stub = Stub(*[[sighting("P", 0.74, "S", 0.73)], [sighting("S", 0.73, "P", 0.72)]] * 40)
    tracker = FlipTracker(stub, TrackerConfig(max_wait=1.0))
    events = [e for i, frame in enumerate(still_frames(40)) for e in tracker.feed(frame, i / 10)]
    assert len(events) == 1
    assert 1.0 <= events[0].time <= 1.3
    assert {events[0].card, events[0].match.runner_up} == {parse_card("P"), parse_card("S")}
    assert events[0].confidence < 0.5


def test_a_very_sure_card_needs_one_look():
    stub = Stub([sighting("g:4S+P", 0.97, "g:4M+P", 0.70)])
    tracker = FlipTracker(stub)
    events = [e for frame in still_frames(5) for e in tracker.feed(frame)]
    # frame 1 shows the card arriving (moving); frame 2, the first at rest, settles it
    assert [(e.card, e.frame) for e in events] == [(parse_card("g:4S+P"), 2)]


def test_a_card_read_while_a_hand_holds_it_still_is_read_again_once_the_hand_is_gone():
    """Nothing moves while the hand rests on the card, but the hand shows
    around it: the unsure reading under the hand is not reported."""
    empty = np.full((108, 192, 3), 90, np.uint8)
    card = cv2.rectangle(empty.copy(), (40, 20), (80, 82), (230, 230, 230), -1)
    held = cv2.rectangle(card.copy(), (45, 62), (75, 107), (60, 90, 150), -1)  # fingers on the card, arm to the edge

    def recognise(image: np.ndarray) -> list[Detection]:
        under_hand = image[100, 60, 0] < 80
        return [sighting("M", 0.75, "S", 0.70) if under_hand else sighting("S", 0.80, "M", 0.75)]

    tracker = FlipTracker(recognise)
    frames = [empty] + [held] * 10 + [card] * 15  # the hand rests for 0.6 s, then is gone
    events = [e for i, frame in enumerate(frames) for e in tracker.feed(frame, i / 15)] + tracker.finish()
    assert [e.card for e in events] == [parse_card("S")]
    assert events[0].frame >= 11  # read once the hand had gone


def test_memory_stays_bounded_over_a_long_stream():
    rng = np.random.default_rng(0)
    cards: list[Card] = [parse_card(n) for n in ("S", "P", "A", "M")]
    answers = [[Detection(Match(cards[i % 4], 0.8, False, cards[(i + 1) % 4], 0.79), CORNERS + rng.normal(0, 3, (4, 2)).astype(np.float32))]
               for i in range(50)]
    config = TrackerConfig(max_wait=1000.0)  # a dispute that never ends keeps only its latest sightings
    tracker = FlipTracker(Stub(*answers * 60), config)
    frames = still_frames(1) + [np.clip(still_frames(1)[0] + rng.normal(0, 30, (108, 192, 3)), 0, 255).astype(np.uint8)]
    for i in range(3000):
        tracker.feed(frames[i % 7 == 0], i / 15)
    assert len(tracker.motion.recent) <= 8 and len(tracker.motion.motions) <= 6 and len(tracker.size.sizes) <= 15
    assert tracker.dispute is None or len(tracker.dispute.sightings) <= config.max_sightings


# -- fast flips and outlines cut short, with a stub that answers for the scene on show -----------

TABLE = np.full((108, 192, 3), 90, np.uint8)
FIRST = CORNERS  # where the first card lies
SECOND = CORNERS - np.float32([4, 4])  # the next one, a tenth of a card off


def laid(*cards: np.ndarray, hand: bool = False) -> np.ndarray:
    """The table with cards (corners) laid in order, and perhaps a hand over the first."""
    frame = TABLE.copy()
    for corners in cards:
        middle = corners.mean(axis=0)
        cv2.fillConvexPoly(frame, np.round(corners).astype(np.int32), (230, 230, 230))
        # a face, for motion to show and to register on
        frame_inside = middle + (corners - middle) * 0.75
        cv2.polylines(frame, [np.round(frame_inside).astype(np.int32)], True, (40, 40, 40), 2)
        cv2.circle(frame, (int(middle[0]), int(middle[1])), 9, (40, 40, 40), -1)
    if hand:
        cv2.ellipse(frame, (60, 60), (45, 50), 0, 0, 360, (60, 90, 150), -1)
    return frame


def turned(corners: np.ndarray, degrees: float, shift: tuple[float, float] = (0, 0)) -> np.ndarray:
    """``corners`` turned about their middle, then shifted."""
    angle = np.deg2rad(degrees)
    rotation = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]], np.float32)
    middle = corners.mean(axis=0)
    return ((corners - middle) @ rotation.T + middle + np.float32(shift)).astype(np.float32)


class Scripted:
    """Answers with what the test says the current frame shows (corners in
    frame pixels, moved to the crop's when the tracker looks at a crop)."""

    def __init__(self, odd_in_crops: bool = False) -> None:
        self.shows: list[Detection] = []
        self.frame = TABLE
        self.odd_in_crops = odd_in_crops

    def __call__(self, image: np.ndarray) -> list[Detection]:
        _, _, (x, y), _ = cv2.minMaxLoc(cv2.matchTemplate(self.frame, image, cv2.TM_SQDIFF))
        shows = [s.shifted(-x, -y) for s in self.shows]
        if not (self.odd_in_crops and image.shape != self.frame.shape):
            return shows
        # in a crop the recogniser finds the outline cut short: too narrow for the card's shape
        return [dataclasses.replace(s, corners=s.corners + np.float32([[0, 0], [-8, 0], [-8, 0], [0, 0]]))
                for s in shows]


def run_script(stub: Scripted, script: list[tuple[np.ndarray, list[Detection]]]) -> list:
    tracker = FlipTracker(stub)
    events = []
    for index, (frame, shows) in enumerate(script):
        stub.shows, stub.frame = shows, frame
        events += tracker.feed(frame, index / 15)
    return events + tracker.finish()


def test_a_card_read_once_before_the_next_covers_it_still_counts():
    """A fast flip: the card lies free for a single look, then the next hand
    brings another of its kind over it. One clean look is enough once the
    card was seen covered and the next lies elsewhere."""
    first, second = dataclasses.replace(sighting("S", 0.8), corners=FIRST), \
        dataclasses.replace(sighting("S", 0.8), corners=SECOND)
    script = [(TABLE, [])] + [(laid(FIRST), [first])] * 2 + [(laid(FIRST, hand=True), [])] * 2 + \
        [(laid(FIRST, SECOND), [second])] * 10
    events = run_script(Scripted(), script)
    assert notations(events) == "S S"
    assert events[0].frame < 8  # the first, as soon as the second was seen lying elsewhere


def test_a_card_whose_outline_is_cut_short_in_the_crop_is_read_on_the_whole_frame():
    """The search around the pile finds the new card's outline too narrow (so
    not card-shaped) while the whole frame shows it right: the card is read
    there at once, before the next card covers it."""
    first, second = dataclasses.replace(sighting("S", 0.97, "P", 0.6), corners=FIRST), \
        dataclasses.replace(sighting("M", 0.97, "P", 0.6), corners=SECOND)
    third = dataclasses.replace(sighting("A", 0.97, "P", 0.6), corners=FIRST)
    script = [(TABLE, [])] + [(laid(FIRST), [first])] * 6 + [(laid(FIRST, hand=True), [])] * 2 + \
        [(laid(FIRST, SECOND), [second])] * 4 + [(laid(FIRST, hand=True), [])] * 2 + \
        [(laid(SECOND, FIRST), [third])] * 6
    events = run_script(Scripted(odd_in_crops=True), script)
    assert notations(events) == "S M A"


def test_a_card_of_the_kind_on_top_counts_when_the_top_never_settled():
    """The hand leaves a card and the next hand comes at once: the card is
    read with nothing on or around it, but things still moved nearby, so it
    never settles. The next card of its kind, carried over it, still counts."""
    below = CORNERS + np.float32([10, 8])
    under, first, second = (dataclasses.replace(sighting(n, 0.97, "P", 0.6), corners=c)
                            for n, c in (("A", below), ("S", FIRST), ("S", SECOND)))
    leaving = cv2.rectangle(laid(below, FIRST), (24, 40), (36, 60), (60, 90, 150), -1)  # fingers just off it
    script = [(TABLE, [])] + [(laid(below), [under])] * 6 + [(leaving, []), (laid(below, FIRST), [first]),
                                                              (laid(below, FIRST, hand=True), [])] + \
        [(laid(below, FIRST, SECOND), [second])] * 8
    events = run_script(Scripted(), script)
    assert notations(events) == "A S S"


def test_a_card_of_the_kind_on_top_counts_when_the_top_was_read_with_fingers_by_it():
    """As above, but fingers still lay beside the card when it was read, so
    its outline is not to be trusted: its face, registered, shows that the
    next card of its kind lies elsewhere."""
    below, near = CORNERS + np.float32([10, 8]), FIRST - np.float32([2, 1])
    under, first, second = (dataclasses.replace(sighting(n, 0.97, "P", 0.6), corners=c)
                            for n, c in (("A", below), ("S", FIRST), ("S", near)))
    fingers = cv2.rectangle(laid(below, FIRST), (16, 24), (36, 78), (60, 90, 150), -1)
    script = [(TABLE, [])] + [(laid(below), [under])] * 6 + [(fingers, []), (fingers, [first]),
                                                              (laid(below, FIRST, hand=True), [])] + \
        [(laid(below, FIRST, near), [second])] * 8
    events = run_script(Scripted(), script)
    assert notations(events) == "A S S"


def fingers_over(frame: np.ndarray) -> np.ndarray:
    """Fingers from the left, over a third of a card lying at ``FIRST``."""
    return cv2.rectangle(frame.copy(), (16, 24), (58, 78), (60, 90, 150), -1)


@pytest.mark.parametrize("degrees, counted", [(6.0, "A S S"), (0.0, "A S")])
def test_a_card_of_the_kind_on_top_laid_turned_counts_when_fingers_hid_the_top(degrees, counted):
    """The top card was only read with fingers over part of its face, so its
    face registers on a later view poorly. A card of its kind laid turned
    over it counts all the same, for the outlines confirm the move; a hand
    passing over the same card, whose outline stays put, adds none."""
    below = CORNERS + np.float32([10, 8])
    after = turned(FIRST, degrees, (1, -1)) if degrees else FIRST
    under, first, second = (dataclasses.replace(sighting(n, 0.97, "P", 0.6), corners=c)
                            for n, c in (("A", below), ("S", FIRST), ("S", after)))
    held = fingers_over(laid(below, FIRST))
    shown = laid(below, FIRST, after) if degrees else laid(below, FIRST)
    script = [(TABLE, [])] + [(laid(below), [under])] * 6 + [(held, []), (held, [first]),
                                                              (laid(below, FIRST, hand=True), [])] + \
        [(shown, [second])] * 8
    events = run_script(Scripted(), script)
    assert notations(events) == counted


def test_a_card_turned_under_a_slanted_camera_is_card_sized():
    """A camera looking at the pile at a slant shortens a card's long side
    more when it lies one way than when turned: its outline is then wider
    and shorter than the cards before, yet as large. Read once before the
    next card covers it, it still counts."""
    slanted = CORNERS.mean(axis=0) + (CORNERS - CORNERS.mean(axis=0)) * np.float32([43 / 40, 58 / 62])
    cards = [dataclasses.replace(sighting(n, 0.97, "P", 0.6), corners=c)
             for n, c in (("S", FIRST), ("M", slanted), ("A", FIRST))]
    script = [(TABLE, [])] + [(laid(FIRST), [cards[0]])] * 6 + [(laid(FIRST, hand=True), [])] * 2 + \
        [(laid(FIRST, slanted), [cards[1]])] * 3 + [(laid(FIRST, hand=True), [])] * 2 + \
        [(laid(slanted, FIRST), [cards[2]])] * 6
    events = run_script(Scripted(), script)
    assert notations(events) == "S M A"


def test_fingertips_on_a_face_taken_with_no_view_around_it_add_no_card():
    """The card below was just laid (never settled), so nothing tells whether
    fingers touched the next card when it was read; they did, on its face.
    Registered on that view once a hand has passed, the face seems to have
    moved by most of a pixel: too little to count, so no second card."""
    below = CORNERS + np.float32([10, 8])
    under, top = (dataclasses.replace(sighting(n, 0.97, "P", 0.6), corners=c) for n, c in (("A", below), ("S", FIRST)))
    held = cv2.rectangle(laid(below, FIRST), (16, 50), (50, 80), (20, 30, 50), -1)  # dark fingertips on its left
    script = [(TABLE, [])] + [(laid(below), [under])] * 2 + [(held, []), (held, [top]),
                                                              (laid(below, FIRST, hand=True), [])] + \
        [(laid(below, FIRST), [top])] * 8
    events = run_script(Scripted(), script)
    assert notations(events) == "A S"


def test_a_card_read_with_fingers_merged_into_its_outline_is_not_counted_again():
    """Fingers still fidgeting at its edge, the card was read with an outline
    grown around them, not yet agreed on; once a hand has passed and the
    fingers are gone, it reads with its own, smaller outline inside the
    first: the same card, not one laid on it."""
    below = CORNERS + np.float32([10, 8])
    middle = FIRST.mean(axis=0)
    grown = (middle + (FIRST - middle) * np.float32([1.15, 1.1])).astype(np.float32)
    under, held_top, top = (dataclasses.replace(sighting(n, 0.8, "P", 0.6), corners=c)
                            for n, c in (("A", below), ("S", grown), ("S", FIRST)))
    # the hand draws back to fingertips along the card's left edge, never quite still
    fidgeting = [cv2.rectangle(laid(below, FIRST), (left, 40 + dy), (40, 70 + dy), (20, 30, 50), -1)
                 for left, dy in ((16, 0), (16, 4), (35, 0), (35, 4))]
    script = [(TABLE, [])] + [(laid(below), [under])] * 6 + [(frame, [held_top]) for frame in fidgeting] + \
        [(laid(below, FIRST, hand=True), [])] + [(laid(below, FIRST), [top])] * 8
    events = run_script(Scripted(), script)
    assert notations(events) == "A S"
