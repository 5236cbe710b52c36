"""The tracker on scripted scenes, with a stub that answers for the scene on
show: fast flips (a card read only once before the next covers it, a card
that never settled, a card of the top's kind laid turned on one read with
fingers over it, one held beside the pile while the top card lies in
place), an outline the recogniser cuts short in a crop, a card
foreshortened by a slanted camera, and fingers on or by a card when it was
read (a face taken with a fingertip on it, an outline grown around them),
which add no card."""
from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from vision.track.tracker import FlipTracker
from vision.recognize.types import Detection

from .track_support import CORNERS, notations, sighting


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


# where the next card lies: degrees turned, and pixels moved on a card 40 pixels wide (2 pixels off,
# and 8 to 11 mm)
READ_WITH_FINGERS_BY_IT = [(0.0, (-2.0, -1.0)), (0.0, (6.0, -3.0)), (2.0, (8.0, -4.0)), (6.0, (6.0, -3.0))]


@pytest.mark.parametrize("degrees, shift", READ_WITH_FINGERS_BY_IT)
def test_a_card_of_the_kind_on_top_counts_when_the_top_was_read_with_fingers_by_it(degrees, shift):
    """As above, but fingers still lay beside the card when it was read, so
    its outline is not to be trusted: its face, registered, shows that the
    next card of its kind lies elsewhere. Laid 8 to 11 mm off, perhaps a
    little turned, the face is beyond what registration follows from where
    the top card's lay; registered from where the new outline lies, it is
    there, moved: a card laid."""
    below = CORNERS + np.float32([10, 8])
    after = turned(FIRST, degrees, shift)
    under, first, second = (dataclasses.replace(sighting(n, 0.97, "P", 0.6), corners=c)
                            for n, c in (("A", below), ("S", FIRST), ("S", after)))
    fingers = cv2.rectangle(laid(below, FIRST), (16, 24), (36, 78), (60, 90, 150), -1)
    script = [(TABLE, [])] + [(laid(below), [under])] * 6 + [(fingers, []), (fingers, [first]),
                                                              (laid(below, FIRST, hand=True), [])] + \
        [(laid(below, FIRST, after), [second])] * 8
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


def test_an_unsure_card_read_again_as_one_of_its_candidates_is_no_second_card():
    """A card arriving blurred reads as its twin of another colour (unsure,
    the card itself among its candidates) and is reported so, for the app to
    ask; once it rests it reads as itself. With nothing carried over it, that
    is the same card read again, not a second one. The same reading after a
    hand carried a card over the pile is a new card."""
    blurred = sighting("b:15+", 0.80, "r:15+", 0.80)
    blurred = dataclasses.replace(blurred, match=dataclasses.replace(blurred.match, candidates=(blurred.match.runner_up,)),
                                  corners=FIRST)
    rested = dataclasses.replace(sighting("r:15+", 0.97, "P", 0.4), corners=FIRST)
    glint = laid(FIRST)
    middle = FIRST.mean(axis=0).astype(int)
    cv2.circle(glint, (int(middle[0]) + 6, int(middle[1]) - 10), 5, (255, 255, 255), -1)  # gone once it rests
    script = [(TABLE, [])] + [(glint, [blurred])] * 12 + [(laid(FIRST), [rested])] * 8
    assert notations(run_script(Scripted(), script)) == "b:15+"
    covered = [(TABLE, [])] + [(glint, [blurred])] * 12 + [(laid(FIRST, hand=True), [])] * 3 + \
        [(laid(FIRST, SECOND), [dataclasses.replace(rested, corners=SECOND)])] * 8
    assert notations(run_script(Scripted(), covered)) == "b:15+ r:15+"


