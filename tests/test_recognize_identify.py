"""Naming a cut-out face against the deck, with its runner-up."""
import cv2
import numpy as np
import pytest

from vision.recognize.identify import ReferenceDeck, canonical_face, identify

from .recognize_support import ART, DECK


@pytest.mark.parametrize("card", list(ART.faces), ids=lambda c: c.notation)
def test_every_face_identifies_from_a_clean_render_either_way_up(card):
    face = canonical_face(ART.faces[card])
    upright, turned = identify(face, DECK), identify(np.ascontiguousarray(face[::-1, ::-1]), DECK)
    assert (upright.card, upright.upside_down) == (card, False) and upright.confidence > 0.99
    assert (turned.card, turned.upside_down) == (card, True) and turned.confidence > 0.99
    assert upright.runner_up != card and upright.margin > 0.02


def test_the_runner_up_is_the_next_best_card_and_a_deck_of_one_has_none():
    cards = list(ART.faces)[:3]
    blend = cv2.addWeighted(canonical_face(ART.faces[cards[0]]), 0.6, canonical_face(ART.faces[cards[1]]), 0.4, 0)
    match = identify(blend, ReferenceDeck.from_faces((c, ART.faces[c]) for c in cards))
    assert (match.card, match.runner_up) == (cards[0], cards[1]) and match.margin > 0
    alone = identify(blend, ReferenceDeck.from_faces([(cards[2], ART.faces[cards[2]])]))
    assert alone.card == cards[2] and alone.runner_up is None and alone.runner_up_confidence == 0.0
