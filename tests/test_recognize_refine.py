"""Aligning a rough outline onto the card (ECC), step by step."""
import cv2
import numpy as np
import pytest

from vision.recognize import refine as refine_module
from vision.recognize.config import DEFAULT_CONFIG
from vision.recognize.refine import align, refine
from vision.recognize.types import Quad

from .recognize_support import ART, DECK, TRUTH, place


def test_refine_pulls_a_rough_outline_onto_the_card():
    card = next(c for c in ART.faces if getattr(c, "special", None) == "monotoni")
    image = place(ART.faces[card], TRUTH)
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    rough = TRUTH + np.float32([[12, -9], [14, 6], [-10, 11], [-8, -12]])
    refined = refine([(gray, 1.0), (gray, 1.0)], Quad(rough), DECK.templates_of(card))
    assert refined is not None and np.linalg.norm(refined.corners - TRUTH, axis=1).max() < 3.5


def test_refine_stops_after_the_quick_look_when_the_outline_looks_unlike_the_card():
    card = next(c for c in ART.faces if getattr(c, "special", None) == "monotoni")
    image = place(ART.faces[card], TRUTH)
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    looks: list[Quad] = []

    def unlike(quad: Quad) -> float:
        looks.append(quad)
        return DEFAULT_CONFIG.refine_steps[0].go_on - 0.01

    assert refine([(gray, 1.0), (gray, 1.0)], Quad(TRUTH), DECK.templates_of(card), look=unlike) is None
    assert len(looks) == 1  # the coarse and full-size steps never ran


def test_refine_goes_straight_to_full_size_when_the_quick_look_settles_the_outline():
    card = next(c for c in ART.faces if getattr(c, "special", None) == "monotoni")
    gray = cv2.cvtColor(place(ART.faces[card], TRUTH), cv2.COLOR_BGR2GRAY).astype(np.float32)
    looks: list[Quad] = []

    def exactly(quad: Quad) -> float:
        looks.append(quad)
        return 0.99

    rough = Quad(TRUTH + np.float32([[3, -2], [4, 2], [-3, 3], [-2, -3]]))
    refined = refine([(gray, 1.0), (gray, 1.0)], rough, DECK.templates_of(card), look=exactly)
    assert refined is not None and np.linalg.norm(refined.corners - TRUTH, axis=1).max() < 2.0
    assert len(looks) == 1  # looked at after the quick step only: the coarse step was passed over


@pytest.mark.parametrize("sure, steps", [(True, 1), (False, 2)])
def test_refine_stops_after_the_quick_look_only_when_the_outline_is_settled(sure, steps, monkeypatch):
    card = next(c for c in ART.faces if getattr(c, "special", None) == "monotoni")
    gray = cv2.cvtColor(place(ART.faces[card], TRUTH), cv2.COLOR_BGR2GRAY).astype(np.float32)
    aligned: list[Quad] = []
    monkeypatch.setattr(refine_module, "align", lambda *args, **kwargs: aligned.append(args[1]) or align(*args, **kwargs))
    rough = Quad(TRUTH + np.float32([[3, -2], [4, 2], [-3, 3], [-2, -3]]))
    settled: list[Quad] = []
    refined = refine([(gray, 1.0), (gray, 1.0)], rough, DECK.templates_of(card), look=lambda quad: 0.99,
                     settled=lambda quad: settled.append(quad) or sure)
    # the quick step's face is small: its outline is a few pixels off, the full-size one is not
    assert refined is not None and np.linalg.norm(refined.corners - TRUTH, axis=1).max() < (6.0 if sure else 2.0)
    assert len(settled) == 1 and len(aligned) == steps  # the full-size step only for an unsettled outline
    assert (refined is settled[0]) == sure


def test_refine_goes_past_a_failed_step_for_an_outline_that_already_looks_like_the_card():
    card = next(c for c in ART.faces if getattr(c, "special", None) == "monotoni")
    gray = cv2.cvtColor(place(ART.faces[card], TRUTH), cv2.COLOR_BGR2GRAY).astype(np.float32)
    blank = np.full_like(gray, 128.0)  # nothing for the reduced steps to align with
    rough = Quad(TRUTH + np.float32([[3, -2], [4, 2], [-3, 3], [-2, -3]]))
    levels = [(blank, 1.0), (gray, 1.0)]
    alike = refine(levels, rough, DECK.templates_of(card), look=lambda quad: 0.99)
    assert alike is not None and np.linalg.norm(alike.corners - TRUTH, axis=1).max() < 2.0
    assert refine(levels, rough, DECK.templates_of(card), look=lambda quad: 0.3) is None