def carried_over(at: np.ndarray) -> np.ndarray:
    """The first card, and a card (its back to the camera) held at ``at`` by a
    hand coming from the bottom edge."""
    frame = laid(FIRST)
    cv2.fillConvexPoly(frame, np.round(at).astype(np.int32), (225, 225, 225))
    cv2.rectangle(frame, (int(at[:, 0].min()) + 5, int(at[:, 1].max()) - 12), (int(at[:, 0].max()) - 5, 108),
                  (60, 90, 150), -1)
    return frame


@pytest.mark.parametrize("laid_twin, counted", [(True, "A A"), (False, "A")])
def test_a_twin_laid_after_its_card_was_held_by_the_settled_top_counts(laid_twin, counted):
    """The hand bringing the next card carries it over the settled top card
    and holds it a moment by the pile, where looks find the top card where it
    lay, the hand beside it: the same card, untouched, so still settled. The
    twin then laid on it 7 mm off counts; taken away instead, it adds none."""
    top = dataclasses.replace(sighting("A", 0.97, "P", 0.6), corners=FIRST)
    twin = dataclasses.replace(top, corners=FIRST + np.float32([3, 4]))
    script = [(TABLE, [])] + [(laid(FIRST), [top])] * 10 + [(carried_over(FIRST + np.float32([0, 12])), [])] + \
        [(carried_over(FIRST + np.float32([0, 70])), [top])] * 3
    if laid_twin:
        script += [(laid(FIRST, hand=True), [])] * 3 + [(laid(FIRST, twin.corners), [twin])] * 30
    else:
        script += [(laid(FIRST), [top])] * 30
    assert notations(run_script(Scripted(), script)) == counted


@pytest.mark.parametrize("after, counted", [((0.0, (1.0, 1.0)), "A S S"), ((0.5, (1.0, 0.0)), "A S S"),
                                             ((0.0, (0.0, 0.0)), "A S")])
def test_a_twin_laid_neatly_on_a_card_still_being_read_counts(after, counted):
    """The hand that laid a card goes at once and the next brings another of
    its kind: one look at the first card, then the fingers laying the twin
    touch its edge, and the twin lies a pixel off it (a fortieth of a card),
    too close for outlines to tell. Its face, taken clear at that one look
    and registered on the twin face on face, moved: two cards. Fingers
    touching the card and leaving it where it lay add none."""
    below = CORNERS + np.float32([10, 8])
    neat = turned(FIRST, after[0], after[1])
    under, first, second = (dataclasses.replace(sighting(n, 0.8, "P", 0.6), corners=c)
                            for n, c in (("A", below), ("S", FIRST), ("S", neat)))
    touching = cv2.rectangle(laid(below, FIRST), (36, 70), (50, 90), (60, 90, 150), -1)
    script = [(TABLE, [])] + [(laid(below), [under])] * 6 + [(laid(below, FIRST), [first])] * 2 + \
        [(touching, [])] * 2 + [(laid(below, FIRST, neat), [second])] * 10
    assert notations(run_script(Scripted(), script)) == counted


def test_the_next_of_a_run_held_beside_a_card_still_being_read_is_no_lift():
    """A twin is laid turned half round on the settled top card; fingers
    stay by it, so it is read as a new card in look after look but not yet
    reported, when the next hand holds a third card of the kind beside the
    pile. That is the next of the run, not the top card lifted off (which
    would make the card laid next the lifted one put back): all three count."""
    top = dataclasses.replace(sighting("S", 0.8, "P", 0.6), corners=FIRST)
    after = turned(FIRST, 180.0, (3.0, 3.0))
    aside = FIRST + np.float32([80, 0])
    second, held, third = (dataclasses.replace(top, corners=c) for c in (after, aside, FIRST + np.float32([0.5, 0.5])))

    def fingers(frame: np.ndarray) -> np.ndarray:
        return cv2.rectangle(frame, (18, 30), (42, 100), (60, 90, 150), -1)

    beside = fingers(laid(FIRST, after))
    cv2.fillConvexPoly(beside, np.round(aside).astype(np.int32), (225, 225, 225))
    cv2.rectangle(beside, (int(aside[:, 0].min()) + 5, int(aside[:, 1].max()) - 4), (int(aside[:, 0].max()) - 5, 108),
                  (60, 90, 150), -1)
    script = [(TABLE, [])] + [(laid(FIRST), [top])] * 10 + [(laid(FIRST, hand=True), [])] * 2 + \
        [(fingers(laid(FIRST, after)), [second])] * 4 + [(beside, [second, held])] + [(laid(FIRST, after), [])] + \
        [(laid(FIRST, hand=True), [])] * 2 + [(laid(FIRST, after, third.corners), [third])] * 20
    assert notations(run_script(Scripted(), script)) == "S S S"


