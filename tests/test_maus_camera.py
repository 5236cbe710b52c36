"""The Maus au Chocolat camera: laid cards read left to right, never wrong and sure."""
from __future__ import annotations

import json
from dataclasses import replace

import cv2
import numpy as np
import pytest

from companion.assets import MAUS_DECK_DIR
from companion.maus.engine import Card, Deck

from tools.synth.backgrounds import table_background
from tools.synth.camera_effects import CameraLook, shoot
from tools.synth.datasets import item_rng
from tools.synth.maus_art import render_maus_deck, render_maus_face
from tools.synth.maus_photo import MausArt, left_to_right, random_laid_photo, sample_laid_spec
from tools.synth.maus_style import ALT_MAUS_STYLE
from tools.synth.synth_photo import render_table_photo
from vision.cvcompat import encode_jpeg
from vision.maus import BadImage, MausDeck, MausReader, load_maus_faces
from vision.maus.numbers import TesseractNumerals, read_face
from vision.recognize.decks import DeckError
from vision.recognize.imagefile import ImageFileError
from vision.recognize.types import Quad


@pytest.fixture(scope="module")
def reader() -> MausReader:
    return MausReader.standin()


@pytest.fixture(scope="module")
def art() -> MausArt:
    return MausArt.of()


def _parts(cards) -> list[tuple[str, int]]:
    return [(card.ingredient.value, card.value) for card in cards]


@pytest.mark.parametrize("index", [0, 1, 2])
def test_a_laid_row_is_read_left_to_right_right_and_sure(reader, art, index):
    photo = random_laid_photo(art, item_rng(424242, index))
    reading = reader.read(photo.image)
    assert _parts(c.card for c in reading.cards) == _parts(left_to_right(photo))
    assert reading.sure
    assert all(0.0 < card.confidence <= 1.0 for card in reading.cards)


def test_the_coins_of_a_bid_row_are_read(reader, art):
    """Bids compare coins: on a clear photo each card's coins are read right
    (the colour, value and coins together), some of them surely."""
    spec = sample_laid_spec(item_rng(7, 1), list(art.faces), count=4)
    spec = replace(spec, look=CameraLook(noise=2.0, jpeg_quality=90))
    photo = render_table_photo(art.faces, spec, item_rng(7, 2), art.back)
    reading = reader.read(photo.image)
    truth = left_to_right(photo)
    assert [c.card for c in reading.cards] == truth
    assert any(c.coins.sure for c in reading.cards)


def test_a_photo_file_is_read_from_its_bytes(reader, art):
    photo = random_laid_photo(art, item_rng(424242, 0))
    assert _parts(c.card for c in reader.read_bytes(photo.jpeg).cards) == _parts(left_to_right(photo))


def test_a_card_half_out_of_the_picture_is_unsure_or_absent(reader, art):
    """The picture cut through the middle of the rightmost card: whatever is
    read of it is not sure, and the whole cards are still read right."""
    for index in range(3):
        photo = random_laid_photo(art, item_rng(5151, index))
        ordered = sorted(photo.cards, key=lambda t: float(np.mean(t.corners, axis=0)[0]))
        cut = int(np.mean(ordered[-1].corners, axis=0)[0])
        reading = reader.read(np.ascontiguousarray(photo.image[:, :cut]))
        whole = [t.card for t in ordered[:-1]]
        read = list(reading.cards)
        assert _parts(c.card for c in read[:len(whole)]) == _parts(whole)
        assert all(not card.sure for card in read[len(whole):])
        assert len(read) <= len(whole) + 1


