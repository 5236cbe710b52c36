"""Reading image files at the edge of the pipeline, with a clear reason when
a file cannot be used, so one bad file in a batch costs only itself.

OpenCV alone is too forgiving and too trusting for files people hand us: it
decodes a truncated JPEG into an image whose bottom is grey (no error), and
it allocates whatever a header declares, so a tiny PNG claiming 100000 x
100000 pixels exhausts memory. So before OpenCV decodes anything, the file's
own structure is checked for truncation and Pillow reads its header alone
(format and declared size; Pillow opens lazily and nothing is decoded).
Only the formats in :data:`FORMATS` are read at all: every other reader
would be more code looking at untrusted bytes.

Given a working size (the web app gives :data:`WORK_PIXELS`), a larger
picture is decoded reduced, by a power of two: a JPEG by libjpeg itself,
which never holds the full-size picture; other formats are decoded whole
and shrunk by OpenCV at once. Without one (the command line, whose
``corners`` are in the file's own pixels) pictures come back at full size.
GIF and WebP decoders hold a second full-size copy of the picture as they
decode, so those formats have a lower limit (:data:`FORMAT_MAX_PIXELS`).
"""
from __future__ import annotations

import io
import threading
import warnings
from pathlib import Path
from typing import Iterator

import cv2
import numpy as np
from PIL import Image, UnidentifiedImageError

MAX_FILE_BYTES = 64 * 1024 * 1024
MAX_PIXELS = 40_000_000  # about 8000 x 5000: far beyond any phone photo we expect
MIN_SIDE = 16  # smaller cannot show a card, and OpenCV's steps assert on images of 1 or 2 pixels
# Larger pictures are decoded at a half, a quarter or an eighth of their size. The recogniser finds
# cards on a copy 640 pixels wide and compares faces of at most 64 x 100 pixels (alignment) and
# 600 x 936 (reading text); the smallest card it looks for covers 0.4 % of the picture, about
# 200 x 315 pixels in 16 megapixels. A phone's 12-megapixel photo (4032 x 3024) and a
# 16-megapixel one (4608 x 3456) are read as they are; a 40-megapixel photo is read at 10.
WORK_PIXELS = 16_000_000
# decoding a GIF or a WebP costs two to three times the picture (an RGBA canvas, then the BGR
# copy), against two for the other formats: 40 megapixels of GIF would cost 300 MB
FORMAT_MAX_PIXELS = {"GIF": 16_000_000, "WEBP": 16_000_000}
_LABELS = {"WEBP": "WebP"}
_REDUCED = {1: cv2.IMREAD_COLOR, 2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4,
            8: cv2.IMREAD_REDUCED_COLOR_8}
FORMATS = ("JPEG", "PNG", "WEBP", "TIFF", "BMP", "GIF", "PPM")  # Pillow's names; PPM covers PGM too
FORMAT_NAMES = "JPEG, PNG, WebP, TIFF, BMP, GIF, PPM or PGM"

_JPEG = b"\xff\xd8\xff"
_PNG = b"\x89PNG\r\n\x1a\n"
_SOS, _EOI = 0xDA, 0xD9
# warnings.catch_warnings changes process-wide state: two threads (the web app serves several
# cameras) interleaving their enter and exit could leave every warning ignored for good
_WARNINGS_LOCK = threading.Lock()


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


def decode_image(data: bytes, max_pixels: int = MAX_PIXELS, work_pixels: int | None = None) -> np.ndarray:
    """Decode image bytes in one of :data:`FORMATS` as BGR, or raise
    :class:`ImageFileError`. A picture of more than ``work_pixels``, when
    given, comes back reduced (see :func:`reduction`)."""
    if not data:
        raise ImageFileError("empty file (0 bytes)")
    if _is_truncated(data):
        raise ImageFileError("truncated image: the file ends before the image does "
                             "(an interrupted copy or download?)")
    image_format, (width, height) = _read_header(data, max_pixels)
    _check_size(width, height, max_pixels, image_format)
    factor = 1 if work_pixels is None else reduction(width, height, work_pixels)
    image = cv2.imdecode(np.frombuffer(data, np.uint8), _REDUCED[factor])
    if image is None or image.size == 0:
        raise ImageFileError(f"damaged image: the {image_format} header is readable but the picture "
                             "cannot be decoded")
    _check_size(image.shape[1] * factor, image.shape[0] * factor, max_pixels, image_format, slack=factor)
    return image


