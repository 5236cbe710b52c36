"""Frame sources: a folder read in name order (other files skipped, bad
images reported), video files, and a camera whose grabber keeps only the
newest frame."""
from __future__ import annotations

import threading

import cv2
import numpy as np
import pytest

from vision.track import sources
from vision.track.sources import FrameFolder, LatestFrameCamera, ReadAhead, SourceError, open_sequence


def frame(value: int) -> np.ndarray:
    return np.full((36, 64, 3), value, np.uint8)


def test_a_folder_is_read_in_name_order_at_the_given_rate(tmp_path):
    for name, value in (("b-002.png", 20), ("a-010.jpg", 10), ("b-001.png", 30)):
        cv2.imwrite(str(tmp_path / name), frame(value))
    (tmp_path / "notes.txt").write_text("not a frame")
    (tmp_path / "sub.png").mkdir()
    source = open_sequence(tmp_path, fps=10)
    frames = list(source)
    assert source.total == 3 and [f.index for f in frames] == [0, 1, 2]
    assert [int(f.image.mean()) for f in frames] == pytest.approx([10, 30, 20], abs=2)
    assert [f.time for f in frames] == pytest.approx([0.0, 0.1, 0.2])


@pytest.mark.parametrize("setup, message", [
    (lambda d: None, "no image files"),
    (lambda d: (d / "readme.md").write_text("x"), "no image files"),
])
def test_a_folder_without_frames_is_refused(tmp_path, setup, message):
    setup(tmp_path)
    with pytest.raises(SourceError, match=message):
        open_sequence(tmp_path)


def test_a_broken_frame_stops_the_folder_with_its_name(tmp_path):
    cv2.imwrite(str(tmp_path / "000.png"), frame(5))
    (tmp_path / "001.jpg").write_bytes(b"\xff\xd8\xff\xe0 truncated")
    frames = iter(FrameFolder(tmp_path))
    assert next(frames).index == 0
    with pytest.raises(SourceError, match="001.jpg"):
        next(frames)


def test_a_video_file_gives_its_frames_with_times(tmp_path):
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 12.0, (64, 36))
    for value in (0, 80, 160):
        writer.write(frame(value))
    writer.release()
    source = open_sequence(path)
    frames = list(source)
    source.close()
    assert len(frames) == 3 and source.total == 3
    assert [f.time for f in frames] == pytest.approx([0, 1 / 12, 2 / 12])
    assert [round(f.image.mean() / 80) for f in frames] == [0, 1, 2]
    assert [f.time for f in open_sequence(path, fps=4)] == pytest.approx([0, 0.25, 0.5])


@pytest.mark.parametrize("name, content, message", [
    ("gone.avi", None, "no such file or folder"),
    ("text.avi", b"hello, not a video\n", "not a video"),
    ("empty.mp4", b"", "not a video"),
])
def test_a_file_that_is_no_video_is_refused(tmp_path, name, content, message):
    path = tmp_path / name
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(SourceError, match=message):
        open_sequence(path)


class FakeCapture:
    """Stands in for cv2.VideoCapture: numbered frames, as fast as asked."""

    def __init__(self, count: int, opened: bool = True) -> None:
        self.count, self.opened, self.served, self.released = count, opened, 0, False

    def isOpened(self) -> bool:  # noqa: N802 (OpenCV's name)
        return self.opened

    def read(self) -> tuple[bool, np.ndarray | None]:
        if self.served >= self.count:
            return False, None
        self.served += 1
        return True, frame(self.served - 1)

    def release(self) -> None:
        self.released = True


def test_a_slow_reader_gets_the_newest_camera_frame_not_a_backlog():
    go = threading.Event()

    class HeldBack(FakeCapture):
        def read(self):
            if self.served == 1:
                go.wait(10)  # frame 0 first, the rest once the reader has it
            return super().read()

    capture = HeldBack(50)
    camera = LatestFrameCamera(lambda: capture)
    frames = iter(camera)
    first = next(frames)
    go.set()
    camera.thread.join(timeout=10)  # the reader dawdles while the camera delivers the other 49
    rest = list(frames)
    assert first.index == 0 and first.time == 0.0
    assert [int(f.image[0, 0, 0]) for f in rest] == [49]  # frames 1..48 were skipped, not queued
    assert rest[0].index == 1 and rest[0].time >= 0
    camera.close()
    assert capture.released


def test_a_camera_that_cannot_be_opened_is_refused():
    with pytest.raises(SourceError, match="cannot be opened"):
        LatestFrameCamera(lambda: FakeCapture(3, opened=False))


def test_closing_the_camera_stops_its_grabber():
    release = threading.Event()

    class Endless(FakeCapture):
        def read(self):
            release.wait(0.01)
            return True, frame(1)

    camera = LatestFrameCamera(lambda: Endless(0))
    assert next(iter(camera)).index == 0
    camera.close()
    assert not camera.thread.is_alive()


def test_frames_read_ahead_come_in_order_and_an_error_comes_in_its_place():
    def items():
        yield from range(20)
        raise SourceError("frame 20 is broken")

    reader = ReadAhead(items(), depth=3)
    got = []
    with pytest.raises(SourceError, match="frame 20"):
        for item in reader:
            got.append(item)
    assert got == list(range(20))
    reader.close()
    assert not reader.thread.is_alive()


def test_closing_a_reader_ahead_stops_its_thread_while_it_waits_for_room():
    produced = []

    def endless():
        while True:
            produced.append(len(produced))
            yield produced[-1]

    reader = ReadAhead(endless(), depth=2)
    assert next(iter(reader)) == 0
    reader.close()
    assert not reader.thread.is_alive()
    assert len(produced) <= 4  # the one taken, two waiting, one held when the queue was full


def test_a_video_closed_half_way_stops_reading_ahead_and_releases_the_file(tmp_path):
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 12.0, (64, 36))
    for value in range(40):
        writer.write(frame(value * 6))
    writer.release()
    source = open_sequence(path)
    frames = iter(source)
    assert [next(frames).index for _ in range(3)] == [0, 1, 2]
    source.close()
    assert not source.reader.thread.is_alive() and not source.capture.isOpened()


def test_large_frames_are_read_fewer_ahead(tmp_path, monkeypatch):
    monkeypatch.setattr(sources, "READ_AHEAD_BYTES", 3 * 64 * 36 * 3)  # three of these frames
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 12.0, (64, 36))
    for value in range(10):
        writer.write(frame(value * 20))
    writer.release()
    source = open_sequence(path)
    frames = iter(source)
    next(frames)
    assert source.reader.queue.maxsize == 3
    assert len(list(frames)) == 9
    source.close()
