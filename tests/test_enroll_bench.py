"""The enrollment benchmark: it runs the real command on phone photos, counts
what was enrolled and refused, and tells a face cut along the card's edge
from one cut inside it, out over the table or the wrong way up."""
from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from companion.engine import parse_card
from tools.bench import enroll_bench
from tools.bench.enroll_cuts import measure_cut
from tools.synth.enroll_photos import card_photo, write_enroll_photos
from tools.synth.style import HARD_STYLE, STYLES
from vision.catalog import distinct_faces
from vision.cvcompat import decode_image
from vision.recognize.enroll import FACE_SIZE
from vision.recognize.rectify import image_outline, rectify
from vision.recognize.types import Quad


@pytest.fixture(scope="module")
def photo():
    card = parse_card("g:4A+P")
    taken = card_photo(HARD_STYLE, 21, distinct_faces().index(card), card)
    return decode_image(taken.photo.jpeg), np.float32(taken.corners)


def cut_at(image: np.ndarray, corners: np.ndarray, grow: float, turned: bool = False) -> np.ndarray:
    centre = corners.mean(axis=0)
    quad = (corners - centre) * grow + centre
    return rectify(image, Quad(np.float32(quad[[2, 3, 0, 1]] if turned else quad)), FACE_SIZE)


@pytest.mark.parametrize("grow, verdict", [(1.0, "good"), (0.95, "inside"), (0.92, "inside"), (1.05, "table")])
def test_a_cut_is_judged_by_where_its_corners_land(photo, grow, verdict):
    image, corners = photo
    cut = measure_cut(image, corners, cut_at(image, corners, grow))
    assert cut.verdict == verdict
    # where the cut's corners lie on the card, seen square-on
    to_face = cv2.getPerspectiveTransform(corners, image_outline(*FACE_SIZE))
    grown = cv2.perspectiveTransform(np.float32([(corners - corners.mean(axis=0)) * grow + corners.mean(axis=0)]),
                                     to_face)[0]
    error = np.linalg.norm(grown - image_outline(*FACE_SIZE), axis=1).max() / FACE_SIZE[0]
    assert cut.corner_error == pytest.approx(error, abs=0.015)
    assert cut.area == pytest.approx(grow ** 2, abs=0.04)


def test_a_face_the_wrong_way_up_is_told(photo):
    image, corners = photo
    assert measure_cut(image, corners, cut_at(image, corners, 1.0, turned=True)).verdict == "turned"


def test_a_cut_far_off_the_card_is_off(photo):
    image, corners = photo
    skewed = corners.copy()
    skewed[0] -= 0.5 * (corners[1] - corners[0])  # the top-left corner half a width out over the table
    cut = measure_cut(image, corners, rectify(image, Quad(skewed), FACE_SIZE))
    assert cut.verdict == "off" and not cut.aligned


def test_the_bench_runs_the_command_and_reports_outcomes_time_and_cuts(tmp_path, capsys):
    faces = [(distinct_faces().index(parse_card(t)), parse_card(t)) for t in ("S", "r:S+6J")]
    write_enroll_photos(tmp_path / "photos", STYLES["default"], 2104, faces=faces)
    manifest = tmp_path / "photos" / "manifest.json"
    data = json.loads(manifest.read_text())
    data["cards"].append({"image": "nowhere.jpg", "card": "A"})
    manifest.write_text(json.dumps(data))
    out = tmp_path / "result.json"
    assert enroll_bench.main([str(tmp_path / "photos"), "--out", str(out)]) == 0
    result = json.loads(out.read_text())
    assert result["enroll"]["exit_code"] == 1 and result["enroll"]["counts"] == {"ok": 2, "failed": 1}
    assert result["enroll"]["cpu_seconds"] > 0 and result["cuts"] is None
    assert "refused 1" in capsys.readouterr().out
    manifest.write_text(json.dumps({"cards": data["cards"][:2]}))
    assert enroll_bench.main([str(tmp_path / "photos"), "--out", str(out)]) == 0
    result = json.loads(out.read_text())
    assert result["enroll"]["counts"] == {"ok": 2}
    assert sum(result["cuts"]["verdicts"].values()) == 2
    assert {f["notation"] for f in result["cuts"]["faces"]} == {"S", "r:S+6J"}


def test_refused_photos_are_taken_again_as_a_player_would(tmp_path, capsys):
    faces = [(distinct_faces().index(parse_card(t)), parse_card(t)) for t in ("S", "y:A+4M")]
    folder = tmp_path / "photos"
    write_enroll_photos(folder, STYLES["default"], 2105, faces=faces)
    first = (folder / "order-yellow-A+4M.jpg").read_bytes()
    image = cv2.imdecode(np.frombuffer(first, np.uint8), cv2.IMREAD_COLOR)
    cv2.imwrite(str(folder / "order-yellow-A+4M.jpg"), np.full_like(image, 120))  # no card in it
    out = tmp_path / "result.json"
    assert enroll_bench.main([str(folder), "--out", str(out), "--retakes", "2"]) == 0
    result = json.loads(out.read_text())
    runs = result["enroll"]["runs"]
    assert len(runs) >= 2 and runs[0]["refused"][0].startswith("y:A+4M (no card found")
    assert result["enroll"]["exit_code"] == 0 and result["enroll"]["counts"] == {"ok": 2}
    assert result["enroll"]["cpu_seconds"] >= sum(run["cpu_seconds"] for run in runs) - 1e-6
    truth = json.loads((folder / "truth.json").read_text())
    assert {p["image"] for p in truth["photos"]} == {"ingredient-salami.jpg", "order-yellow-A+4M.jpg"}
    assert "taken again: y:A+4M" in capsys.readouterr().out
