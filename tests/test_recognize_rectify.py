"""Cutting a face out along its outline, either way up, one by one or together."""
import numpy as np
import pytest

from vision.recognize.rectify import rectify, rectify_many
from vision.recognize.types import Quad

from .recognize_support import ART, TRUTH, place


def test_rectify_puts_the_first_corner_top_left():
    face = np.zeros((624, 400, 3), np.uint8)
    face[:312, :200] = (0, 0, 255)  # red top-left quarter
    image = place(face, TRUTH)
    upright = rectify(image, Quad(TRUTH), (40, 62))
    assert upright[5, 5, 2] > 200 and upright[5, 5, 1] < 60
    turned = rectify(image, Quad(TRUTH).turned(), (40, 62))
    assert turned[-5, -5, 2] > 200 and turned[5, 5, 2] < 100


@pytest.mark.parametrize("oversample", [1, 2])
def test_a_face_cut_out_upside_down_is_the_upright_face_turned(oversample):
    """Corners map to the outer corners of the face's corner pixels, so
    neither way up is sampled half a pixel off."""
    image = place(ART.faces[next(iter(ART.faces))], TRUTH)
    upright = rectify(image, Quad(TRUTH), (40, 62), oversample).astype(int)
    turned = rectify(image, Quad(TRUTH).turned(), (40, 62), oversample).astype(int)
    assert np.abs(upright - turned[::-1, ::-1]).max() <= 1


@pytest.mark.parametrize("oversample", [1, 4])
def test_faces_rectified_together_are_the_faces_rectified_one_by_one(oversample):
    image = place(ART.faces[next(iter(ART.faces))], TRUTH)
    outlines = np.stack([TRUTH, Quad(TRUTH).turned().corners, Quad(TRUTH).enlarged(0.8).corners, TRUTH + 7.3])
    together = rectify_many(image, outlines, (10, 16), oversample)
    assert together.shape == (4, 16, 10, 3)
    for face, outline in zip(together, outlines):
        assert np.array_equal(face, rectify(image, Quad(outline), (10, 16), oversample))
    assert rectify_many(image, outlines[:0], (10, 16), oversample).shape == (0, 16, 10, 3)
