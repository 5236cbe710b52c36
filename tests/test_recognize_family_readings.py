"""Readings that name only their card's family (a pale order under a thumb
reads short of confident, and its family's faces look alike at low
resolution): the fine comparison says whether they show their card, and a
lone card may be read so from a lower similarity than one beside cards read."""
import dataclasses

import numpy as np
import pytest

from companion.engine import parse_card
from tools.synth.datasets import photo_stream
from vision.recognize.config import DEFAULT_CONFIG
from vision.recognize.discern import Verdict
from vision.recognize.pipeline import Recogniser
from vision.recognize.types import Detection, Match
from vision.recognize.work import unlimited

# no reading reaches these: the cards below are found only as lone readings of their family
STRICT = dataclasses.replace(DEFAULT_CONFIG, min_confidence=0.99, min_clear_confidence=0.99,
                             second_confidence=0.99, family_min_confidence=0.99)


@pytest.mark.parametrize("index", [6, 10])
def test_a_lone_card_read_below_the_family_similarity_is_reported_as_its_family_tells(hard_deck, index):
    """Stood in for by asking of family readings beside cards read a
    similarity none reaches: alone on the table, the card is still read,
    from ``family_lone_confidence``."""
    hard, deck = hard_deck
    [photo] = photo_stream(hard, 1, 2464, ("top", "empty"), start=index)
    card = photo.cards[-1].card
    assert [d.card for d in Recogniser(deck, STRICT).recognise(photo.image)] == [card]
    unread = dataclasses.replace(STRICT, family_lone_confidence=0.99)
    assert Recogniser(deck, unread).recognise(photo.image) == []


def _reading(confidence: float, left: float) -> Detection:
    corners = np.float32([[left, 100], [left + 100, 100], [left + 100, 260], [left, 260]])
    return Detection(Match(parse_card("r:S+4M"), confidence, False, None, 0.0), corners)


def test_weak_family_readings_cost_few_fine_comparisons_and_none_beside_a_card_read(hard_deck, monkeypatch):
    """Each reading of ``of_family`` costs a fine comparison; below
    ``family_min_confidence`` (a busy cloth glances so in many places) at
    most ``family_lone_readings`` are compared, and only while no card has
    been read. Counted with a comparison that keeps none."""
    _, deck = hard_deck
    judged: list[float] = []

    def discerned(self, image, detection, work=None):
        judged.append(detection.confidence)
        return detection, None

    monkeypatch.setattr(Recogniser, "_discerned", discerned)
    recogniser = Recogniser(deck)
    of_family = [_reading(c, 150 * i) for i, c in enumerate([0.5, 0.45, 0.6, 0.42, 0.41])]
    image = np.zeros((720, 1280, 3), np.uint8)
    assert recogniser._family_readings(image, of_family, [], unlimited()) == []
    assert judged == [0.6, 0.5, 0.45] and DEFAULT_CONFIG.family_lone_readings == 2
    judged.clear()
    card_read = _reading(0.9, 900)
    recogniser._family_readings(image, of_family, [card_read], unlimited())
    assert judged == [0.6]


@pytest.mark.parametrize("confidence, fit, kept", [(0.45, 0.5, False), (0.45, 0.56, True), (0.7, 0.46, True),
                                                   (0.7, 0.44, False)])
def test_a_weaker_family_reading_must_show_its_card_more_plainly(hard_deck, monkeypatch, confidence, fit, kept):
    """Kept when its card's face explains ``family_min_fit`` of it and at
    least 1 less its similarity: a pattern of a busy table that glanced like
    an order shows little of any order's face."""
    _, deck = hard_deck
    reading = _reading(confidence, 0)
    monkeypatch.setattr(Recogniser, "_discerned", lambda self, image, detection, work=None:
                        (detection, Verdict(deck.cards.index(detection.card), (), fit)))
    image = np.zeros((720, 1280, 3), np.uint8)
    assert Recogniser(deck)._family_readings(image, [reading], [], unlimited()) == ([reading] if kept else [])
