"""Reading image files at the edge of the pipeline, with a clear reason when
a file cannot be used, so one bad file in a batch costs only itself.

OpenCV alone is too forgiving and too trusting for files people hand us: it
decodes a truncated JPEG into an image whose bottom is grey (no error), and
it allocates whatever a header declares, so a tiny PNG claiming 100000 x
100000 pixels exhausts memory. Both are checked here from the file's own
structure before decoding.
"""
from __future__ import annotations

from pathlib import Path
from typing import Iterator

import cv2
import numpy as np

MAX_FILE_BYTES = 64 * 1024 * 1024
MAX_PIXELS = 40_000_000  # about 8000 x 5000: far beyond any phone photo we expect

_JPEG = b"\xff\xd8\xff"
_PNG = b"\x89PNG\r\n\x1a\n"
# JPEG start-of-frame markers (baseline, extended, progressive, lossless, ...): not DHT, JPG or DAC
_SOF_MARKERS = frozenset({0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF})
_SOS, _EOI = 0xDA, 0xD9


class ImageFileError(ValueError):
    """A file that is not a usable image; the message says why, for a player."""


def read_image(path: str | Path, max_bytes: int = MAX_FILE_BYTES) -> np.ndarray:
    """Decode ``path`` as a BGR image or raise :class:`ImageFileError`."""
    data = read_bytes(path, max_bytes)
    return decode_image(data)


def read_bytes(path: str | Path, max_bytes: int = MAX_FILE_BYTES) -> bytes:
    """The file's bytes, refusing what cannot be an image file before reading it
    (a directory, a pipe that would block, a file too large to be a photo)."""
    path = Path(path)
    try:
        if path.is_dir():
            raise ImageFileError("is a folder, not an image file")
        size = path.stat().st_size
        if not path.is_file():
            raise ImageFileError("is not a regular file")
        if size == 0:
            raise ImageFileError("empty file (0 bytes)")
        if size > max_bytes:
            raise ImageFileError(f"file too large ({_megabytes(size)}; at most {_megabytes(max_bytes)})")
        return path.read_bytes()
    except OSError as error:
        raise ImageFileError(f"cannot read the file: {error.strerror or error}") from None


def decode_image(data: bytes, max_pixels: int = MAX_PIXELS) -> np.ndarray:
    """Decode image bytes (JPEG, PNG, or anything else OpenCV reads) as BGR,
    or raise :class:`ImageFileError`."""
    if not data:
        raise ImageFileError("empty file (0 bytes)")
    if _is_truncated(data):
        raise ImageFileError("truncated image: the file ends before the image does "
                             "(an interrupted copy or download?)")
    declared = declared_size(data)
    if declared is not None:
        _check_pixels(declared[0], declared[1], max_pixels)
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if image is None or image.size == 0:
        raise ImageFileError(_not_an_image(data))
    _check_pixels(image.shape[1], image.shape[0], max_pixels)
    return image


def declared_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from a JPEG, PNG, GIF or BMP header, before any pixel is
    decoded; None for other formats or an unreadable header."""
    if data.startswith(_PNG) and len(data) >= 24 and data[12:16] == b"IHDR":
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    if data.startswith(_JPEG):
        return _jpeg_size(data)
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        return int.from_bytes(data[6:8], "little"), int.from_bytes(data[8:10], "little")
    if data[:2] == b"BM" and len(data) >= 26:
        width = int.from_bytes(data[18:22], "little", signed=True)
        height = int.from_bytes(data[22:26], "little", signed=True)
        return abs(width), abs(height)
    return None


def _check_pixels(width: int, height: int, max_pixels: int) -> None:
    if width * height > max_pixels:
        raise ImageFileError(f"image too large ({width} x {height} pixels, "
                             f"{width * height / 1e6:.0f} megapixels; at most {max_pixels / 1e6:.0f})")


def _megabytes(size: int) -> str:
    return f"{size / 1_048_576:.0f} MB"


def _not_an_image(data: bytes) -> str:
    if data.startswith((_JPEG[:2], _PNG)):
        return "damaged image: the file starts like a photo but cannot be decoded"
    return "not an image file (or a format that cannot be read; use JPEG or PNG)"


def _is_truncated(data: bytes) -> bool:
    if data.startswith(_JPEG):
        return _jpeg_truncated(data)
    if data.startswith(_PNG):
        return _png_truncated(data)
    return False


def _png_truncated(data: bytes) -> bool:
    """Walks the chunks: a whole PNG reaches its IEND chunk inside the file."""
    i = len(_PNG)
    while i + 8 <= len(data):
        length = int.from_bytes(data[i:i + 4], "big")
        if data[i + 4:i + 8] == b"IEND":
            return False
        i += 12 + length  # length, type, data, CRC
    return True


def _jpeg_segments(data: bytes) -> Iterator[tuple[int, int]]:
    """(marker, offset) of each header segment up to the first scan (SOS);
    stops early at a byte that is not a marker (a damaged header) or at the
    end of the data."""
    i = 2
    while i + 4 <= len(data) and data[i] == 0xFF:
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte before a marker
            i += 1
            continue
        yield marker, i
        if marker == _SOS:
            return
        i += 2 + int.from_bytes(data[i + 2:i + 4], "big")


def _jpeg_truncated(data: bytes) -> bool:
    """A whole JPEG has an end-of-image marker after its first scan. Searching
    from the scan (not the file's tail) tolerates trailers some phones append
    after the image, and ignores the end marker of an embedded thumbnail.
    A header that stops short of the scan is truncated only when it ran out
    of data; a damaged one is left to the decoder to judge."""
    last = None
    for marker, offset in _jpeg_segments(data):
        if marker == _SOS:
            return data.find(bytes([0xFF, _EOI]), offset) < 0
        last = offset
    if last is None:
        return len(data) < 6
    following = last + 2 + int.from_bytes(data[last + 2:last + 4], "big")
    return following + 4 > len(data)


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    for marker, offset in _jpeg_segments(data):
        if marker in _SOF_MARKERS and offset + 9 <= len(data):
            height = int.from_bytes(data[offset + 5:offset + 7], "big")
            width = int.from_bytes(data[offset + 7:offset + 9], "big")
            return width, height
    return None
