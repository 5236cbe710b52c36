"""Where frames come from: a video file, a folder of frames, a camera.

Every source yields :class:`Frame` (index, time in seconds, BGR image) so the
tracker never needs to know a frame rate. A :class:`FrameSource` is anything
iterable that way with a ``close()``, so tests can hand the CLI a fake camera.
Opening a source that cannot be used raises :class:`SourceError` with a
message for a player.
"""
from __future__ import annotations

import queue
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, Protocol

import numpy as np

IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff"})
# 4K: phones film no larger. A "video" of larger frames is an image (OpenCV opens those as
# one-frame videos) or a trap; its size is known from the header, before any frame is decoded
MAX_VIDEO_PIXELS = 3840 * 2160
# frames decoded ahead of the tracker hold at most this many bytes (eight 960 x 540 frames; one
# at 4K), and at most READ_AHEAD frames
READ_AHEAD_BYTES = 48 * 2**20
READ_AHEAD = 8


class SourceError(ValueError):
    """A video, folder or camera that cannot be read; the message says why."""


@dataclass(frozen=True)
class Frame:
    index: int
    time: float  # seconds since the first frame
    image: np.ndarray


class FrameSource(Protocol):
    total: int | None  # frames to come, when known (for a progress bar)

    def __iter__(self) -> Iterator[Frame]:
        ...

    def close(self) -> None:
        ...


def open_sequence(path: str | Path, fps: float | None = None) -> FrameSource:
    """A video file or a folder of frames (read in name order)."""
    path = Path(path)
    if path.is_dir():
        return FrameFolder(path, fps)
    if not path.exists():
        raise SourceError(f"{path}: no such file or folder")
    return VideoFile(path, fps)


def video_container(head: bytes) -> str | None:
    """The video container a file's first bytes announce, or None: AVI,
    MP4/QuickTime (what phones record) or Matroska/WebM. An upload is read as
    a video only when it is one of these; OpenCV would otherwise also open an
    image, however large, as a video of one frame.

    >>> video_container(b"RIFF\\x00\\x10\\x00\\x00AVI LIST"), video_container(b"\\x00\\x00\\x00\\x18ftypmp42")
    ('avi', 'mp4')
    >>> video_container(b"II*\\x00\\x08\\x00\\x00\\x00") is None
    True
    """
    if head[:4] == b"RIFF" and head[8:12] == b"AVI ":
        return "avi"
    if head[4:8] in (b"ftyp", b"moov", b"mdat", b"wide", b"free", b"skip"):
        return "mp4"
    if head[:4] == b"\x1a\x45\xdf\xa3":
        return "matroska"
    return None


class ReadAhead:
    """The items of ``items`` produced by a background thread, at most
    ``depth`` ahead of the consumer.

    Decoding a frame (a JPEG of a video file, an image file of a folder) is
    work OpenCV does without holding Python's lock, so a second core decodes
    the next frames while the tracker follows this one: on a 60-card video
    a fifth of the time went to decoding. Items come in order; an error
    raised while producing one is raised to the consumer in its place.
    :meth:`close` stops the thread (and must run before what it reads from is
    released)."""

    _END = object()

    def __init__(self, items: Iterator[Any], depth: int = READ_AHEAD) -> None:
        self.items = items
        self.queue: queue.Queue[Any] = queue.Queue(maxsize=depth)
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._produce, name="frame-reader", daemon=True)
        self.thread.start()

    def _produce(self) -> None:
        try:
            for item in self.items:
                if not self._put(item):
                    return
            self._put(self._END)
        except BaseException as error:  # handed to the consumer, who raises it
            self._put(_Failure(error))

    def _put(self, item: Any) -> bool:
        while not self.stopped.is_set():
            try:
                self.queue.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def __iter__(self) -> Iterator[Any]:
        while True:
            item = self.queue.get()
            if item is self._END:
                return
            if isinstance(item, _Failure):
                raise item.error
            yield item

    def close(self) -> None:
        self.stopped.set()
        self.thread.join()


@dataclass(frozen=True)
class _Failure:
    error: BaseException