def test_a_card_mostly_hidden_is_unsure_or_absent(reader, art):
    """A sheet of paper over most of a card's value: that card is not read
    wrong and sure (its colour alone may still be sure)."""
    photo = random_laid_photo(art, item_rng(424242, 1))
    image = photo.image.copy()
    hidden = left_to_right(photo)
    target = sorted(photo.cards, key=lambda t: float(np.mean(t.corners, axis=0)[0]))[1]
    corners = np.array(target.corners)
    x0, y0 = corners.min(axis=0).astype(int)
    x1, y1 = corners.max(axis=0).astype(int)
    image[y0:(y0 + y1) // 2 + (y1 - y0) // 5, x0:x1 + 1] = (235, 235, 235)
    reading = reader.read(image)
    for card in reading.cards:
        true = min(photo.cards, key=lambda t: float(np.linalg.norm(np.mean(t.corners, axis=0) - card.centre)))
        if card.sure:
            assert (card.ingredient, card.card.value) == (true.card.ingredient, true.card.value)
    assert len(reading.cards) <= len(hidden)


def test_an_empty_table_reads_nothing(reader):
    for index, kind in enumerate(("wood", "cloth", "busy")):
        rng = item_rng(99, index)
        scene = table_background(kind, (1280, 720), rng)
        reading = reader.read(shoot(scene, CameraLook.sample((1280, 720), rng), rng).image)
        assert reading.cards == ()
        assert not reading.sure


@pytest.mark.parametrize("image, message", [
    (None, "expected an image array, not NoneType"),
    (np.zeros((100, 100), np.uint8), "expected an 8-bit colour image"),
    (np.zeros((100, 100, 3), np.float32), "expected an 8-bit colour image"),
    (np.zeros((10, 100, 3), np.uint8), "too small to show a card"),
])
def test_bad_images_are_refused(reader, image, message):
    with pytest.raises(BadImage, match=message):
        reader.read(image)


def test_bad_files_are_refused(reader):
    with pytest.raises(ImageFileError):
        reader.read_bytes(b"this is not a photo")
    with pytest.raises(ImageFileError):
        reader.read_bytes(encode_jpeg(np.zeros((100, 100, 3), np.uint8), 80)[:200])


def test_the_shipped_stand_in_faces_are_every_distinct_face():
    faces = load_maus_faces()
    assert [card for card, _ in faces] == list(Deck.load().faces())
    assert len(faces) == 70
    assert all(card.coins is not None for card, _ in faces)


def test_a_taught_deck_of_another_art_reads_its_own_photos():
    """A table teaches its own printing (here the alt art): the reader then
    reads photos of that printing."""
    reader = MausReader(MausDeck.from_faces((f.card, f.image) for f in render_maus_deck(ALT_MAUS_STYLE)))
    photo = random_laid_photo(MausArt.of(ALT_MAUS_STYLE), item_rng(31, 0))
    reading = reader.read(photo.image)
    assert _parts(c.card for c in reading.cards) == _parts(left_to_right(photo))
    assert reading.sure


def _deck_folder(folder, notations: list[str]) -> None:
    items = []
    for notation in notations:
        name = notation.replace("/", "-") + ".png"
        cv2.imwrite(str(folder / name), render_maus_face(Card.from_notation(notation)))
        items.append({"image": name, "card": notation})
    (folder / "manifest.json").write_text(json.dumps({"cards": items}))


def test_a_deck_folder_names_its_faces_in_maus_notation(tmp_path):
    _deck_folder(tmp_path, ["g5/3", "g5/4", "r7/1"])
    faces = load_maus_faces(tmp_path)
    assert [card for card, _ in faces] == [Card.from_notation(n) for n in ("g5/3", "g5/4", "r7/1")]
    assert faces[0][1].shape == (390, 250, 3)


@pytest.mark.parametrize("card, message", [
    ("r3", r"cards\[1\]: 'r3' lacks its coins"),
    ({"kind": "ingredient"}, r"cards\[1\]: expected a card in Maus notation"),
    ("x3/2", r"cards\[1\]: unknown ingredient letter 'x'"),
])
def test_a_manifest_card_that_is_not_a_maus_face_is_refused(tmp_path, card, message):
    _deck_folder(tmp_path, ["g5/3", "g5/4"])
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    manifest["cards"][1]["card"] = card
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(DeckError, match=message):
        load_maus_faces(tmp_path)


def test_both_number_readers_read_a_clear_face():
    faces = [(f.card, f.image) for f in render_maus_deck()]
    deck = MausDeck.from_faces(faces)
    card = Card.from_notation("b6/2")
    face = render_maus_face(card)
    height, width = face.shape[:2]
    outline = Quad(np.float32([[-0.5, -0.5], [width - 0.5, -0.5], [width - 0.5, height - 0.5], [-0.5, height - 0.5]]))
    seen = read_face(face, outline)
    templates = deck.numerals.read(seen, card)
    assert (templates.value, templates.sure) == (6, True)
    assert TesseractNumerals().read(seen).value == 6
    assert deck.coins.read(seen, card).value == 2


def test_the_shipped_deck_folder_is_where_the_assets_say():
    assert (MAUS_DECK_DIR / "manifest.json").is_file()


@pytest.mark.parametrize("style", [None, ALT_MAUS_STYLE], ids=["default", "alt"])
def test_coins_are_sure_only_when_both_upper_corners_read_the_same(style):
    """A face showing 3 coins in one upper corner and 5 in the other (as a
    corner hidden or misread would) is read but never sure; the face as
    printed is read sure, on both art styles."""
    faces = [(f.card, f.image) for f in (render_maus_deck(style) if style else render_maus_deck())]
    deck = MausDeck.from_faces(faces)
    printed = dict(faces)
    three, five = Card.from_notation("r3/3"), Card.from_notation("r3/5")
    mixed = printed[three].copy()
    half = mixed.shape[1] // 2
    mixed[:, half:] = printed[five][:, half:]
    height, width = mixed.shape[:2]
    outline = Quad(np.float32([[-0.5, -0.5], [width - 0.5, -0.5], [width - 0.5, height - 0.5], [-0.5, height - 0.5]]))
    clean = deck.coins.read(read_face(printed[three], outline), three)
    assert (clean.value, clean.sure) == (3, True)
    assert deck.coins.read(read_face(mixed, outline), three).sure is False
    # each half of the box is read on its own: the left corner's 3, the right corner's 5
    config = deck.coins.config
    look = deck.coins.prints.differences(
        read_face(mixed, outline), lambda other: other.ingredient is three.ingredient and other.value == 3,
        config.coins_scales, config.coins_blur)
    assert max(look.left, key=look.left.get).coins == 3 and max(look.right, key=look.right.get).coins == 5


def test_coins_on_a_blurred_card_are_read_but_never_sure():
    """A card so blurred that a coin could melt into its neighbour: its coins
    are reported (the count read) but not sure, while a sharp one's are."""
    faces = [(f.card, f.image) for f in render_maus_deck()]
    deck = MausDeck.from_faces(faces)
    card = Card.from_notation("g5/3")
    face = dict(faces)[card]
    height, width = face.shape[:2]
    outline = Quad(np.float32([[-0.5, -0.5], [width - 0.5, -0.5], [width - 0.5, height - 0.5], [-0.5, height - 0.5]]))
    sharp = deck.coins.read(read_face(face, outline), card)
    # 3 pixels at the size the coins are read (100 pixels across)
    blurred = deck.coins.read(read_face(cv2.GaussianBlur(face, (0, 0), 3.0 * width / 100), outline), card)
    assert (sharp.value, sharp.sure) == (3, True)
    assert blurred.value is not None and blurred.sure is False
