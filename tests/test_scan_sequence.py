"""``mamma-mia scan --sequence`` on a video and on a folder of frames, the
checks on its options and inputs, and ``--camera`` (with ``--evaluate``) on
a fake camera."""
from __future__ import annotations

import json
import re
import time
from pathlib import Path

import cv2
import pytest

from companion.engine import card_from_json
from vision.cvcompat import write_mjpg_avi
from vision.track import sources
from vision.track.sources import LatestFrameCamera

from .test_scan_cli import run_cli
from .test_track_tracker import RUNS, SIZE, flip_video


@pytest.fixture(scope="module")
def recorded(tmp_path_factory) -> dict[str, Path]:
    """The short test video as an MJPEG AVI and as a folder of JPEG frames."""
    folder = tmp_path_factory.mktemp("flip")
    _, frames = flip_video()
    write_mjpg_avi(folder / "flip.avi", frames, 15.0, SIZE)
    (folder / "frames").mkdir()
    for index, image in enumerate(frames):
        cv2.imwrite(str(folder / "frames" / f"f{index:05d}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, 95])
    (folder / "frames" / "Thumbs.db").write_bytes(b"not a frame")  # skipped: not an image by name
    return {"avi": folder / "flip.avi", "frames": folder / "frames"}


def sequence_of(output: str) -> str:
    return " ".join(card_from_json(c).notation for c in json.loads(output)["sequence"])


@pytest.mark.parametrize("kind", ["avi", "frames"])
def test_the_sequence_of_a_video_and_of_a_frame_folder(recorded, kind):
    plan, _ = flip_video()
    code, out, err = run_cli(["scan", "--json", "--sequence", str(recorded[kind])])
    assert code == 0
    result = json.loads(out)
    assert sequence_of(out) == RUNS
    assert [card_from_json(e["card"]) for e in result["events"]] == [card_from_json(c) for c in result["sequence"]]
    for event, flip in zip(result["events"], plan.flips):
        assert set(event) == {"frame", "time", "card", "confidence", "runner_up", "sure"}
        assert isinstance(event["sure"], bool)
        assert flip.entered <= event["frame"] <= flip.hand_left + 7
        assert event["time"] == pytest.approx(event["frame"] / 15, abs=1e-3)
        assert 0 < event["confidence"] <= 1
    assert "\r" not in err and err.splitlines()[-1] == "scan: 7 cards revealed"


def test_text_output_names_each_card_as_it_lands(recorded):
    code, out, _ = run_cli(["scan", "--sequence", str(recorded["avi"]), "--fps", "14"])
    lines = out.splitlines()
    assert code == 0 and len(lines) == 7
    assert lines[0].startswith("#1 frame ") and ": salami 0." in lines[0]
    assert lines[3].split(": ", 1)[1].startswith("green order 4 salami + 1 pepper")
    first_frame = int(lines[0].split()[2])
    assert f"({first_frame / 14:.2f} s)" in lines[0]  # --fps sets the times


def test_evaluate_on_a_video_says_what_each_order_needs(recorded):
    code, out, _ = run_cli(["scan", "--sequence", str(recorded["frames"]), "--evaluate", "--players", "green,red",
                            "--doubles"])
    assert code == 0
    assert "  green order 4 salami + 1 pepper: green must add 1 salami and 1 pepper from hand (assumed added)" in out.splitlines()


def test_evaluate_with_json_keeps_the_output_json(recorded):
    code, out, _ = run_cli(["scan", "--json", "--sequence", str(recorded["frames"]), "--evaluate",
                            "--players", "green,red", "--doubles"])
    events = json.loads(out)["events"]
    assert code == 0 and [e["engine"] is None for e in events] == [True, True, True, False, True, True, True]
    assert events[3]["engine"].endswith("green must add 1 salami and 1 pepper from hand (assumed added)")


@pytest.mark.parametrize("argv, message", [
    ([], "give exactly one of: photos, --sequence VIDEO_OR_FRAME_DIR, --camera N (got nothing)"),
    (["a.jpg", "--sequence", "v.avi"], "(got photos and --sequence)"),
    (["--sequence", "v.avi", "--camera", "0"], "(got --sequence and --camera)"),
    (["--sequence", "v.avi", "--annotate", "out"], "--annotate works with photos only"),
    (["a.jpg", "--fps", "10"], "--fps needs --sequence or --camera"),
    (["--camera", "0", "--evaluate"], "--evaluate and --players go together"),
    (["--camera", "0", "--evaluate", "--players", "green,pink"], "--players: unknown colour 'pink'"),
    (["--camera", "0", "--fps", "10"], "--fps is for --sequence"),
])
def test_wrong_combinations_exit_2_with_one_line(argv, message):
    code, out, err = run_cli(["scan", *argv])
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("scan: ") and message in err


def test_bad_sequences_exit_2_with_one_line(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    junk = tmp_path / "junk"
    junk.mkdir()
    (junk / "notes.txt").write_text("x")
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "000.jpg").write_bytes(b"\xff\xd8\xff\xe0 cut short")
    (tmp_path / "text.avi").write_text("not a video")
    cases = {tmp_path / "gone.avi": "no such file or folder", empty: "no image files", junk: "no image files",
             tmp_path / "text.avi": "not a video", broken: "000.jpg: "}
    for path, message in cases.items():
        code, out, err = run_cli(["scan", "--json", "--sequence", str(path)])
        last = err.split("\r")[-1].strip().splitlines()[-1]
        assert code == 2 and out == "", path
        assert last.startswith(f"scan: {path}") and message in last, err


class LockstepCapture:
    """A fake webcam showing the test video, handing over a frame only once
    the previous one was taken, so no frame is dropped however slow the
    machine (a real camera would drop them)."""

    def __init__(self, frames) -> None:  # noqa: ANN001
        self.frames, self.camera, self.served = list(frames), None, 0

    def clock(self) -> float:
        """The time the frame just read was filmed: the camera runs at 15 fps."""
        return self.served / 15

    def isOpened(self) -> bool:  # noqa: N802
        return True

    def read(self):  # noqa: ANN201
        while self.camera is None or self.camera.latest is not None:
            if self.camera is not None and self.camera.ended:
                return False, None
            time.sleep(0.001)
        if not self.frames:
            return False, None
        self.served += 1
        return True, self.frames.pop(0)

    def release(self) -> None:
        pass


def test_the_camera_prints_each_card_and_the_engine_verdicts(monkeypatch):
    _, frames = flip_video()
    capture = LockstepCapture(frames)

    def fake_camera(number: int) -> LatestFrameCamera:
        assert number == 0
        camera = LatestFrameCamera(lambda: capture, clock=capture.clock)
        capture.camera = camera
        return camera

    monkeypatch.setattr(sources, "open_camera", fake_camera)
    code, out, err = run_cli(["scan", "--camera", "0", "--evaluate", "--players", "green,red", "--doubles"])
    assert code == 0 and err == ""
    lines = [line.split(": ", 1)[1] for line in out.splitlines() if line.startswith("#")]
    # an unsure reading is printed with its similarity and what else it may be
    cards = [re.sub(r" [0-9.]+( \(unsure; perhaps .*\))?$", "", line) for line in lines]
    assert cards == ["salami", "salami", "salami", "green order 4 salami + 1 pepper", "pepper",
                     "double pineapple", "double pineapple"]
    # the cards in this 480 x 270 video are 48 pixels across: an order's thin frame may leave its
    # reading unsure there, an ingredient's big topping does not
    assert not any("unsure" in line for line, card in zip(lines, cards) if "order" not in card)
    assert "green must add 1 salami and 1 pepper from hand (assumed added)" in out


def test_a_camera_that_cannot_be_opened_exits_2(monkeypatch):
    class Closed:
        def isOpened(self) -> bool:  # noqa: N802
            return False

        def release(self) -> None:
            pass

    monkeypatch.setattr(sources, "open_camera", lambda number: LatestFrameCamera(Closed))
    code, out, err = run_cli(["scan", "--camera", "3"])
    assert code == 2 and out == ""
    assert err.startswith("scan: camera 3: the camera cannot be opened") and err.count("\n") == 1