def reduction(width: int, height: int, work_pixels: int = WORK_PIXELS) -> int:
    """By how much a ``width`` x ``height`` picture is reduced as it is
    decoded: 1, 2, 4 or 8, the least that brings it to ``work_pixels`` or
    less, but never so far that its short side falls under :data:`MIN_SIDE`.

    >>> reduction(4032, 3024), reduction(7200, 5400), reduction(6000, 6000, 4_000_000)
    (1, 2, 4)
    >>> reduction(20, 1_000_000)
    1
    """
    factor = 1
    while factor < 8 and _reduced_pixels(width, height, factor) > work_pixels \
            and min(width, height) // (2 * factor) >= MIN_SIDE:
        factor *= 2
    return factor


def _reduced_pixels(width: int, height: int, factor: int) -> int:
    return -(-width // factor) * -(-height // factor)  # libjpeg rounds a reduced side up


def declared_size(data: bytes) -> tuple[int, int]:
    """(width, height) as the header declares them, before any pixel is
    decoded; :class:`ImageFileError` when the data is not in one of
    :data:`FORMATS`, its header is damaged, or it declares a size so large
    that Pillow itself refuses to open it."""
    return _read_header(data)[1]


def _read_header(data: bytes, max_pixels: int = MAX_PIXELS) -> tuple[str, tuple[int, int]]:
    """Pillow's name for the format, and the declared size."""
    try:
        with _WARNINGS_LOCK, warnings.catch_warnings():
            # Pillow warns of sizes above its own limit (which is above ours) and of damaged
            # metadata; the file is judged here instead, so in a server's log they are only noise
            warnings.simplefilter("ignore")
            with Image.open(io.BytesIO(data), formats=FORMATS) as picture:
                return picture.format or "image", picture.size
    except Image.DecompressionBombError:
        limit = 2 * (Image.MAX_IMAGE_PIXELS or 0)
        raise ImageFileError(f"image too large (more than {limit / 1e6:.0f} megapixels; "
                             f"at most {max_pixels / 1e6:.0f})") from None
    except UnidentifiedImageError:
        raise ImageFileError(_not_an_image(data)) from None
    except Exception as error:  # Pillow's readers raise many kinds of errors on damaged headers
        raise ImageFileError(f"damaged image: its header cannot be read ({error})") from None


def _check_size(width: int, height: int, max_pixels: int, image_format: str = "", slack: int = 1) -> None:
    """Refuse a size out of bounds; a size measured on a picture decoded
    reduced by ``slack`` may be up to ``slack - 1`` pixels over on each side."""
    limit = min(max_pixels, FORMAT_MAX_PIXELS.get(image_format, max_pixels))
    if (width - slack + 1) * (height - slack + 1) > limit:
        which = f" for a {_LABELS.get(image_format, image_format)}" if limit < max_pixels else ""
        raise ImageFileError(f"image too large ({width} x {height} pixels, "
                             f"{width * height / 1e6:.0f} megapixels; at most {limit / 1e6:.0f}{which})")
    if min(width, height) < MIN_SIDE:
        raise ImageFileError(f"image too small: {width} x {height} pixels (at least {MIN_SIDE} on each side)")


def _megabytes(size: int) -> str:
    return f"{size / 1_048_576:.0f} MB"


def _not_an_image(data: bytes) -> str:
    if data.startswith((_JPEG[:2], _PNG)):
        return "damaged image: the file starts like a photo but cannot be decoded"
    return f"not an image file (or a format that cannot be read; use {FORMAT_NAMES})"


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
