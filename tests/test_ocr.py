"""The Tesseract second opinion: the text index of enrolled faces, and the
re-ranking of unsure detections. These run the real Tesseract (a few seconds
in all); no timings are asserted."""
from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.engine import Card, card_to_json, parse_card
from vision.recognize import ocr
from vision.recognize.config import DEFAULT_CONFIG
from vision.recognize.decks import load_faces
from vision.recognize.ocr import (
    INDEX_FILE,
    TextIndex,
    build_text_index,
    consult,
    load_text_index,
    second_opinion,
)
from vision.recognize.textread import similarity
from vision.recognize.types import Detection, Match

MONOTONI, MINIMALE, BOMBASTICA = parse_card("r:S+6J"), parse_card("r:S+3?"), parse_card("r:15+")
PLAIN, OTHER_PLAIN = parse_card("r:S+4A"), parse_card("r:S+4M")
SALAMI, DOUBLE_SALAMI = parse_card("S"), parse_card("S2")
SUBSET = (MONOTONI, MINIMALE, BOMBASTICA, PLAIN, OTHER_PLAIN, SALAMI, DOUBLE_SALAMI,
          parse_card("y:A+6J"), parse_card("y:A+4M"), parse_card("O"))


@pytest.fixture(scope="module")
def faces() -> dict[Card, np.ndarray]:
    """Some faces of the stand-in deck: specials, plain orders, single and double."""
    return {card: image for card, image in load_faces(None) if card in SUBSET}


@pytest.fixture(scope="module")
def index(faces: dict[Card, np.ndarray]) -> TextIndex:
    return build_text_index(faces.items())


def on_table(face: np.ndarray, size: tuple[int, int] = (900, 800)) -> tuple[np.ndarray, np.ndarray]:
    """``face`` lying slightly turned and in perspective on a plain table, about
    as large as in a photo; returns the image and the face's TL, TR, BR, BL corners."""
    corners = np.array([[300, 170], [575, 195], [560, 625], [270, 600]], np.float32)
    height, width = face.shape[:2]
    source = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
    table = np.full((size[1], size[0], 3), (90, 110, 130), np.uint8)
    matrix = cv2.getPerspectiveTransform(source, corners)
    warped = cv2.warpPerspective(face, matrix, size, flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.full((height, width), 255, np.uint8), matrix, size) > 127
    table[mask] = warped[mask]
    noise = np.random.default_rng(5).normal(0, 3, table.shape)
    return np.clip(table + noise, 0, 255).astype(np.uint8), corners


def unsure(card: Card, runner_up: Card, corners: np.ndarray, confidence: float = 0.74,
           margin: float = 0.01) -> Detection:
    return Detection(Match(card, confidence, False, runner_up, confidence - margin), corners)


def test_index_holds_the_words_printed_on_the_special_and_double_faces(index: TextIndex) -> None:
    assert "MONOTONI" in index.words[MONOTONI]
    assert "MINIMALE" in index.words[MINIMALE]
    assert "BOMBASTICA" in index.words[BOMBASTICA]
    assert "X2" in index.words[DOUBLE_SALAMI] and "X2" not in index.words[SALAMI]
    assert "SALAMI" in index.words[SALAMI]


def test_a_heading_on_many_faces_weighs_less_than_a_name_on_few(index: TextIndex) -> None:
    heading = next(w for w in index.words[PLAIN])  # the only word of a plain order
    assert all(heading in index.words[c] for c in (MONOTONI, MINIMALE, BOMBASTICA, OTHER_PLAIN))
    assert index.weights[heading] < index.weights["MONOTONI"]
    assert index.weights[heading] < index.weights["X2"]


def test_a_sure_detection_is_returned_untouched_without_reading(faces: dict[Card, np.ndarray],
                                                               index: TextIndex) -> None:
    image, corners = on_table(faces[MONOTONI])
    # sure even though the text would say otherwise: the text is not consulted
    sure = Detection(Match(MINIMALE, 0.95, False, MONOTONI, 0.80), corners)
    opinion = consult(image, sure, index)
    assert opinion.read is None
    assert second_opinion(image, sure, index) is sure