@pytest.mark.parametrize("degrees, counted", [(1.0, "A S S"), (1.5, "A S S"), (0.0, "A S")])
def test_a_twin_laid_fast_on_a_top_card_that_never_settled_counts(degrees, counted):
    """The hand leaves a card and the next comes at once, so the card is
    reported with nothing on or around it but never settles. The fingers
    laying a twin a degree off it touch part of its middle, and the twin
    hides nothing that looks different: that touch, and its face registered
    cleanly and moved, tell the twin. Fingers touching it and leaving it
    where it lay add none."""
    below = CORNERS + np.float32([10, 8])
    neat = turned(FIRST, degrees)
    under, first, second = (dataclasses.replace(sighting(n, 0.97, "P", 0.6), corners=c)
                            for n, c in (("A", below), ("S", FIRST), ("S", neat)))
    leaving = cv2.rectangle(laid(below, FIRST), (24, 40), (36, 60), (60, 90, 150), -1)
    touching = cv2.rectangle(laid(below, FIRST), (62, 55), (72, 70), (60, 90, 150), -1)  # a quarter of its middle
    script = [(TABLE, [])] + [(laid(below), [under])] * 6 + [(leaving, []), (laid(below, FIRST), [first])] + \
        [(touching, [])] * 2 + [(laid(below, FIRST, neat), [second])] * 10
    assert notations(run_script(Scripted(), script)) == counted


@pytest.mark.parametrize("degrees, counted", [(1.0, "A S S"), (2.0, "A S S"), (0.0, "A S")])
def test_a_twin_inside_the_outline_the_top_card_was_read_with_counts_when_its_face_moved(degrees, counted):
    """The top card was read with an outline a little larger than the card
    (as fingers merged into it make one), its face taken clear. A hand
    passes and a twin lies a degree off it, read with its own outline,
    inside the first: by the outlines, the same card seen without the
    fingers; by the face, registered cleanly and moved, a card laid. The
    face decides. The top card seen again unmoved is no new card."""
    below = CORNERS + np.float32([10, 8])
    middle = FIRST.mean(axis=0)
    grown = (middle + (FIRST - middle) * np.float32([1.12, 1.1])).astype(np.float32)
    neat = turned(FIRST, degrees)
    under, top, twin = (dataclasses.replace(sighting(n, 0.97, "P", 0.6), corners=c)
                        for n, c in (("A", below), ("S", grown), ("S", neat)))
    script = [(TABLE, [])] + [(laid(below), [under])] * 6 + [(laid(below, FIRST, hand=True), [])] * 2 + \
        [(laid(below, FIRST), [top])] * 8 + [(laid(below, FIRST, hand=True), [])] * 2 + \
        [(laid(below, FIRST, neat), [twin])] * 10
    assert notations(run_script(Scripted(), script)) == counted