class VideoFile:
    """A video file read through OpenCV; frame times from ``fps`` when given,
    else from the file's own rate. Frames are decoded a few ahead (see
    :class:`ReadAhead`)."""

    def __init__(self, path: Path, fps: float | None = None) -> None:
        import cv2

        if not path.is_file():
            raise SourceError(f"{path}: not a regular file")
        self.reader: ReadAhead | None = None
        self.capture = cv2.VideoCapture(str(path))
        if not self.capture.isOpened():
            raise SourceError(f"{path}: not a video OpenCV can read")
        self.path = path
        width, height = int(self.capture.get(cv2.CAP_PROP_FRAME_WIDTH)), int(self.capture.get(cv2.CAP_PROP_FRAME_HEIGHT))
        if width * height > MAX_VIDEO_PIXELS:
            self.close()
            raise SourceError(f"{path}: frames of {width} x {height} pixels are larger than a 4K video's")
        own = float(self.capture.get(cv2.CAP_PROP_FPS) or 0.0)
        self.fps = fps or (own if 1.0 <= own <= 240.0 else 15.0)
        count = int(self.capture.get(cv2.CAP_PROP_FRAME_COUNT) or 0)
        self.total = count if count > 0 else None
        self.first: np.ndarray | None = self._read()
        if self.first is None:
            self.close()
            raise SourceError(f"{path}: the video has no readable frame")

    def _read(self) -> np.ndarray | None:
        ok, image = self.capture.read()
        return image if ok and image is not None and image.size else None

    def __iter__(self) -> Iterator[Frame]:
        frame_bytes = self.first.nbytes if self.first is not None else 1
        self.reader = ReadAhead(self._frames(), max(1, min(READ_AHEAD, READ_AHEAD_BYTES // frame_bytes)))
        yield from self.reader

    def _frames(self) -> Iterator[Frame]:
        image, index = self.first, 0
        self.first = None
        while image is not None:
            yield Frame(index, index / self.fps, image)
            image, index = self._read(), index + 1

    def close(self) -> None:
        if self.reader is not None:
            self.reader.close()
        self.capture.release()


class FrameFolder:
    """The image files of a folder in name order, at ``fps`` (default 15),
    decoded a few ahead (see :class:`ReadAhead`). Files that are not images
    by name are skipped; an image file that cannot be decoded stops the
    sequence with a :class:`SourceError`."""

    def __init__(self, folder: Path, fps: float | None = None) -> None:
        try:
            files = sorted(p for p in folder.iterdir() if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES)
        except OSError as error:
            raise SourceError(f"{folder}: cannot list the folder: {error.strerror or error}") from None
        if not files:
            raise SourceError(f"{folder}: no image files (.jpg, .png, ...) in the folder")
        self.folder, self.files, self.fps = folder, files, fps or 15.0
        self.total = len(files)
        self.reader: ReadAhead | None = None

    def __iter__(self) -> Iterator[Frame]:
        # images of a folder may be photos of any size: two wait at most
        self.reader = ReadAhead(self._frames(), 2)
        yield from self.reader

    def _frames(self) -> Iterator[Frame]:
        from vision.recognize.imagefile import ImageFileError, read_image

        for index, path in enumerate(self.files):
            try:
                image = read_image(path)
            except ImageFileError as error:
                raise SourceError(f"{path}: {error}") from None
            yield Frame(index, index / self.fps, image)

    def close(self) -> None:
        if self.reader is not None:
            self.reader.close()


class LatestFrameCamera:
    """A live camera read by a background thread that keeps only the newest
    frame: a slow consumer skips frames instead of falling behind, so what it
    sees is always what is on the table now. Frame times are wall-clock.

    ``open_capture`` builds the capture object (``cv2.VideoCapture`` for a
    webcam; tests pass a fake with ``read()``, ``release()``, ``isOpened()``).
    """

    total = None

    def __init__(self, open_capture: Callable[[], Any], clock: Callable[[], float] = time.monotonic,
                 stall_seconds: float = 5.0) -> None:
        self.capture = open_capture()
        if not self.capture.isOpened():
            raise SourceError("the camera cannot be opened (is it connected, or in use by another program?)")
        self.clock, self.stall_seconds = clock, stall_seconds
        self.condition = threading.Condition()
        self.latest: tuple[int, float, np.ndarray] | None = None
        self.ended = False
        self.grabbed = 0
        self.thread = threading.Thread(target=self._grab, name="camera-grabber", daemon=True)
        self.thread.start()

    def _grab(self) -> None:
        try:
            while not self.ended:
                ok, image = self.capture.read()
                if not ok or image is None:
                    break
                with self.condition:
                    self.latest = (self.grabbed, self.clock(), image)
                    self.grabbed += 1
                    self.condition.notify_all()
        finally:
            with self.condition:
                self.ended = True
                self.condition.notify_all()

    def __iter__(self) -> Iterator[Frame]:
        start, index = None, 0
        while True:
            with self.condition:
                self.condition.wait_for(lambda: self.latest is not None or self.ended, self.stall_seconds)
                if self.latest is None:
                    return  # the camera stopped (or stalled) and every frame was handed out
                _, stamp, image = self.latest
                self.latest = None
            start = stamp if start is None else start
            yield Frame(index, stamp - start, image)
            index += 1

    def close(self) -> None:
        self.ended = True
        self.thread.join(timeout=2.0)
        self.capture.release()


def open_camera(number: int) -> LatestFrameCamera:
    """Webcam ``number`` through OpenCV, buffering as little as the driver allows."""
    import cv2

    def capture() -> Any:
        camera = cv2.VideoCapture(number)
        camera.set(cv2.CAP_PROP_BUFFERSIZE, 1)
        return camera

    return LatestFrameCamera(capture)
