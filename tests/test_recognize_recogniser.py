"""The whole recogniser on an image, and the rules and settings it reports by."""
import dataclasses

import cv2
import numpy as np
import pytest

from vision.recognize.config import DEFAULT_CONFIG
from vision.recognize.identify import ReferenceDeck
from vision.recognize.pipeline import Recogniser
from vision.recognize.types import Match

from .recognize_support import ART, DECK, TRUTH, place


def test_a_recogniser_may_search_differently_from_its_deck_but_not_describe_faces_differently():
    assert Recogniser(DECK, dataclasses.replace(DEFAULT_CONFIG, outline_growth=1.0)).config.outline_growth == 1.0
    with pytest.raises(ValueError, match="face sizes"):
        Recogniser(DECK, dataclasses.replace(DEFAULT_CONFIG, face_size=(30, 47)))


def test_recogniser_reports_the_card_upside_down_with_face_corners():
    card = next(c for c in ART.faces if c.notation == "y:A+4O")
    image = place(ART.faces[card], np.roll(TRUTH, 2, axis=0))  # lying upside down
    [found] = Recogniser(DECK).recognise(image)
    assert found.card == card and found.confidence > 0.9
    assert np.linalg.norm(found.corners - np.roll(TRUTH, 2, axis=0), axis=1).max() < 4.0


def test_a_card_whose_outline_merges_with_a_checked_cloth_is_found_from_its_printed_frame():
    yy, xx = np.mgrid[0:720, 0:1280].astype(np.float32)
    mix = (((xx // 50) % 2 + (yy // 50) % 2) / 2)[..., None]  # gingham: white, mid and dark checks
    cloth = (np.float32([240, 240, 240]) * (1 - mix) + np.float32([140, 60, 20]) * mix).astype(np.uint8)
    card = next(c for c in ART.faces if c.notation == "y:A+4O")
    image = place(ART.faces[card], (TRUTH - TRUTH.mean(axis=0)) * 0.5 + np.float32([640, 360]), table=cloth)
    assert [d.card for d in Recogniser(DECK).recognise(image)] == [card]
    without = dataclasses.replace(DEFAULT_CONFIG, inner_frame_scale=1.0)
    assert Recogniser(ReferenceDeck.from_faces(ART.faces.items(), without)).recognise(image) == []


def test_an_empty_table_reports_nothing():
    rng = np.random.default_rng(3)
    image = np.full((720, 1280, 3), (40, 70, 120), np.uint8)
    for _ in range(6):  # a few card-sized plain shapes: paper, a phone, a coaster
        x, y = rng.integers(0, 1100), rng.integers(0, 500)
        cv2.rectangle(image, (int(x), int(y)), (int(x) + 120, int(y) + 190), tuple(int(v) for v in rng.integers(0, 255, 3)), -1)
    assert Recogniser(DECK).recognise(image) == []


@pytest.mark.parametrize("confidence, runner_up, reported", [
    (0.72, 0.70, True),   # similar enough on its own
    (0.60, 0.30, True),   # weaker, but no other card comes near: a pale card under glare
    (0.60, 0.45, False),  # weaker, with a close runner-up
    (0.50, 0.05, False),  # too weak however clear: the table's patterns reach this
])
def test_a_weaker_match_is_reported_only_when_far_ahead_of_its_runner_up(confidence, runner_up, reported):
    card, other = list(ART.faces)[:2]
    match = Match(card=card, confidence=confidence, upside_down=False, runner_up=other, runner_up_confidence=runner_up)
    assert DEFAULT_CONFIG.is_confident(match) is reported


def test_thresholds_live_in_one_config_object():
    assert DECK.config is DEFAULT_CONFIG and Recogniser(DECK).config is DEFAULT_CONFIG