@pytest.mark.parametrize("shift, counted", [((2.0, 0.0), "S S"), ((2.0, 2.0), "S S"), ((0.0, 0.0), "S")])
def test_a_twin_held_by_fingers_over_the_card_below_is_judged_once_they_let_go(shift, counted):
    """A twin laid two pixels (3 mm) off the settled top card, held a moment
    by a hand whose fingers lie on its face and over the edge of the card
    below where it shows: registered without the fingers, the face moved,
    and the edge of the card below is gone as if pushed. Judged once the
    hand has gone, the card below shows where it lay: one card laid, and
    only one (the fingers on the face, a face much like itself turned, make
    it register about as well turned half round). A hand resting so on the
    top card itself adds none."""
    top = dataclasses.replace(sighting("S", 0.97, "P", 0.6), corners=FIRST)
    twin = dataclasses.replace(top, corners=FIRST + np.float32(shift))
    holding = cv2.rectangle(laid(FIRST, twin.corners), (0, 16), (50, 84), (60, 90, 150), -1)
    script = [(TABLE, [])] + [(laid(FIRST), [top])] * 10 + [(laid(FIRST, hand=True), [])] * 2 + \
        [(holding, [twin])] * 6 + [(laid(FIRST, twin.corners), [twin])] * 10
    assert notations(run_script(Scripted(), script)) == counted


def test_a_card_read_as_it_still_slid_under_the_fingers_is_no_twin_laid_on_itself():
    """The one look at a card just laid caught it still sliding as the
    fingers let go (its face blurred four pixels along its width); at rest,
    its face registers on that view only loosely (0.97) and seemingly moved:
    the card itself settling, not a twin laid face on face (which registers
    at 0.999)."""
    below = CORNERS + np.float32([10, 8])
    under, first = (dataclasses.replace(sighting(n, 0.8, "P", 0.6), corners=c) for n, c in (("A", below), ("S", FIRST)))
    sharp = laid(below, FIRST)
    sliding = sharp.copy()
    card = np.zeros(sharp.shape[:2], np.uint8)
    cv2.fillConvexPoly(card, np.round(FIRST).astype(np.int32), 1)
    sliding[card > 0] = cv2.filter2D(sharp, -1, np.full((1, 4), 0.25, np.float32))[card > 0]
    touching = cv2.rectangle(laid(below, FIRST), (36, 70), (50, 90), (60, 90, 150), -1)
    script = [(TABLE, [])] + [(laid(below), [under])] * 6 + [(sliding, [first])] * 2 + [(touching, [])] * 2 + \
        [(sharp, [first])] * 10
    assert notations(run_script(Scripted(), script)) == "A S"


@pytest.mark.parametrize("degrees, counted", [(1.0, "A S S"), (2.0, "A S S"), (0.0, "A S")])
def test_a_twin_inside_the_outline_a_card_still_being_read_had_counts_when_its_face_moved(degrees, counted):
    """A card laid fast is read twice, with an outline a little larger than
    the card (as fingers or a shadow merged into it make one), its face
    taken clear, and the next hand comes before it is reported. A twin lies
    a degree off it, read with its own outline, inside the first: by the
    outlines, the same card seen without the fingers; by the face,
    registered cleanly and moved, a card laid. The face decides, as it does
    for the top card. The card seen again unmoved is no new card."""
    below = CORNERS + np.float32([10, 8])
    middle = FIRST.mean(axis=0)
    grown = (middle + (FIRST - middle) * np.float32([1.12, 1.1])).astype(np.float32)
    neat = turned(FIRST, degrees)
    under, first, twin = (dataclasses.replace(sighting(n, 0.8, "P", 0.6), corners=c)
                          for n, c in (("A", below), ("S", grown), ("S", neat)))
    script = [(TABLE, [])] + [(laid(below), [under])] * 6 + [(laid(below, FIRST), [first])] * 2 + \
        [(laid(below, FIRST, hand=True), [])] * 2 + [(laid(below, FIRST, neat), [twin])] * 10
    assert notations(run_script(Scripted(), script)) == counted



