"""The tracker's recogniser, made from the photo recogniser: it aligns every
card it is not sure of, and takes no weak match as a sighting."""
from __future__ import annotations

import dataclasses

import numpy as np

from companion.engine import parse_card
from vision.recognize.decks import load_reference_deck
from vision.recognize.pipeline import Recogniser
from vision.track.config import TrackerConfig
from vision.track.factory import detections_from, tracker_for


def test_the_tracker_aligns_every_card_its_recogniser_is_not_sure_of(monkeypatch):
    """Sightings are compared by pose, and a very sure one is reported at
    once: the tracker's recogniser aligns every card that is not sure at its
    outline, where a photo's may take it as sure from a look at the outline
    grown a little (closer to the card, but not as close as aligned). It
    also finds edges at the coarser scale a pile filmed up close needs, and
    searches each frame once, unless it finds no card where one should lie:
    that frame is searched again at the photo recogniser's scale and
    smoothing."""
    import vision.track.factory as factory

    used = []
    monkeypatch.setattr(factory, "detections_from", lambda recogniser, least: used.append(recogniser) or (lambda image: []))
    photos = Recogniser(load_reference_deck())
    tracker_for(photos)
    tracking, finer = used
    assert photos.config.outline_growth > 1.0 and photos.config.detect_width > 512
    assert photos.config.fallback_width and photos.config.finer_width
    assert tracking.deck is photos.deck and tracking.config == dataclasses.replace(
        photos.config, outline_growth=1.0, detect_width=512, edge_blur=5, fallback_width=0, finer_width=0)
    assert finer.deck is photos.deck and finer.config == dataclasses.replace(
        tracking.config, detect_width=photos.config.detect_width, edge_blur=photos.config.edge_blur)


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
