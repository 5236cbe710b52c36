"""The hard deck style: hard in exactly the ways it claims (colours only in a
thin frame, recipes one small icon apart, pale colours, its own lettering),
and still fair: every face differs visibly from every other somewhere."""
from __future__ import annotations

import itertools

import cv2
import numpy as np
import pytest

from companion.engine import Color, Order
from tools.synth.deck_art import render_face
from tools.synth.lettering import GLYPHS, chamfered, write
from tools.synth.order_art import FRAME_INSET
from tools.synth.pen import fill_polygon, rounded_rect_points
from tools.synth.style import ALT_STYLE, DEFAULT_STYLE, HARD_STYLE, style_named
from vision.catalog import distinct_faces

STYLE = HARD_STYLE


def face(notation: str) -> np.ndarray:
    return render_face(Order.from_notation(notation), STYLE).astype(np.int16)


def changed(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.abs(a - b).max(axis=2) > 0


def test_the_hard_style_is_a_style_by_name():
    assert style_named("hard") is HARD_STYLE
    for card in distinct_faces():
        mine = render_face(card, STYLE).astype(int)
        for other in (DEFAULT_STYLE, ALT_STYLE):
            assert np.abs(mine - render_face(card, other).astype(int)).mean() > 10, (card, other.name)


@pytest.mark.parametrize("recipe", ["15+", "S+A+M+P+O"])
def test_one_recipe_in_five_colours_differs_only_in_a_thin_frame(recipe):
    faces = [face(f"{color.letter}:{recipe}") for color in Color]
    height, width = faces[0].shape[:2]
    band = (FRAME_INSET + STYLE.frame_width) * width
    assert band <= 0.05 * width
    mask = np.zeros((height, width), np.uint8)
    fill_polygon(mask, rounded_rect_points(band, band, width - band, height - band, STYLE.corner_radius), (1, 1, 1))
    inside = cv2.erode(mask, np.ones((7, 7), np.uint8)) > 0  # past the frame's inner line and its antialiasing
    for a, b in itertools.combinations(faces, 2):
        differ = changed(a, b)
        assert differ.any() and not (differ & inside).any()


@pytest.mark.parametrize("first, second", [("r:S+4A", "r:S+4M"), ("g:4S+P", "g:4M+P"), ("p:4P+O", "p:4M+O")])
def test_recipes_one_topping_apart_differ_in_one_small_region(first, second):
    ys, xs = np.nonzero(changed(face(first), face(second)))
    height, width = STYLE.height, STYLE.width
    box_width, box_height = xs.max() - xs.min() + 1, ys.max() - ys.min() + 1
    assert box_width <= 0.15 * width and box_height <= 0.1 * height, (box_width, box_height)


def test_colours_are_pale_tints_with_hues_apart():
    colours = list(STYLE.colors.values()) + [look.main for look in STYLE.ingredients.values()]
    hsv = cv2.cvtColor(np.uint8([colours]), cv2.COLOR_BGR2HSV)[0]
    assert (hsv[:, 1] <= 0.4 * 255).all() and (hsv[:, 2] >= 0.7 * 255).all()
    lab = cv2.cvtColor(np.float32([list(STYLE.colors.values())]) / 255, cv2.COLOR_BGR2Lab)[0]
    nearest = min(np.linalg.norm(a - b) for a, b in itertools.combinations(lab, 2))
    assert nearest >= 15  # CIELAB: plainly different to an eye looking for it


def test_every_face_differs_visibly_from_every_other_somewhere():
    cards = distinct_faces()
    # 8 x 8 pixel blocks: a difference a careful eye sees on a card 400 pixels wide
    blocks = [cv2.resize(render_face(c, STYLE), (50, 78), interpolation=cv2.INTER_AREA).astype(np.int16)
              for c in cards]
    for (i, a), (j, b) in itertools.combinations(enumerate(blocks), 2):
        assert np.abs(a - b).max() >= 40, (cards[i].notation, cards[j].notation)


def test_the_lettering_is_drawn_from_its_own_glyphs():
    assert STYLE.lettering == "chamfered"
    ours, hershey = (np.full((60, 200, 3), 255, np.uint8) for _ in range(2))
    write(ours, "OSTERIA", (100, 30), (180, 40), STYLE, (0, 0, 0))
    write(hershey, "OSTERIA", (100, 30), (180, 40), DEFAULT_STYLE, (0, 0, 0))
    inked = ours.min(axis=2) < 128
    ys, xs = np.nonzero(inked)
    assert 150 <= xs.max() - xs.min() <= 182 and ys.max() - ys.min() <= 42
    assert np.abs(ours.astype(int) - hershey.astype(int)).mean() > 5
    assert set("OSTERIAPLNMUHBCVx0123456789+?!J") <= set(GLYPHS)
    with pytest.raises(ValueError, match="no glyph"):
        chamfered(ours, "Wé", (100, 30), (180, 40), (0, 0, 0), 2)