def test_a_card_read_with_an_outline_that_takes_in_the_card_below_now_and_then_is_reported_as_it_lies():
    """A card laid a tenth of a card off the one below is read look after
    look, its outline now its own, now one taking in the card below as
    well: the outlines never agree twice in a row, but its face, taken
    clear, registers unmoved on each. It is one card lying still, reported
    while it lies there, not only when the next hand comes; the twin laid
    on it then is the next card."""
    below = CORNERS + np.float32([-12, 10])
    merged = np.float32([[28, 20], [80, 20], [80, 92], [28, 92]])  # the two cards' outlines together
    under, alone, both = (dataclasses.replace(sighting(n, c, "P", 0.6), corners=k)
                          for n, c, k in (("A", 0.97, below), ("S", 0.77, FIRST), ("S", 0.89, merged)))
    twin = dataclasses.replace(alone, corners=turned(FIRST, 3.0, (2.0, 2.0)))
    script = [(TABLE, [])] + [(laid(below), [under])] * 6 + [(laid(below, hand=True), [])] * 2 + \
        [(laid(below, FIRST), [alone if i % 2 else both]) for i in range(7)]
    hand_comes = len(script)
    script += [(laid(below, FIRST, hand=True), [])] * 3 + [(laid(below, FIRST, twin.corners), [twin])] * 10
    events = run_script(Scripted(), script)
    assert notations(events) == "A S S"
    assert events[1].frame < hand_comes


def test_a_card_reported_late_as_the_next_hand_lays_its_twin_keeps_its_own_face():
    """A card is read clear but now as salami, now as double salami (the
    stand-in's two salami faces read alike), so it waits to be reported,
    and the next hand lays a salami a little off it before the wait is
    over. Reported at the end of the wait, as it was last seen, it keeps
    the face seen then, not the view under the hand: the twin, once the
    hand has gone, registers moved on it and counts."""
    below = CORNERS + np.float32([10, 8])
    twin_at = turned(FIRST, 3.0, (3.0, 2.0))
    under, single, double, twin = (dataclasses.replace(sighting(n, c, "P", 0.6), corners=k) for n, c, k in
                                   (("A", 0.97, below), ("S", 0.8, FIRST), ("S2", 0.7, FIRST), ("S", 0.8, twin_at)))
    script = [(TABLE, [])] + [(laid(below), [under])] * 6 + [(laid(below, hand=True), [])] * 2 + \
        [(laid(below, FIRST), [single if i % 2 == 0 else double]) for i in range(5)] + \
        [(laid(below, FIRST, hand=True), [])] * 12 + [(laid(below, FIRST, twin_at, hand=True), [])] * 4 + \
        [(laid(below, FIRST, twin_at), [twin])] * 10
    assert notations(run_script(Scripted(), script)) == "A S S"


def finely(*cards: np.ndarray, hand: tuple[tuple[int, int], tuple[int, int]] | None = None) -> np.ndarray:
    """As :func:`laid` (without the hand over the first card), drawn four
    times as large and reduced: corners a fraction of a pixel apart show."""
    big = np.full((TABLE.shape[0] * 4, TABLE.shape[1] * 4, 3), 90, np.uint8)
    for corners in cards:
        scaled = corners * 4
        middle = scaled.mean(axis=0)
        cv2.fillConvexPoly(big, np.round(scaled).astype(np.int32), (230, 230, 230))
        cv2.polylines(big, [np.round(middle + (scaled - middle) * 0.75).astype(np.int32)], True, (40, 40, 40), 8)
        cv2.circle(big, (int(middle[0]), int(middle[1])), 36, (40, 40, 40), -1)
    frame = cv2.resize(big, (TABLE.shape[1], TABLE.shape[0]), interpolation=cv2.INTER_AREA)
    if hand is not None:
        cv2.rectangle(frame, *hand, (60, 90, 150), -1)
    return frame


