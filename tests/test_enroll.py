"""Deck folders and enrollment: a player's own pictures (scans or photos)
become a deck the recogniser uses, and every way a deck folder can be wrong
gets a message that names the file and the fix."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Sequence

import cv2
import numpy as np
import pytest

from companion import cli
from companion.engine import Card, Order, card_to_json, parse_card
from tools.synth.compose import composite_card, new_labels
from vision.cvcompat import perspective
from tools.synth.deck_art import render_face
from vision.catalog import distinct_faces
from vision.recognize.decks import DEFAULT_DECK_DIR, DeckError, load_faces, load_reference_deck
from vision.recognize.enroll import FACE_SIZE, EnrollError, face_from_image, photo_quad, upright
from tools.synth.style import STYLES

ALT = STYLES["alt"]
CARDS = [parse_card(t) for t in ("S", "A2", "g:4A+P", "r:S+6J", "y:A+3?", "!")]


def card_photo(face: np.ndarray, quad: Sequence[Sequence[float]], size: tuple[int, int] = (900, 700),
               table: tuple[int, int, int] = (70, 95, 120), seed: int = 0) -> np.ndarray:
    """A photo of ``face`` lying on a plain, slightly noisy table; ``quad`` is
    where its TL, TR, BR, BL corners land (pixels)."""
    rng = np.random.default_rng(seed)
    scene = np.clip(np.full((size[1], size[0], 3), table, np.float32) + rng.normal(0, 5, (size[1], size[0], 3)),
                    0, 255).astype(np.uint8)
    h, w = face.shape[:2]
    corners = [[-0.5, -0.5], [w - 0.5, -0.5], [w - 0.5, h - 0.5], [-0.5, h - 0.5]]
    composite_card(scene, new_labels(size), 0, face, perspective(corners, quad))
    return scene


def write_manifest(folder: Path, items: list[dict]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "manifest.json").write_text(json.dumps({"cards": items}))
    return folder


def write_faces(folder: Path, cards: Sequence[Card], style=ALT) -> Path:
    """Tight face scans of ``cards`` plus their manifest."""
    folder.mkdir(parents=True, exist_ok=True)
    items = []
    for k, card in enumerate(cards):
        cv2.imwrite(str(folder / f"face{k}.png"), render_face(card, style), [cv2.IMWRITE_PNG_COMPRESSION, 1])
        items.append({"image": f"face{k}.png", "card": card_to_json(card)})
    return write_manifest(folder, items)


def inner_difference(a: np.ndarray, b: np.ndarray) -> float:
    """Mean absolute difference at a quarter of the face size (a photo's card
    is smaller than the face, so fine detail is blurred), rounded corners and
    border left out: 0..255."""
    def small(face: np.ndarray) -> np.ndarray:
        return cv2.resize(face, (100, 156), interpolation=cv2.INTER_AREA).astype(np.float32)
    return float(np.abs(small(a) - small(b))[6:-6, 6:-6].mean())


def enroll(folder: Path, capsys) -> tuple[int, str, str]:
    code = cli.main(["enroll", str(folder)])
    out, err = capsys.readouterr()
    return code, out, err


# --- loading decks ---------------------------------------------------------------

def test_the_default_deck_is_the_bundled_stand_in_deck():
    assert (DEFAULT_DECK_DIR / "manifest.json").is_file()
    assert len(load_reference_deck()) == 51


@pytest.mark.parametrize("manifest, message", [
    ("{not json", "not valid JSON"),
    ('{"faces": []}', '"cards"'),
    ('{"cards": []}', "lists no cards"),
    ('{"cards": ["S"]}', "cards[0]"),
    ('{"cards": [{"image": "a.png"}]}', "'card' is missing"),
    ('{"cards": [{"card": "S"}]}', "'image' is missing"),
    ('{"cards": [{"image": "a.png", "card": {"kind": "pizza"}}]}', "cards[0]: unknown card kind"),
    ('{"cards": [{"image": "a.png", "card": "S", "top": "up"}]}', "'top' must be one of"),
])
def test_a_bad_manifest_is_named_with_its_fault(tmp_path, manifest, message):
    (tmp_path / "manifest.json").write_text(manifest)
    with pytest.raises(DeckError, match="manifest.json") as error:
        load_faces(tmp_path)
    assert message in str(error.value)


def test_a_missing_folder_or_manifest(tmp_path):
    with pytest.raises(DeckError, match="no such folder"):
        load_faces(tmp_path / "nowhere")
    with pytest.raises(DeckError, match="manifest.json: missing"):
        load_faces(tmp_path)


def test_a_missing_image(tmp_path):
    write_faces(tmp_path, CARDS[:2])
    (tmp_path / "face1.png").unlink()
    with pytest.raises(DeckError, match=r"face1.png: missing .*for A2"):
        load_faces(tmp_path)


def test_a_duplicate_card(tmp_path):
    write_faces(tmp_path, [CARDS[0], CARDS[1], CARDS[0]])
    with pytest.raises(DeckError, match=r"S is listed twice \(face0.png and face2.png\)"):
        load_faces(tmp_path)


def test_an_unreadable_image(tmp_path):
    write_faces(tmp_path, CARDS[:2])
    (tmp_path / "face0.png").write_bytes(b"this is not a picture")
    with pytest.raises(DeckError, match="face0.png: not an image file"):
        load_faces(tmp_path)


def test_photos_are_not_taken_for_faces_before_enrollment(tmp_path):
    photo = card_photo(render_face(CARDS[0], ALT), [[300, 100], [560, 110], [550, 520], [290, 510]])
    cv2.imwrite(str(tmp_path / "photo.jpg"), photo)
    write_manifest(tmp_path, [{"image": "photo.jpg", "card": "S"}])
    with pytest.raises(DeckError, match=f"run: mamma-mia enroll {tmp_path}"):
        load_faces(tmp_path)


# --- enrollment --------------------------------------------------------------------

def test_tight_scans_are_enrolled_and_become_the_deck(tmp_path, capsys):
    folder = write_faces(tmp_path / "deck", CARDS)
    code, out, err = enroll(folder, capsys)
    assert code == 0, err
    assert f"Enrolled {len(CARDS)} faces" in out and "scan --deck" in out
    assert err.count(": scan") == len(CARDS)
    assert f"lacks {51 - len(CARDS)} of the 51 faces" in err
    manifest = json.loads((folder / "enrolled" / "manifest.json").read_text())
    assert [item["card"] for item in manifest["cards"]] == [card_to_json(c) for c in CARDS]
    faces = load_faces(folder)  # the enrolled faces, not the folder's own images
    assert [card for card, _ in faces] == CARDS
    for (card, face) in faces:
        assert face.shape == (FACE_SIZE[1], FACE_SIZE[0], 3)
        assert inner_difference(face, render_face(card, ALT)) < 1.0
    # the printed words of the enrolled faces, for unsure matches later
    index = json.loads((folder / "enrolled" / "ocr.json").read_text())
    assert [entry["card"] for entry in index["cards"]] == [card_to_json(c) for c in CARDS]
    monotoni = index["cards"][CARDS.index(parse_card("r:S+6J"))]["words"]
    assert "MONOTONI" in monotoni


def test_a_sideways_scan_is_turned_with_its_top_to_the_left(tmp_path):
    face = render_face(CARDS[2], ALT)
    turned, note = face_from_image(cv2.rotate(face, cv2.ROTATE_90_COUNTERCLOCKWISE))  # top now on the left
    assert "turned a quarter clockwise" in note
    assert inner_difference(turned, face) < 1.0
    hinted, _ = face_from_image(cv2.rotate(face, cv2.ROTATE_90_CLOCKWISE), top="right")
    assert inner_difference(hinted, face) < 1.0
    with pytest.raises(EnrollError, match="portrait scan cannot have the card's top edge on its left"):
        face_from_image(face, top="left")


PHOTO_QUADS = {
    "upright": [[330, 110], [600, 140], [585, 560], [300, 535]],
    "slanted": [[280, 200], [540, 110], [680, 480], [400, 580]],
    "close-up, in perspective": [[210, 40], [690, 40], [760, 680], [140, 680]],
}


@pytest.mark.parametrize("pose", PHOTO_QUADS)
def test_a_photo_of_a_card_gives_its_straightened_face(pose):
    face = render_face(CARDS[3], ALT)
    photo = card_photo(face, PHOTO_QUADS[pose])
    quad, note = photo_quad(photo)
    assert note.startswith("photo, card found")
    corners = upright(quad, "top").corners
    assert np.linalg.norm(corners - np.array(PHOTO_QUADS[pose]), axis=1).max() < 1.5  # pixels
    enrolled, _ = face_from_image(photo)
    assert inner_difference(enrolled, face) < 5.0


def test_an_upside_down_photo_needs_its_hint(tmp_path):
    face = render_face(CARDS[4], ALT)
    quad = PHOTO_QUADS["upright"]
    photo = card_photo(face, quad[2:] + quad[:2])  # the card's top towards the picture's bottom
    assert inner_difference(face_from_image(photo)[0], face) > 15  # the stated assumption
    assert inner_difference(face_from_image(photo, top="bottom")[0], face) < 5.0


def test_a_card_lying_across_the_photo_fails_with_a_hint():
    face = render_face(CARDS[4], ALT)
    photo = card_photo(face, [[650, 150], [650, 420], [230, 420], [230, 150]])
    with pytest.raises(EnrollError, match='add "top"'):
        face_from_image(photo)


def test_a_picture_without_a_card_fails():
    with pytest.raises(EnrollError, match="no card found"):
        face_from_image(np.full((600, 800, 3), 120, np.uint8))


def test_photos_are_enrolled_into_the_deck(tmp_path, capsys):
    folder = tmp_path / "deck"
    folder.mkdir()
    items = []
    for k, (card, pose) in enumerate(zip(CARDS, PHOTO_QUADS)):
        cv2.imwrite(str(folder / f"IMG_{k}.jpg"), card_photo(render_face(card, ALT), PHOTO_QUADS[pose], seed=k))
        items.append({"image": f"IMG_{k}.jpg", "card": card.notation})
    write_manifest(folder, items)
    code, _, err = enroll(folder, capsys)
    assert code == 0, err
    assert err.count(": photo, card found") == 3
    for card, face in load_faces(folder):
        assert inner_difference(face, render_face(card, ALT)) < 5.0


def test_a_failed_picture_writes_nothing_and_keeps_the_last_enrollment(tmp_path, capsys):
    folder = write_faces(tmp_path / "deck", CARDS[:2])
    assert enroll(folder, capsys)[0] == 0
    before = (folder / "enrolled" / "manifest.json").read_text()
    cv2.imwrite(str(folder / "blank.jpg"), np.full((600, 800, 3), 120, np.uint8))
    (folder / "cut.png").write_bytes((folder / "face0.png").read_bytes()[:500])
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["cards"] += [{"image": "blank.jpg", "card": "M"}, {"image": "cut.png", "card": "O"},
                          {"image": "gone.png", "card": "P"}]
    write_manifest(folder, manifest["cards"])
    code, out, err = enroll(folder, capsys)
    assert code == 1 and out == ""
    assert "blank.jpg: no card found" in err and "cut.png: truncated image" in err and "gone.png: missing" in err
    assert "3 of 5 pictures failed; nothing was written" in err
    assert (folder / "enrolled" / "manifest.json").read_text() == before
    assert sorted(p.name for p in folder.iterdir() if p.name.startswith(".")) == []


def test_enrolling_again_replaces_the_enrolled_faces(tmp_path, capsys):
    folder = write_faces(tmp_path / "deck", CARDS[:3])
    assert enroll(folder, capsys)[0] == 0
    write_faces(folder, CARDS[3:5])
    assert enroll(folder, capsys)[0] == 0
    assert [card for card, _ in load_faces(folder)] == CARDS[3:5]
    assert len(list((folder / "enrolled").glob("*.png"))) == 2
    assert [p.name for p in folder.iterdir() if p.name.startswith(".")] == []


def test_a_duplicate_picture_is_skipped_with_a_warning(tmp_path, capsys):
    folder = write_faces(tmp_path / "deck", [CARDS[0], CARDS[1], CARDS[0]])
    code, _, err = enroll(folder, capsys)
    assert code == 0
    assert "skipped" in err and "face2.png: a second image of this card (the first, face0.png, is used)" in err
    assert [card for card, _ in load_faces(folder)] == CARDS[:2]


def test_an_unknown_face_is_warned_about(tmp_path, capsys):
    folder = write_faces(tmp_path / "deck", [CARDS[0]])
    write_manifest(folder, [{"image": "face0.png", "card": "g:9S"}])
    code, _, err = enroll(folder, capsys)
    assert code == 0 and "not faces of the classic deck" in err and "g:9S" in err


@pytest.mark.parametrize("setup, message", [
    (lambda d: None, "no such folder"),
    (lambda d: d.mkdir(), "manifest.json: missing"),
    (lambda d: write_manifest(d, [{"image": "x.png", "card": "Z"}]), "cards[0]"),
])
def test_a_bad_deck_folder_exits_2(tmp_path, capsys, setup, message):
    folder = tmp_path / "deck"
    setup(folder)
    code, out, err = enroll(folder, capsys)
    assert code == 2 and out == ""
    assert err.startswith("enroll: ") and message in err and err.count("\n") == 1


def test_a_photo_teaching_would_refuse_is_refused_with_its_reason(tmp_path, capsys):
    """The checks of teaching from the tablet: a face taught from a washed-out
    photo would spoil every later reading of its card."""
    folder = tmp_path / "deck"
    folder.mkdir()
    photo = card_photo(render_face(CARDS[0], ALT), PHOTO_QUADS["upright"])
    cv2.ellipse(photo, (450, 330), (90, 60), 20, 0, 360, (255, 255, 255), -1)
    cv2.imwrite(str(folder / "shiny.jpg"), photo)
    write_manifest(folder, [{"image": "shiny.jpg", "card": CARDS[0].notation}])
    code, out, err = enroll(folder, capsys)
    assert code == 1 and out == ""
    assert "shiny.jpg: part of the card is washed out by glare" in err and "move the light" in err
    assert not (folder / "enrolled").exists()


def test_an_order_cut_unlike_the_other_orders_is_refused(tmp_path, capsys):
    """Each picture alone passes, but one order's face was cut well inside its
    edge: set beside the other orders of the printing, it does not fit."""
    folder = tmp_path / "deck"
    folder.mkdir()
    orders = [card for card in distinct_faces() if isinstance(card, Order)][:12]
    items = []
    for k, card in enumerate(orders):
        face = render_face(card, ALT)
        if k == 5:
            height, width = face.shape[:2]
            inset = round(0.06 * width)
            face = cv2.resize(face[inset:height - inset, inset:width - inset], (width, height))
        cv2.imwrite(str(folder / f"face{k}.png"), face)
        items.append({"image": f"face{k}.png", "card": card.notation})
    write_manifest(folder, items)
    code, out, err = enroll(folder, capsys)
    assert code == 1 and out == ""
    refused = [line for line in err.splitlines() if line.lstrip().startswith("failed")]
    assert len(refused) == 1 and "face5.png" in refused[0] and "1 of 12 pictures failed" in err
    assert "cut differently from the other cards like it" in refused[0] or \
        "looks like none of the other orders" in refused[0]
