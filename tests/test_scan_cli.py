"""``mamma-mia scan``: the JSON contract on the sample photos, bad files in a
batch, annotation, the progress summary, another deck with --deck, and the
benchmark plug-in that runs the same recogniser."""
from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion import cli
from companion.assets import SAMPLE_PHOTOS
from companion.commands import scan
from companion.engine import card_from_json, parse_card
from vision.recognize.config import DEFAULT_CONFIG
from vision.catalog import distinct_faces
from tools.synth.deck_art import render_face
from tools.synth.deck_files import load_deck
from vision.recognize.annotate import SURE, UNSURE, annotate
from vision.recognize.decks import DEFAULT_DECK_DIR
from vision.recognize.identify import ReferenceDeck
from vision.recognize.pipeline import Recogniser
from tools.bench.plugins.recognise import make_recogniser
from vision.recognize.types import Detection, Match
from tools.synth.style import STYLES

from .test_enroll import card_photo, write_faces

PHOTOS = SAMPLE_PHOTOS
TRUTH = {p["image"]: p for p in json.loads((PHOTOS / "photos.json").read_text())["photos"]}
# sample photos on which an outline is off by more than a tenth of the card's width (reported, not hidden):
OUTLINE_OFF = {"layout-07.jpg"}  # the double olive, smeared 10 px by motion, outlined on its printed frame
EXTRA_CARDS = {"top-04.jpg"}  # at times salami and mushroom where only covered orders peek out