@pytest.mark.parametrize("offset, counted", [(0.25, "A S S"), (0.0, "A S")])
def test_a_twin_laid_a_fraction_of_a_pixel_off_before_the_top_card_rested_counts(offset, counted):
    """The next hand comes the moment the top card settles, so no touch of
    it counts (fingers leaving a card just laid touch it too), and lays a
    twin a quarter of a pixel off it, read with the same outline: nothing
    passed over it, nothing was pushed, but its face registers face on
    face (``twin_face_match``) and moved. Fingers leaving a card do not
    move it so cleanly: a twin. A hand that comes and lays nothing adds none."""
    below = CORNERS + np.float32([10, 8])
    twin_at = FIRST + np.float32([offset, 0])
    under, top = (dataclasses.replace(sighting(n, 0.97, "P", 0.6), corners=c) for n, c in (("A", below), ("S", FIRST)))
    beside = ((0, 30), (22, 60))
    script = [(finely(), [])] + [(finely(below), [under])] * 6 + \
        [(finely(below, FIRST, hand=((24, 40), (36, 60))), [])] + [(finely(below, FIRST), [top])] * 2 + \
        [(finely(below, FIRST, hand=beside), []), (finely(below, FIRST, twin_at, hand=beside), [])] + \
        [(finely(below, FIRST, twin_at), [top])] * 10
    assert notations(run_script(Scripted(), script)) == counted


@pytest.mark.parametrize("later, counted", [("S", "P A S"), ("A", "P A")])
def test_another_card_laid_square_on_a_card_read_alike_in_the_clear_counts(later, counted):
    """A card is read alike in look after look with nothing on or around
    it, while the fingers that laid it still move just by its edge (so,
    unsure, it is not yet reported); the next hand passes over it and lays
    another kind exactly where it lay. No outline tells them apart, but a
    card read alike twice in the clear was that card: both count. Read as
    the same card again, it is that card."""
    below = CORNERS + np.float32([10, 8])
    under, first, second = (dataclasses.replace(sighting(n, c, "M", 0.6), corners=k)
                            for n, c, k in (("P", 0.97, below), ("A", 0.8, FIRST), (later, 0.8, FIRST)))
    leaving = cv2.rectangle(laid(below, FIRST), (90, 30), (110, 90), (60, 90, 150), -1)
    fingertip = cv2.rectangle(laid(below, FIRST), (40, 16), (80, 19), (60, 90, 150), -1)  # by its edge, not on it
    script = [(TABLE, [])] + [(laid(below), [under])] * 8 + [(leaving, [])] * 2 + \
        [(fingertip if k % 2 else laid(below, FIRST), [first]) for k in range(6)] + \
        [(laid(below, FIRST, hand=True), [])] * 3 + [(laid(below, FIRST), [second])] * 10
    assert notations(run_script(Scripted(), script)) == counted


@pytest.mark.parametrize("degrees, counted", [(6.0, "A S S"), (0.0, "A S")])
def test_a_twin_laid_a_few_degrees_off_a_card_still_being_read_counts(degrees, counted):
    """As a twin laid neatly on a card still being read, but turned a few
    degrees, so the outlines no longer agree; the fingers laying it only
    touch the card's edge, so nothing is seen covering it. Its face, taken
    clear, registers on the twin face on face and moved: two cards. Fingers
    touching the card and leaving it where it lay add none."""
    below = CORNERS + np.float32([10, 8])
    twin_at = turned(FIRST, degrees, (1.0, 1.0) if degrees else (0.0, 0.0))
    under, first, second = (dataclasses.replace(sighting(n, 0.8, "P", 0.6), corners=c)
                            for n, c in (("A", below), ("S", FIRST), ("S", twin_at)))
    script = [(finely(), [])] + [(finely(below), [under])] * 6 + [(finely(below, FIRST), [first])] * 2 + \
        [(finely(below, FIRST, hand=((36, 70), (50, 90))), [])] * 2 + [(finely(below, FIRST, twin_at), [second])] * 10
    assert notations(run_script(Scripted(), script)) == counted


