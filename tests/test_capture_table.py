"""An outline that takes in the table around the card: on a patterned cloth
the outline found may follow the cloth's lines past the card's edge, and a
face taught from it would carry the cloth into every reading of its card.
Such a picture is refused, or cut again along the card's own outline when
that was found too; well-cut pictures of every art style pass."""
from __future__ import annotations

import numpy as np
import pytest

from companion.engine import parse_card
from tools.synth.enroll_photos import card_photo as phone_photo
from tools.synth.enroll_photos import enroll_faces
from tools.synth.style import STYLES
from vision.cvcompat import decode_image
from vision.recognize.capture import DEFAULT_CAPTURE, capture
from vision.recognize.table_inside import table_inside
from vision.recognize.types import Quad

from .test_capture import codes, faces, salami  # noqa: F401  (faces is a fixture)
from .test_enroll import PHOTO_QUADS, card_photo

PLACES = {card.notation: place for place, card in enroll_faces()}


def shot(style: str, seed: int, notation: str):
    """A synthetic phone photo of one card (as ``tools.synth enroll-photos``
    takes it): the picture, the card's true corners and its "top" hint."""
    photo = phone_photo(STYLES[style], seed, PLACES[notation], parse_card(notation))
    return decode_image(photo.photo.jpeg), photo.corners, (None if photo.top == "top" else photo.top)


def corner_error(outline: Quad, truth: np.ndarray) -> float:
    """The largest distance of a corner from the true one, per card width, either way up."""
    width = float(np.linalg.norm(truth[1] - truth[0]))
    return min(float(np.linalg.norm(np.roll(outline.corners, k, axis=0) - truth, axis=1).max())
               for k in (0, 2)) / width


def test_a_corner_out_over_the_table_shows_the_table_inside_its_sides(faces):
    photo = card_photo(salami(faces), PHOTO_QUADS["upright"])
    corners = np.array(PHOTO_QUADS["upright"], np.float32)
    assert max(table_inside(photo, Quad(corners), DEFAULT_CAPTURE)) == 0
    centre = corners.mean(axis=0)
    out = corners.copy()
    # the top-right corner 15 % of the card's width further out, along the diagonal
    out[1] += (corners[1] - centre) / np.linalg.norm(corners[1] - centre) * 0.15 * 270
    runs = table_inside(photo, Quad(out), DEFAULT_CAPTURE)
    assert runs[0] >= DEFAULT_CAPTURE.table_run and runs[1] >= DEFAULT_CAPTURE.table_run
    assert runs[2] < DEFAULT_CAPTURE.table_run and runs[3] < DEFAULT_CAPTURE.table_run


def test_an_outline_that_follows_a_cloth_past_the_card_is_refused():
    # the double mushroom on a checked cloth: the largest outline found runs along the cloth's
    # lines, a corner 12 % of the card's width out, and no smaller outline is the card's
    photo, truth, top = shot("default", 2181, "M2")
    found = capture(photo, top=top)
    assert codes(found) == ["table_inside"]
    assert found.outline.area > 1.05 * Quad(np.float32(truth)).area
    assert "table" in found.problems[0].message and found.problems[0].hint


def test_the_card_own_outline_is_taken_when_the_largest_takes_in_the_table():
    # the largest outline of this blue order runs 13 % of the card's width out over the cloth;
    # the card's own outline was found too, within it
    photo, truth, top = shot("default", 2192, "b:M+4P")
    found = capture(photo, top=top)
    assert found.ok, codes(found)
    assert corner_error(found.outline, truth) < 0.02


@pytest.mark.parametrize("style, seed, notation", [
    ("default", 2181, "S"),            # on a checked cloth
    ("default", 2181, "r:S+4A"),       # on a checked cloth
    ("alt", 2192, "r:S+4P"),
    ("hard", 2191, "y:A+4M"),          # a pale card with a thin border, its frame just inside
])
def test_well_cut_pictures_of_every_style_pass(style, seed, notation):
    photo, truth, top = shot(style, seed, notation)
    found = capture(photo, top=top)
    assert corner_error(found.outline, truth) < 0.02
    assert found.ok, codes(found)
