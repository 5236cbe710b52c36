"""The second searches: at a coarser width for cards smeared by motion
blur, at a finer one for small cards, and none when the first finds all."""
import dataclasses

import cv2
import numpy as np
import pytest

from tools.synth.datasets import photo_stream
from vision.recognize import pipeline
from vision.recognize.config import DEFAULT_CONFIG
from vision.recognize.pipeline import Recogniser
from vision.recognize.types import Match

from .recognize_support import ART, DECK, TRUTH, place


@pytest.mark.parametrize("seed, index, kinds", [
    (401, 1176, ("top",)),                    # an order smeared 13 px on a checked cloth
    (301, 63, ("top", "layout", "empty")),    # a Mamma Mia! card smeared 12 px, under a thumb
])
def test_a_card_smeared_by_motion_blur_is_found_by_the_coarser_second_search(seed, index, kinds, monkeypatch):
    """Two benchmark-style photos whose top card the search at the detection
    width misses: its edges are too gradual to trace there, and at half the
    width they are sharp."""
    [photo] = photo_stream(ART, 1, seed, kinds, start=index)
    assert photo.spec.look.blur == "motion" and photo.spec.look.blur_amount > 10
    searches = _searches(monkeypatch)
    found = Recogniser(DECK).recognise(photo.image)
    assert [d.card for d in found] == [photo.cards[-1].card]
    assert searches == [(DEFAULT_CONFIG.detect_width, []), (DEFAULT_CONFIG.fallback_width, [photo.cards[-1].card.notation])]
    assert Recogniser(DECK, dataclasses.replace(DEFAULT_CONFIG, fallback_width=0)).recognise(photo.image) == []


def test_a_smeared_card_under_a_thumb_is_found_at_the_coarser_width_from_corners_or_frames(monkeypatch):
    """A top card smeared 10 px and held by a thumb (from a set of such
    photos): even at half the detection width no traced outline fits it;
    its corners, and the frame printed inside it, still propose it there."""
    [photo] = photo_stream(ART, 1, 603, ("top",), start=4523)
    assert photo.spec.thumb is not None and photo.spec.look.blur_amount > 10
    card = photo.cards[-1].card
    searches = _searches(monkeypatch)
    assert [d.card for d in Recogniser(DECK).recognise(photo.image)] == [card]
    assert searches == [(DEFAULT_CONFIG.detect_width, []), (DEFAULT_CONFIG.fallback_width, [card.notation])]
    monkeypatch.setattr(pipeline, "corner_hypotheses", lambda *args: [])
    assert [d.card for d in Recogniser(DECK).recognise(photo.image)] == [card]  # from its frame
    unframed = dataclasses.replace(DEFAULT_CONFIG, inner_frame_scale=1.0)
    assert Recogniser(DECK, unframed).recognise(photo.image) == []


def test_an_image_no_wider_than_the_second_search_is_searched_once(monkeypatch):
    searches = _searches(monkeypatch)
    image = np.full((180, DEFAULT_CONFIG.fallback_width, 3), (40, 70, 120), np.uint8)
    assert Recogniser(DECK).recognise(image) == [] and searches == [(DEFAULT_CONFIG.detect_width, [])]
    assert Recogniser(DECK).recognise(cv2.resize(image, None, fx=2, fy=2)) == []
    assert [width for width, _ in searches[1:]] == [DEFAULT_CONFIG.detect_width, DEFAULT_CONFIG.fallback_width]


def test_a_small_card_merged_with_a_checked_cloth_is_found_by_the_finer_second_search(alt_deck, monkeypatch):
    """A benchmark-style layout in the second deck style: its Mamma Mia!
    card's narrow white border blurs into a green and white checked cloth at
    the detection width; the finer search, which small cards call for,
    traces it."""
    alt, deck = alt_deck
    [photo] = photo_stream(alt, 1, 202, ("layout",), start=65)
    assert photo.spec.table == "cloth"
    searches = _searches(monkeypatch)
    found = Recogniser(deck).recognise(photo.image)
    assert sorted(d.card.notation for d in found) == sorted(c.card.notation for c in photo.cards)
    assert [(width, "!" in cards) for width, cards in searches[:2]] == \
        [(DEFAULT_CONFIG.detect_width, False), (DEFAULT_CONFIG.finer_width, True)]