@pytest.mark.parametrize("twin_laid, counted", [(True, "S S"), (False, "S")])
def test_a_twin_laid_as_the_top_card_read_with_fingers_by_it_is_judged_late_counts(twin_laid, counted):
    """The settled top card is read again and again with fingers by its
    edge, its outline never the same twice, so the reading is judged only
    at ``max_wait``; meanwhile the next hand passed over it and holds a twin
    laid a little off, fingers still on its corner. The card judged is the
    top card as it was last seen; the hand that passed over it since is
    the next card's, and still counts once the fingers let go."""
    top = dataclasses.replace(sighting("S", 0.8, "P", 0.6), corners=FIRST)
    outlines = [dataclasses.replace(top, corners=FIRST + np.float32(d)) for d in ([-2, 0], [2, 0])]
    twin_at = FIRST + np.float32([2, 1])
    twin = dataclasses.replace(top, corners=twin_at)
    after = laid(FIRST, twin_at) if twin_laid else laid(FIRST)

    def fingers(k: int) -> np.ndarray:
        return cv2.rectangle(laid(FIRST), (20, 40), (48 + 4 * (k // 2 % 2), 70), (60, 90, 150), -1)

    script = [(TABLE, [])] + [(laid(FIRST), [top])] * 8 + [(fingers(k), [outlines[k // 2 % 2]]) for k in range(14)] + \
        [(laid(FIRST, hand=True), [])] * 3 + \
        [(cv2.rectangle(after.copy(), (60 + 10 * (k % 2), 66), (110, 100), (60, 90, 150), -1), []) for k in range(4)] + \
        [(after, [twin if twin_laid else top])] * 10
    assert notations(run_script(Scripted(), script)) == counted


def held_beside(*cards: np.ndarray, held: np.ndarray, k: int = 0) -> np.ndarray:
    """Cards laid in order, and a card held face up at ``held`` by a hand
    coming from the bottom edge, its thumb moving (with ``k``) by the card to its left."""
    frame = laid(*cards, held)
    cv2.rectangle(frame, (int(held[:, 0].min()) - 6 - 4 * (k % 2), int(held[:, 1].max()) - 12),
                  (int(held[:, 0].max()) - 5, 108), (60, 90, 150), -1)
    return frame


@pytest.mark.parametrize("lifted, counted", [(False, "S S"), (True, "S")])
def test_a_twin_held_beside_the_pile_while_the_top_card_lies_in_place_is_no_lift(lifted, counted):
    """A hand passes over the settled top card and holds a card of its kind
    beside the pile, its thumb moving by the top card (so that is not yet
    judged seen again), as a hand that lifted the top card would; but the top
    card still shows where it lay, its face registering there cleanly and
    unmoved: the card in the hand is the next of a run, and laid a little
    off it (a pixel) counts. Lifted (its place shows the table), it is put
    back as far off."""
    top = dataclasses.replace(sighting("S", 0.8, "P", 0.6), corners=FIRST)
    aside, landed = FIRST + np.float32([48, 0]), FIRST + np.float32([1, 0])
    in_hand = dataclasses.replace(top, corners=aside)
    if lifted:  # its place shows the table while the hand holds it, then the hand carries it back
        held = [(held_beside(held=aside, k=k), [in_hand]) for k in range(4)]
        over = cv2.ellipse(TABLE.copy(), (60, 60), (45, 50), 0, 0, 360, (60, 90, 150), -1)
        lands = laid(landed)
    else:
        held = [(held_beside(FIRST, held=aside, k=k), [top, in_hand]) for k in range(4)]
        over, lands = laid(FIRST, hand=True), laid(FIRST, landed)
    script = [(TABLE, [])] + [(laid(FIRST), [top])] * 8 + [(laid(FIRST, hand=True), [])] * 3 + held + \
        [(over, [])] * 3 + [(lands, [dataclasses.replace(top, corners=landed)])] * 10
    assert notations(run_script(Scripted(), script)) == counted