def test_an_unsure_detection_moves_to_the_runner_up_whose_name_is_printed(
        faces: dict[Card, np.ndarray], index: TextIndex) -> None:
    image, corners = on_table(faces[MONOTONI])
    found = second_opinion(image, unsure(MINIMALE, MONOTONI, corners), index)
    assert found.card == MONOTONI
    assert found.match.runner_up == MINIMALE
    assert found.match.confidence == pytest.approx(0.73)  # the visual similarities are kept
    assert found.match.margin < 0  # decided by the text
    np.testing.assert_array_equal(found.corners, corners)


def test_a_double_is_told_from_a_single_by_its_printed_count(faces: dict[Card, np.ndarray],
                                                            index: TextIndex) -> None:
    image, corners = on_table(faces[DOUBLE_SALAMI])
    assert second_opinion(image, unsure(SALAMI, DOUBLE_SALAMI, corners), index).card == DOUBLE_SALAMI


def test_text_agreeing_with_the_top_card_keeps_it(faces: dict[Card, np.ndarray], index: TextIndex) -> None:
    image, corners = on_table(faces[MONOTONI])
    detection = unsure(MONOTONI, MINIMALE, corners)
    opinion = consult(image, detection, index)
    assert opinion.read is not None and opinion.top_support > opinion.runner_up_support
    assert opinion.detection is detection


def test_faces_without_distinguishing_text_are_left_alone(faces: dict[Card, np.ndarray],
                                                          index: TextIndex) -> None:
    # two plain orders of one colour share every printed word: only the picture tells them apart
    image, corners = on_table(faces[PLAIN])
    detection = unsure(OTHER_PLAIN, PLAIN, corners)
    opinion = consult(image, detection, index)
    assert opinion.read is not None
    assert opinion.detection is detection


def test_a_detection_far_ahead_of_its_runner_up_is_not_read(faces: dict[Card, np.ndarray],
                                                            index: TextIndex) -> None:
    image, corners = on_table(faces[MONOTONI])
    low_but_clear = unsure(MINIMALE, MONOTONI, corners, confidence=0.72,
                           margin=index.config.max_visual_margin + 0.05)
    assert not DEFAULT_CONFIG.is_sure(low_but_clear.match)
    assert consult(image, low_but_clear, index).read is None


def test_the_index_is_saved_beside_the_deck_and_reused_until_the_faces_change(
        tmp_path: Path, faces: dict[Card, np.ndarray], monkeypatch: pytest.MonkeyPatch) -> None:
    chosen = (MONOTONI, DOUBLE_SALAMI, SALAMI)
    items = []
    for number, card in enumerate(chosen):
        cv2.imwrite(str(tmp_path / f"{number}.png"), faces[card])
        items.append({"image": f"{number}.png", "card": card_to_json(card)})
    (tmp_path / "manifest.json").write_text(json.dumps({"cards": items}))
    built = load_text_index(tmp_path, write=True)
    assert (tmp_path / INDEX_FILE).is_file()
    assert "MONOTONI" in built.words[MONOTONI]

    def no_reading(*args: object, **kwargs: object) -> TextIndex:
        raise AssertionError("the saved index should have been used")

    monkeypatch.setattr(ocr, "build_text_index", no_reading)
    assert load_text_index(tmp_path).words == built.words
    # another image for a card: the saved index is stale and the faces are read again
    cv2.imwrite(str(tmp_path / "0.png"), faces[MINIMALE])
    with pytest.raises(AssertionError, match="saved index"):
        load_text_index(tmp_path)


def test_the_index_survives_a_round_trip_through_json(index: TextIndex) -> None:
    again = TextIndex.from_json(json.loads(json.dumps(index.to_json())))
    assert again.words == index.words
    assert again.weights == pytest.approx(index.weights)


def test_similarity_tolerates_a_misread_letter() -> None:
    assert similarity("MONOTONI", "MONOTONI") == 1.0
    assert similarity("MONOTONI", "MONOTON1") == pytest.approx(7 / 8)
    assert similarity("X2", "SALAMI") < 0.5
    assert similarity("", "X2") == 0.0