def test_small_cards_smeared_by_motion_blur_are_found_by_a_coarser_search_after_the_finer(alt_deck, monkeypatch):
    """A benchmark-style layout in the second deck style, smeared 11 px on a
    checked cloth: three of its cards are traced neither at the detection
    width nor at the finer one, and are at half the detection width."""
    alt, deck = alt_deck
    [photo] = photo_stream(alt, 1, 203, ("layout",), start=177)
    assert photo.spec.look.blur == "motion" and photo.spec.look.blur_amount > 10
    searches = _searches(monkeypatch)
    found = {d.card.notation for d in Recogniser(deck).recognise(photo.image)}
    assert [width for width, _ in searches] == \
        [DEFAULT_CONFIG.detect_width, DEFAULT_CONFIG.finer_width, DEFAULT_CONFIG.fallback_width]
    assert {"p:O+6J", "A", "y:A+4M"} <= found <= {c.card.notation for c in photo.cards}
    without = Recogniser(deck, dataclasses.replace(DEFAULT_CONFIG, fallback_width=0)).recognise(photo.image)
    assert not {"p:O+6J", "A", "y:A+4M"} & {d.card.notation for d in without}


def test_a_card_filmed_up_close_calls_for_no_second_search(monkeypatch):
    searches = _searches(monkeypatch)
    card = next(c for c in ART.faces if c.notation == "S")
    assert [d.card for d in Recogniser(DECK).recognise(place(ART.faces[card], TRUTH))] == [card]
    assert searches == [(DEFAULT_CONFIG.detect_width, ["S"])]


def _searches(monkeypatch) -> list[tuple[int, list[str]]]:
    """Each search recognisers make from now on: its detection width and the
    cards found when it ends."""
    searches = []
    original = Recogniser._search

    def search(self, image, found=(), work=None, aside=None):
        result = original(self, image, found, work, aside)
        searches.append((self.config.detect_width, [d.card.notation for d in result]))
        return result

    monkeypatch.setattr(Recogniser, "_search", search)
    return searches


def test_second_searches_search_no_further_and_take_no_weak_match():
    recogniser = Recogniser(DECK)
    coarser, finer = recogniser._coarser, recogniser._finer
    assert (coarser.config.detect_width, finer.config.detect_width) == (DEFAULT_CONFIG.fallback_width, DEFAULT_CONFIG.finer_width)
    assert all(s._coarser is None and s._finer is None for s in (coarser, finer))
    assert coarser.config.max_alignments == coarser.config.max_weak_alignments == DEFAULT_CONFIG.fallback_alignments
    assert finer.config.max_alignments == finer.config.max_weak_alignments == DEFAULT_CONFIG.finer_alignments
    for confidence, runner_up in ((0.60, 0.10), (0.72, 0.59)):  # far ahead; a red check as salami
        match = Match(next(iter(ART.faces)), confidence, False, None, runner_up)
        assert recogniser.config.is_confident(match)
        assert not coarser.config.is_confident(match) and not finer.config.is_confident(match)



def test_a_second_search_reports_a_card_of_a_family_its_fine_comparison_shows(hard_deck):
    """A benchmark-style photo of the hard style (its orders and specials
    look alike at low resolution): a pile's top order under a thumb, a glint
    and a little blur, which the first search misses. The coarser search
    finds it, but no face is confident there; the reading still names the
    family clearly, and the fine comparison finds its card's face in it: it is
    reported, as a family reading of the first search would be. (The first
    search does find it when it may read the outlines it loses a little
    larger, or as a lone card's family reading from below 0.55: both are
    left out here.)"""
    hard, deck = hard_deck
    [photo] = photo_stream(hard, 1, 2464, start=51)
    assert photo.spec.thumb is not None and photo.spec.look.glare is not None
    config = dataclasses.replace(DEFAULT_CONFIG, frame_growths=(),
                                 family_lone_confidence=DEFAULT_CONFIG.family_min_confidence)
    found = Recogniser(deck, config).recognise(photo.image)
    assert [d.card.notation for d in found] == [photo.cards[-1].card.notation] == ["g:P+6J"]
    assert found[0].confidence < DEFAULT_CONFIG.second_confidence
    assert Recogniser(deck, dataclasses.replace(config, fallback_width=0)).recognise(photo.image) == []
