"""The tracker's state machine with a stub recogniser: waiting for
agreement, reporting the runner-up, one look for a very sure card, not
trusting a card read while a hand holds it, bounded memory."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.engine import Card, parse_card
from vision.track.config import TrackerConfig
from vision.track.tracker import FlipTracker
from vision.recognize.types import Detection, Match

from .track_support import CORNERS, sighting


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


def _unsure(notation: str, confidence: float, *candidates: str) -> Detection:
    """A reading that could not rule out ``candidates`` (its runner-up the first)."""
    others = tuple(parse_card(c) for c in candidates)
    return Detection(Match(parse_card(notation), confidence, False, others[0], confidence, others), CORNERS)


def test_readings_that_leave_a_card_possible_yield_to_one_that_named_it():
    """An order of a printing whose colours differ in a thin frame is read
    once with nothing else possible, then twice, its outline a little off,
    as another colour's order with it among the candidates: the two unsure
    readings agree, and the card they report is the one named."""
    named = Detection(Match(parse_card("y:4S+A"), 0.87, False, parse_card("r:4S+A"), 0.18), CORNERS)
    stub = Stub([named], [named], [_unsure("r:S+4A", 0.79, "r:S+4M", "y:4S+A")])  # the first look sees it arrive
    tracker = FlipTracker(stub)
    events = [e for i, frame in enumerate(still_frames(12)) for e in tracker.feed(frame, i / 15)]
    assert [e.card for e in events] == [parse_card("y:4S+A")] and stub.calls >= 4
    assert events[0].confidence < 0.5  # the readings disagreed: the app asks


def test_unsure_readings_of_cards_no_reading_named_are_reported_as_read():
    named = Detection(Match(parse_card("y:4S+A"), 0.87, False, parse_card("r:4S+A"), 0.18), CORNERS)
    stub = Stub([named], [named], [_unsure("r:S+4A", 0.79, "r:S+4M", "g:4S+P")])
    tracker = FlipTracker(stub)
    events = [e for i, frame in enumerate(still_frames(12)) for e in tracker.feed(frame, i / 15)]
    assert [e.card for e in events] == [parse_card("r:S+4A")]