def run_cli(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(argv)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def sample_scan() -> tuple[int, dict, str]:
    code, out, err = run_cli(["scan", "--json", *(str(PHOTOS / name) for name in sorted(TRUTH))])
    return code, json.loads(out), err


def _found(sample_scan, name: str) -> dict:
    return next(i for i in sample_scan[1]["images"] if Path(i["path"]).name == name)


def test_module_protocol():
    assert scan.NAME == "scan" and scan.HELP and '"runner_up"' in scan.__doc__
    assert "scan" in cli.build_parser().format_help() and "enroll" in cli.build_parser().format_help()


def test_the_json_contract_shape(sample_scan):
    code, result, _ = sample_scan
    assert code == 0
    assert [Path(i["path"]).name for i in result["images"]] == sorted(TRUTH)
    for image in result["images"]:
        assert set(image) == {"path", "ms", "cards"} and image["ms"] >= 0
        assert image["ms"] == round(image["ms"], 1)
        for card in image["cards"]:
            assert set(card) == {"card", "confidence", "corners", "runner_up", "sure"}
            card_from_json(card["card"])
            # the recogniser's one rule: confident, and clearly ahead of the runner-up
            lead = card["confidence"] - (card["runner_up"] or {"confidence": 0.0})["confidence"]
            assert card["sure"] == (card["confidence"] >= DEFAULT_CONFIG.sure_confidence
                                    and lead >= DEFAULT_CONFIG.sure_margin - 0.001)
            assert 0 <= card["confidence"] <= 1
            assert np.array(card["corners"]).shape == (4, 2)
            if card["runner_up"] is not None:
                assert set(card["runner_up"]) == {"card", "confidence"}
                assert card_from_json(card["runner_up"]["card"]) != card_from_json(card["card"])


@pytest.mark.parametrize("name", sorted(TRUTH))
def test_every_top_card_of_the_samples_is_found(sample_scan, name):
    truth = sorted(card_from_json(c["card"]).notation for c in TRUTH[name]["cards"] if c["top"])
    found = [card_from_json(c["card"]).notation for c in _found(sample_scan, name)["cards"]]
    assert all(found.count(card) >= truth.count(card) for card in truth), found
    if name not in EXTRA_CARDS:
        allowed = {card_from_json(c["card"]).notation for c in TRUTH[name]["cards"]}
        assert set(found) <= allowed


@pytest.mark.parametrize("name", sorted(set(TRUTH) - OUTLINE_OFF))
def test_corners_are_near_the_truth(sample_scan, name):
    found = _found(sample_scan, name)["cards"]
    for truth in (c for c in TRUTH[name]["cards"] if c["top"]):
        corners = np.array(truth["corners"])
        width = np.linalg.norm(corners[1] - corners[0])  # TL -> TR: the face's short side
        errors = [np.linalg.norm(np.array(f["corners"]) - corners, axis=1).max()
                  for f in found if card_from_json(f["card"]) == card_from_json(truth["card"])]
        assert min(errors) < 0.1 * width, (truth["card"], errors)


def test_many_images_end_with_a_summary_line(sample_scan):
    err = sample_scan[2]  # redirected, so no progress bar frames
    assert "\r" not in err and err.splitlines()[-1] == "scan: 10 images scanned"


def test_one_image_prints_a_line_and_nothing_on_stderr():
    code, out, err = run_cli(["scan", str(PHOTOS / "top-05.jpg")])
    assert code == 0 and err == ""
    assert len(out.splitlines()) == 1
    assert out.startswith(f"{PHOTOS / 'top-05.jpg'}: green order 4 pineapple + 1 pepper 0.")


def test_a_photo_without_cards_says_so():
    assert run_cli(["scan", str(PHOTOS / "empty-08.jpg")])[1] == f"{PHOTOS / 'empty-08.jpg'}: no card found\n"


def bad_files(folder: Path) -> dict[str, Path]:
    good = (PHOTOS / "empty-08.jpg").read_bytes()
    files = {"empty": folder / "empty.jpg", "truncated": folder / "cut.jpg", "text": folder / "notes.jpg",
             "folder": folder / "album", "missing": folder / "gone.png"}
    files["empty"].write_bytes(b"")
    files["truncated"].write_bytes(good[: len(good) // 2])
    files["text"].write_text("not a photo\n")
    files["folder"].mkdir()
    return files


def test_bad_files_are_reported_and_the_rest_still_scanned(tmp_path):
    bad = bad_files(tmp_path)
    paths = [str(bad["empty"]), str(PHOTOS / "top-05.jpg"), str(bad["truncated"]), str(bad["text"]),
             str(bad["folder"]), str(bad["missing"]), str(PHOTOS / "empty-08.jpg")]
    code, out, err = run_cli(["scan", "--json", *paths])
    assert code == 1
    images = json.loads(out)["images"]
    assert [i["path"] for i in images] == paths
    errors = {Path(i["path"]).name: i["error"] for i in images if "error" in i}
    assert errors["empty.jpg"].startswith("empty file")
    assert errors["cut.jpg"].startswith("truncated image")
    assert errors["notes.jpg"].startswith("not an image file")
    assert "folder" in errors["album"] and "cannot read" in errors["gone.png"]
    assert card_from_json(images[1]["cards"][0]["card"]) == parse_card("g:4A+P")
    assert images[6]["cards"] == []
    lines = [line.split("\r")[-1] for line in err.splitlines()]
    for path in paths:
        if Path(path).name in errors:
            assert f"scan: {path}: {errors[Path(path).name]}" in lines
    assert "7 images scanned, 5 could not be read" in err


def test_a_bad_file_alone_exits_1_with_one_line(tmp_path):
    path = bad_files(tmp_path)["truncated"]
    code, out, err = run_cli(["scan", str(path)])
    assert code == 1 and out == ""
    assert err == f"scan: {path}: truncated image: the file ends before the image does " \
                  f"(an interrupted copy or download?)\n"


def test_a_deck_that_cannot_be_used_exits_2(tmp_path):
    code, out, err = run_cli(["scan", "--deck", str(tmp_path / "nowhere"), str(PHOTOS / "top-05.jpg")])
    assert code == 2 and out == ""
    assert err.startswith("scan: cannot use the deck: ") and "no such folder" in err and err.count("\n") == 1


def test_annotate_writes_each_image_with_the_cards_drawn(tmp_path):
    out_dir = tmp_path / "annotated"
    names = ["top-05.jpg", "layout-07.jpg"]
    code, out, _ = run_cli(["scan", "--json", "--annotate", str(out_dir), *(str(PHOTOS / n) for n in names)])
    assert code == 0
    for name, image in zip(names, json.loads(out)["images"]):
        original = cv2.imread(str(PHOTOS / name))
        drawn = cv2.imread(str(out_dir / name.replace(".jpg", "-annotated.jpg")))
        assert drawn.shape == original.shape
        x, y = np.round(image["cards"][0]["corners"][0]).astype(int)  # the top-left dot
        assert min(np.abs(drawn[y, x].astype(int) - colour).max() for colour in (SURE, UNSURE)) < 60
        assert np.abs(drawn.astype(int) - original).mean() > 1


def test_annotation_survives_cards_at_and_beyond_the_image_edge():
    image = np.full((200, 300, 3), 128, np.uint8)
    corners = np.array([[-40, -30], [120, -10], [110, 230], [-50, 210]], np.float32)
    match = Match(parse_card("S"), 0.6, False, parse_card("P"), 0.58)
    drawn = annotate(image, [Detection(match, corners)])
    assert drawn.shape == image.shape and not np.array_equal(drawn, image)
    assert np.array_equal(image, np.full((200, 300, 3), 128, np.uint8))  # the input is left alone


@pytest.fixture(scope="module")
def alt_deck(tmp_path_factory) -> Path:
    folder = write_faces(tmp_path_factory.mktemp("alt-deck"), distinct_faces(), STYLES["alt"])
    code, _, err = run_cli(["enroll", str(folder)])
    assert code == 0, err
    return folder


def test_scan_with_an_enrolled_deck_of_another_style(alt_deck, tmp_path):
    card = parse_card("y:A+4M")
    photo = card_photo(render_face(card, STYLES["alt"]), [[330, 110], [600, 140], [585, 560], [300, 535]])
    path = tmp_path / "alt.jpg"
    cv2.imwrite(str(path), photo)
    code, out, _ = run_cli(["scan", "--json", "--deck", str(alt_deck), str(path)])
    assert code == 0
    cards = json.loads(out)["images"][0]["cards"]
    assert card_from_json(cards[0]["card"]) == card and cards[0]["confidence"] > 0.8
    assert np.abs(np.array(cards[0]["corners"]) - [[330, 110], [600, 140], [585, 560], [300, 535]]).max() < 10


def test_the_benchmark_plugin_reports_what_scan_finds():
    deck = load_deck(DEFAULT_DECK_DIR)
    recogniser = make_recogniser(deck)
    assert recogniser.name
    image = cv2.imread(str(PHOTOS / "top-05.jpg"))
    found = recogniser.identify_photo(image)
    assert found and all(isinstance(d, Detection) for d in found)
    assert found[0].card == parse_card("g:4A+P") and len(found[0].corners) == 4
    direct = Recogniser(ReferenceDeck.from_faces((f.card, f.image) for f in deck)).recognise(image)
    assert [(d.card, d.confidence) for d in found] == [(d.card, d.confidence) for d in direct]
    assert np.allclose(np.array(found[0].corners), direct[0].corners)


def test_an_annotation_folder_that_cannot_be_made_exits_2(tmp_path):
    blocker = tmp_path / "taken"
    blocker.write_text("a file, not a folder")
    code, out, err = run_cli(["scan", "--annotate", str(blocker / "out"), str(PHOTOS / "empty-08.jpg")])
    assert code == 2 and out == "" and err.startswith("scan: cannot write annotated images to ")
