"""Synthetic table photos: the ground-truth corners sit on the card, in
TL-TR-BR-BL order of the face; the same seed gives the same bytes."""
from __future__ import annotations

import dataclasses
import json

import cv2
import numpy as np
import pytest

from companion.engine import MAMMA_MIA, IngredientCard, Order, card_from_json
from tools.synth.camera_effects import CameraLook
from tools.synth.datasets import Art, photo_stream, write_photo_set
from vision.geometry import Camera, CardPose, quad_inside
from tools.synth.photo_spec import PhotoSpec, PlacedCard, sample_photo_spec
from tools.synth.synth_photo import random_photo, render_table_photo

SIZE = (640, 360)
CLEAN = CameraLook(noise=0.0, jpeg_quality=95)
CARD = IngredientCard.from_notation("S")


@pytest.fixture(scope="module")
def art():
    return Art.of()


def quadrant_face() -> np.ndarray:
    """A face whose top-left quarter is red and the rest green."""
    face = np.full((624, 400, 3), (0, 200, 0), np.uint8)
    face[:312, :200] = (0, 0, 230)
    return face


def inward(corners: np.ndarray, k: int, share: float) -> tuple[int, int]:
    centre = corners.mean(axis=0)
    x, y = corners[k] + (centre - corners[k]) * share
    return int(round(y)), int(round(x))


@pytest.mark.parametrize("roll,tilt,angle", [(0, 0, 0), (90, 0, 30), (200, 30, 75), (330, 20, 160)])
def test_corners_land_on_the_card_in_face_order(roll, tilt, angle):
    camera = Camera(SIZE, 600, 600 * 89 / 220, tilt=tilt, tilt_axis=40, roll=roll)
    spec = PhotoSpec("top", SIZE, "plain", camera, (PlacedCard(CARD, CardPose(0, 0, angle)),), look=CLEAN)
    photo = render_table_photo({CARD: quadrant_face()}, spec, np.random.default_rng(0))
    corners = np.array(photo.cards[0].corners)
    image = photo.image.astype(int)
    red, green = np.array((0, 0, 230)), np.array((0, 200, 0))
    y, x = inward(corners, 0, 0.12)
    assert np.abs(image[y, x] - red).max() < 40, "top-left corner must be the face's top-left"
    for k in (1, 2, 3):
        y, x = inward(corners, k, 0.12)
        assert np.abs(image[y, x] - green).max() < 40, k
    for k in range(4):
        y, x = inward(corners, k, -0.06)
        assert min(np.abs(image[y, x] - red).max(), np.abs(image[y, x] - green).max()) > 60, k
    assert photo.cards[0].top and photo.cards[0].visible_fraction > 0.95


def rectified(image: np.ndarray, corners) -> np.ndarray:
    src = np.array(corners, np.float32)
    dst = np.array([[0, 0], [99, 0], [99, 155], [0, 155]], np.float32)
    warped = cv2.warpPerspective(image, cv2.getPerspectiveTransform(src, dst), (100, 156))
    return cv2.cvtColor(warped, cv2.COLOR_BGR2GRAY).astype(np.float32)


def similarity(a: np.ndarray, b: np.ndarray) -> float:
    a, b = (a - a.mean()) / (a.std() + 1e-6), (b - b.mean()) / (b.std() + 1e-6)
    return float((a * b).mean())


def test_random_top_photos_show_the_truth_card_at_the_truth_corners(art):
    faces = {card: cv2.resize(img, (100, 156), interpolation=cv2.INTER_AREA) for card, img in art.faces.items()}
    for seed in range(8):
        rng = np.random.default_rng(seed)
        spec = sample_photo_spec("top", rng, SIZE, list(art.faces))
        spec = dataclasses.replace(spec, thumb=None, look=dataclasses.replace(spec.look, glare=None, blur="none"))
        photo = render_table_photo(art.faces, spec, rng, art.back)
        top = photo.cards[-1]
        assert top.top and [c.top for c in photo.cards[:-1]] == [False] * (len(photo.cards) - 1)
        assert quad_inside(np.array(top.corners), SIZE)
        seen = rectified(photo.image, top.corners)
        scores = {card: similarity(seen, rectified(face, [[0, 0], [99, 0], [99, 155], [0, 155]]))
                  for card, face in faces.items()}
        assert scores[top.card] > 0.6, (seed, top.card)
        assert max(scores, key=scores.get) == top.card, seed


def test_same_seed_same_bytes_and_different_seed_differs(art):
    a = random_photo(art.faces, "top", np.random.default_rng(5), SIZE, art.back)
    b = random_photo(art.faces, "top", np.random.default_rng(5), SIZE, art.back)
    c = random_photo(art.faces, "top", np.random.default_rng(6), SIZE, art.back)
    assert a.jpeg == b.jpeg and a.truth_json("x") == b.truth_json("x")
    assert a.jpeg != c.jpeg


def test_kinds_of_photo(art):
    for photo in photo_stream(art, 12, 3, ("layout",), SIZE):
        assert len(photo.cards) >= 2 and all(c.top for c in photo.cards)
        assert all(c.visible_fraction > 0.9 for c in photo.cards)
    for photo in photo_stream(art, 4, 3, ("empty",), SIZE):
        assert photo.cards == () and photo.image.shape == (360, 640, 3)


def test_under_cards_are_partly_hidden_and_a_thumb_hides_part_of_the_top(art):
    unders, thumbs = [], []
    for photo in photo_stream(art, 40, 11, ("top",), SIZE):
        unders += [c.visible_fraction for c in photo.cards[:-1]]
        if photo.spec.thumb is not None:
            thumbs.append(photo.cards[-1].visible_fraction)
    assert unders and max(unders) < 0.95
    assert thumbs and all(0.4 < v < 0.99 for v in thumbs)


def test_photo_set_on_disk_matches_its_truth(tmp_path, art):
    index = write_photo_set(tmp_path, 5, 2, art=art, size=SIZE)
    data = json.loads(index.read_text())
    assert len(data["photos"]) == 5
    for truth in data["photos"]:
        assert (tmp_path / truth["image"]).is_file()
        for card in truth["cards"]:
            assert len(card["corners"]) == 4 and isinstance(card["top"], bool)
            card_from_json(card["card"])
    again = tmp_path / "again"
    write_photo_set(again, 5, 2, art=art, size=SIZE)
    assert (again / "photo-00003.jpg").read_bytes() == (tmp_path / "photo-00003.jpg").read_bytes()


def test_unknown_kind_is_refused():
    with pytest.raises(ValueError):
        sample_photo_spec("sideways", np.random.default_rng(0))


def test_sampled_cards_cover_every_kind(art):
    from tools.synth.photo_spec import sample_card

    rng = np.random.default_rng(0)
    seen = {sample_card(rng, list(art.faces)) for _ in range(400)}
    assert MAMMA_MIA in seen and any(isinstance(c, Order) and c.special for c in seen)
    assert any(isinstance(c, IngredientCard) and c.double for c in seen)
