"""Teaching from one picture: the card is found and straightened, and a
picture that would make a poor reference is refused with the reason."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.engine import parse_card
from vision.recognize.capture import DEFAULT_CAPTURE, capture, card_aspect, framed_sides
from vision.recognize.decks import load_faces
from vision.recognize.likeness import likeness, signature, where_they_differ
from vision.recognize.types import Quad

from .test_enroll import PHOTO_QUADS, card_photo, inner_difference

TABLE = (70, 95, 120)  # card_photo's table, BGR


@pytest.fixture(scope="module")
def faces() -> dict:
    return dict(load_faces())


def salami(faces: dict) -> np.ndarray:
    return faces[parse_card("S")]


def codes(found) -> list[str]:
    return [problem.code for problem in found.problems]


@pytest.mark.parametrize("pose", PHOTO_QUADS)
def test_a_good_photo_gives_the_straightened_face(faces, pose):
    found = capture(card_photo(salami(faces), PHOTO_QUADS[pose]))
    assert found.ok, codes(found)
    assert inner_difference(found.face, salami(faces)) < 5.0
    assert np.abs(found.outline.corners - np.array(PHOTO_QUADS[pose])).max() < 1.5


def test_a_scan_is_its_own_face(faces):
    found = capture(salami(faces))
    assert found.ok and inner_difference(found.face, salami(faces)) < 1.0


def test_a_card_lying_across_is_taken_with_its_top_to_the_left(faces):
    quad = [[650, 150], [650, 420], [230, 420], [230, 150]]  # the card's top edge faces right
    found = capture(card_photo(salami(faces), quad))
    assert found.ok, codes(found)
    # the recogniser compares faces either way up: only how the face is shown depends on the guess
    assert inner_difference(cv2.rotate(found.face, cv2.ROTATE_180), salami(faces)) < 5.0


def test_no_card(faces):
    found = capture(np.full((600, 800, 3), TABLE, np.uint8))
    assert codes(found) == ["no_card"] and found.face is None and found.problems[0].hint


def test_a_card_cut_by_the_picture_edge(faces):
    found = capture(card_photo(salami(faces), [[600, 100], [960, 120], [940, 660], [580, 640]]))
    assert codes(found) == ["not_whole"]


def test_an_outline_of_another_shape(faces):
    squat = cv2.resize(salami(faces), (300, 345))  # a rectangle, but not a card's
    found = capture(card_photo(squat, [[300, 150], [600, 150], [600, 495], [300, 495]]))
    assert codes(found) == ["aspect"]


def test_a_blurred_photo(faces):
    photo = cv2.GaussianBlur(card_photo(salami(faces), PHOTO_QUADS["upright"]), (0, 0), 4.0)
    assert "blurred" in codes(capture(photo))


def test_glare(faces):
    photo = card_photo(salami(faces), PHOTO_QUADS["upright"])
    cv2.ellipse(photo, (450, 330), (90, 60), 20, 0, 360, (255, 255, 255), -1)
    assert codes(capture(photo)) == ["glare"]


def test_an_outline_along_a_printed_frame_inside_the_card(faces):
    """A card whose pale border barely stands out from the table: the strong
    edge is the art's printed frame, and the outline follows it."""
    table = np.full((700, 900, 3), TABLE, np.float32)
    border = np.zeros(table.shape[:2], np.float32)
    cv2.rectangle(border, (270, 80), (630, 640), 1.0, -1)
    border = cv2.GaussianBlur(border, (0, 0), 6.0)[..., None]  # an edge too gradual to trace
    photo = (table * (1 - border) + np.array((110, 140, 165), np.float32) * border).astype(np.uint8)
    photo[120:600, 300:600] = cv2.resize(salami(faces), (300, 480))  # the art, inside the border
    found = capture(photo)
    assert codes(found) == ["cut_inside"]


def test_framed_sides_tells_a_card_edge_from_a_frame(faces):
    photo = card_photo(salami(faces), PHOTO_QUADS["upright"])  # it casts a shadow on two sides
    outline = Quad(np.array(PHOTO_QUADS["upright"], np.float32))
    assert framed_sides(photo, outline) == 0
    assert framed_sides(photo, outline.enlarged(0.9)) == 4


def test_a_card_in_perspective_has_a_card_shape():
    upright = Quad(np.array(PHOTO_QUADS["upright"], np.float32))
    focal = DEFAULT_CAPTURE.focal_length * 900
    assert card_aspect(upright, (700, 900, 3), focal) == pytest.approx(89 / 57, rel=0.05)


def test_likeness_names_where_two_faces_differ(faces):
    one, other = (signature(faces[parse_card(n)]) for n in ("r:15+", "b:15+"))  # only the frame's colour
    assert likeness(one, other) > 0.9 and where_they_differ(one, other) == "the frame"
    one, other = (signature(faces[parse_card(n)]) for n in ("g:P+6J", "g:P+3?"))
    assert where_they_differ(one, other) == "the centre"
    turned = signature(cv2.rotate(faces[parse_card("g:P+6J")], cv2.ROTATE_180))
    assert likeness(one, turned) > 0.99
    assert likeness(signature(faces[parse_card("S")]), signature(faces[parse_card("!")])) < 0.5
