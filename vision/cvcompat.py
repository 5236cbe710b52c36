"""Thin wrappers over the OpenCV calls whose Python signatures have changed
between 4.x and 5.x (text drawing, video writing, JPEG coding), so the rest of
the package calls one stable function and a version bump touches one file.
"""
from __future__ import annotations

from pathlib import Path
from typing import Iterable, Sequence

import cv2
import numpy as np

from .recognize import imagefile

Color3 = tuple[int, int, int]

LINE_AA = cv2.LINE_AA


def text_size(text: str, font: int, scale: float, thickness: int) -> tuple[int, int, int]:
    """Width, height above the baseline and baseline depth of Hershey text."""
    (width, height), baseline = cv2.getTextSize(text, font, scale, thickness)
    return int(width), int(height), int(baseline)


def put_text(image: np.ndarray, text: str, origin: tuple[int, int], font: int, scale: float,
             color: Color3, thickness: int) -> None:
    """Hershey text with the bottom-left ``origin``, anti-aliased, in place.

    Keyword arguments select the classic overload in OpenCV 5, which also has a
    font-object ``putText``.
    """
    cv2.putText(image, text, (int(origin[0]), int(origin[1])), fontFace=font, fontScale=float(scale),
                color=tuple(int(c) for c in color), thickness=int(thickness), lineType=LINE_AA)


def put_text_centered(image: np.ndarray, text: str, center: tuple[float, float], font: int,
                      scale: float, color: Color3, thickness: int) -> None:
    width, height, _ = text_size(text, font, scale, thickness)
    put_text(image, text, (round(center[0] - width / 2), round(center[1] + height / 2)),
             font, scale, color, thickness)


def fit_text_scale(text: str, font: int, max_width: float, max_height: float, thickness: int) -> float:
    """The largest Hershey scale at which ``text`` fits the box."""
    width, height, _ = text_size(text, font, 1.0, thickness)
    return min(max_width / max(width, 1), max_height / max(height, 1))


def encode_jpeg(image: np.ndarray, quality: int) -> bytes:
    ok, buffer = cv2.imencode(".jpg", image, [int(cv2.IMWRITE_JPEG_QUALITY), int(quality)])
    if not ok:
        raise RuntimeError("OpenCV could not encode a JPEG")
    return buffer.tobytes()


def decode_image(data: bytes) -> np.ndarray:
    """BGR image from file bytes; :class:`~vision.recognize.imagefile.ImageFileError`
    (a ``ValueError``) says why when the bytes are not a usable image."""
    return imagefile.decode_image(data)


def encode_png(image: np.ndarray, level: int = 9) -> bytes:
    """PNG bytes; ``level`` 0..9 trades speed for size (9: smallest, several times slower)."""
    ok, buffer = cv2.imencode(".png", image, [int(cv2.IMWRITE_PNG_COMPRESSION), int(level)])
    if not ok:
        raise RuntimeError("OpenCV could not encode a PNG")
    return buffer.tobytes()


def read_image(path: str | Path) -> np.ndarray:
    """One way to read image files everywhere: see :mod:`vision.recognize.imagefile`."""
    return imagefile.read_image(path)


def write_bytes(path: str | Path, data: bytes) -> None:
    """Write through Python so non-ASCII paths work on every platform."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_bytes(data)


def open_mjpg_avi(path: str | Path, fps: float, size: tuple[int, int]) -> cv2.VideoWriter:
    """An opened MJPEG AVI writer (``size`` is width, height); release it when done."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), float(fps), tuple(size))
    if not writer.isOpened():
        raise RuntimeError(f"OpenCV cannot write MJPEG AVI to {path}")
    return writer


def write_mjpg_avi(path: str | Path, frames: Iterable[np.ndarray], fps: float,
                   size: tuple[int, int]) -> int:
    """Write an MJPEG AVI; returns the frame count."""
    writer = open_mjpg_avi(path, fps, size)
    count = 0
    try:
        for frame in frames:
            writer.write(frame)
            count += 1
    finally:
        writer.release()
    return count


def perspective(src: Sequence[Sequence[float]], dst: Sequence[Sequence[float]]) -> np.ndarray:
    return cv2.getPerspectiveTransform(np.asarray(src, np.float32), np.asarray(dst, np.float32))


def warp(image: np.ndarray, matrix: np.ndarray, size: tuple[int, int], linear: bool = True) -> np.ndarray:
    """Warp into a (width, height) canvas; outside the source is zero."""
    flags = cv2.INTER_LINEAR if linear else cv2.INTER_NEAREST
    return cv2.warpPerspective(image, matrix, size, flags=flags, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
