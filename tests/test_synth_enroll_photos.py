"""Phone photos of single cards for enrollment: JPEGs a phone could have
taken, a manifest the product's enrollment reads, and a truth file whose
corners say exactly where each card lies."""
from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from companion.engine import card_from_json, parse_card
from tools.synth.card_shot import MAX_TILT, card_share, sample_card_shot, top_side
from tools.synth.deck_art import render_face
from tools.synth.enroll_photos import TRUTH, enroll_faces, write_enroll_photos
from tools.synth.style import HARD_STYLE, STYLES
from vision.catalog import distinct_faces
from vision.cvcompat import decode_image
from vision.recognize.decks import read_manifest
from vision.recognize.enroll import FACE_SIZE, enroll_entries
from vision.recognize.rectify import rectify
from vision.recognize.types import Quad

FACES = [(distinct_faces().index(parse_card(t)), parse_card(t)) for t in ("S", "O2", "g:4A+P", "y:A+3?", "!")]
SEED = 2103


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    out = tmp_path_factory.mktemp("enroll-default")
    write_enroll_photos(out, STYLES["default"], SEED, faces=FACES)
    return out


def truth_of(folder) -> list[dict]:
    return json.loads((folder / TRUTH).read_text())["photos"]


def test_every_photo_is_a_phone_jpeg_of_its_card(folder):
    for item in truth_of(folder):
        data = (folder / item["image"]).read_bytes()
        assert data[:2] == b"\xff\xd8"
        image = decode_image(data)
        assert (image.shape[1], image.shape[0]) == tuple(item["size"])
        assert sorted(item["size"]) == [960, 1280]
        assert 0.3 <= item["card_share"] <= 0.6 + 1e-3
        assert 80 <= item["camera"]["jpeg_quality"] <= 90 and item["tilt"] <= MAX_TILT
        assert item["table"] in ("plain", "wood", "cloth")


def test_the_manifest_lists_every_face_once_with_hints_only_for_cards_lying_across(folder):
    entries = read_manifest(folder)
    assert [e.card for e in entries] == [card for _, card in FACES]
    truth = {t["image"]: t for t in truth_of(folder)}
    for entry in entries:
        assert (entry.top or "top") == truth[entry.image.name]["top"]
        assert card_from_json(truth[entry.image.name]["card"]) == entry.card
    assert len(enroll_faces()) == 51 and len(enroll_faces(doubles=False)) == 46
    assert {c for _, c in enroll_faces()} == set(distinct_faces())


def test_the_true_corners_cut_out_the_face_as_drawn(folder):
    for item in truth_of(folder):
        photo = cv2.imread(str(folder / item["image"]))
        cut = rectify(photo, Quad(np.float32(item["corners"])), FACE_SIZE)
        drawn = render_face(card_from_json(item["card"]))
        # light and colour cast change the levels, not the picture: compare the normalised structure
        a, b = (cv2.cvtColor(x, cv2.COLOR_BGR2GRAY).astype(np.float32) for x in (cut, drawn))
        inner = (slice(20, -20), slice(20, -20))  # off the rounded corners, where the table shows
        corr = np.corrcoef(a[inner].ravel(), b[inner].ravel())[0, 1]
        assert corr > 0.9, (item["image"], corr)


def test_enrollment_reads_the_manifest_and_refuses_a_photo_cut_inside_the_card(folder):
    outcomes = list(enroll_entries(read_manifest(folder)))
    # on this plain table the Mamma Mia! card's outline is found along its printed frame, 15 pixels
    # inside the true edge on a card 750 pixels long: enrollment refuses it and says what to do
    assert [o.status for o in outcomes] == ["ok", "ok", "ok", "ok", "failed"]
    assert outcomes[-1].note.startswith("the outline found lies inside the card")
    assert "table" in outcomes[-1].note and outcomes[-1].face is None
    assert all(o.face.shape == (FACE_SIZE[1], FACE_SIZE[0], 3) for o in outcomes[:-1])


def test_same_seed_same_bytes_and_leaving_doubles_out_changes_no_other_photo(tmp_path):
    first, second = tmp_path / "a", tmp_path / "b"
    write_enroll_photos(first, HARD_STYLE, 7, faces=FACES[:2])
    write_enroll_photos(second, HARD_STYLE, 7, faces=FACES[:1])
    assert (first / "ingredient-salami.jpg").read_bytes() == (second / "ingredient-salami.jpg").read_bytes()
    write_enroll_photos(second, HARD_STYLE, 7, faces=FACES[:2])
    assert (first / "double-olive.jpg").read_bytes() == (second / "double-olive.jpg").read_bytes()
    assert (first / TRUTH).read_bytes() == (second / TRUTH).read_bytes()


def test_shots_are_handheld_portraits_and_landscapes_with_the_card_whole():
    rng = np.random.default_rng(5)
    shots = [sample_card_shot(rng) for _ in range(60)]
    assert {s.orientation for s in shots} == {"portrait", "landscape"}
    for shot in shots:
        assert shot.camera.tilt <= MAX_TILT and abs(shot.camera.roll) <= 5
        across = abs(abs(shot.pose.angle) - 90) < 10
        assert across == (shot.orientation == "landscape" and abs(shot.pose.angle) > 45)
    assert card_share(np.array([[0, 0], [10, 0], [10, 10], [0, 10]]), (20, 10)) == pytest.approx(0.5)
    assert top_side(np.array([[20, 30], [10, 30], [10, 0], [20, 0]])) == "bottom"
