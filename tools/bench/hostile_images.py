"""Small image files that lie: tiny real images in every format the app
reads, and decompression bombs made by rewriting the size a small valid
file declares (no large image is ever drawn to make one).

>>> import numpy as np
>>> data = declaring(encode("png", 8, 8, np.random.default_rng(1)), "png", 9000, 7000)
>>> from PIL import Image; import io
>>> len(data) < 1000, Image.open(io.BytesIO(data)).size
(True, (9000, 7000))
"""
from __future__ import annotations

import io
import struct
import zlib
from typing import Callable

import numpy as np
from PIL import Image

# our name -> (Pillow's format name, the content type the format is served as)
FORMATS: dict[str, tuple[str, str]] = {
    "jpeg": ("JPEG", "image/jpeg"), "png": ("PNG", "image/png"), "webp": ("WEBP", "image/webp"),
    "gif": ("GIF", "image/gif"), "bmp": ("BMP", "image/bmp"), "tiff": ("TIFF", "image/tiff"),
    "ppm": ("PPM", "image/x-portable-pixmap"),
}
# the variants a bomb is made from: (format, how it is saved, which header fields are rewritten)
BOMB_KINDS: dict[str, tuple[str, dict, str]] = {
    "png": ("png", {}, "ihdr"),
    "jpeg": ("jpeg", {}, "sof"),
    "jpeg-progressive": ("jpeg", {"progressive": True}, "sof"),
    "gif-screen": ("gif", {}, "screen"),
    "gif-frame": ("gif", {}, "frame"),
    "gif-both": ("gif", {}, "both"),
    "bmp": ("bmp", {}, "bmp"),
    "bmp-top-down": ("bmp", {}, "bmp-top-down"),
    "tiff": ("tiff", {}, "ifd"),
    "tiff-deflate": ("tiff", {"compression": "tiff_adobe_deflate"}, "ifd"),
    "webp-lossless": ("webp", {"lossless": True}, "vp8l"),
    "webp-lossy": ("webp", {"quality": 50}, "vp8"),
    "webp-canvas": ("webp", {"quality": 50, "exif": True}, "vp8x"),
    "webp-canvas-and-frame": ("webp", {"lossless": True, "exif": True}, "vp8x+vp8l"),
    "ppm": ("ppm", {}, "pnm"),
}
# the largest side each header field can hold (WebP's bitstreams keep 14 bits)
LARGEST_SIDE = {"sof": 65535, "screen": 65535, "frame": 65535, "both": 65535, "vp8l": 16384, "vp8": 16383,
                "vp8x": 16384, "vp8x+vp8l": 16384}


def encode(kind: str, width: int, height: int, rng: np.random.Generator, exif: bool = False,
           **options: object) -> bytes:
    """A ``width`` x ``height`` picture of noise in format ``kind``; with
    ``exif`` a WebP gets the extended header (VP8X) a canvas size lives in."""
    pixels = rng.integers(0, 256, (height, width, 3), dtype=np.uint8)
    if exif:
        tags = Image.Exif()
        tags[0x010E] = "hostile"  # ImageDescription: any tag will do
        options["exif"] = tags.tobytes()
    out = io.BytesIO()
    Image.fromarray(pixels, "RGB").save(out, format=FORMATS[kind][0], **options)
    return out.getvalue()


def bomb_source(name: str, rng: np.random.Generator) -> tuple[bytes, str]:
    """The small valid file a bomb of kind ``name`` is patched from, and its patch."""
    kind, options, patch = BOMB_KINDS[name]
    return encode(kind, 40, 24, rng, **options), patch


def declaring(data: bytes, patch: str, width: int, height: int) -> bytes:
    """``data`` with the size in its header rewritten to ``width`` x ``height``;
    ``patch`` names the header (a format name stands for its main one)."""
    patch = {"png": "ihdr", "jpeg": "sof", "gif": "both", "bmp": "bmp", "tiff": "ifd", "webp": "vp8l",
             "ppm": "pnm"}.get(patch, patch)
    out = bytearray(data)
    PATCHES[patch](out, width, height)
    return bytes(out)


# one function per header --------------------------------------------------------------------


def _ihdr(out: bytearray, width: int, height: int) -> None:
    # Pillow and libpng check each chunk's CRC, so it is recomputed over type and data
    start = out.index(b"IHDR")
    out[start + 4:start + 12] = struct.pack(">II", width, height)
    out[start + 17:start + 21] = struct.pack(">I", zlib.crc32(out[start:start + 17]))


def _sof(out: bytearray, width: int, height: int) -> None:
    at = 2
    while at + 4 <= len(out):
        marker, length = out[at + 1], struct.unpack(">H", out[at + 2:at + 4])[0]
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):  # a start of frame, of any coding
            out[at + 5:at + 9] = struct.pack(">HH", height, width)
            return
        at += 2 + length
    raise ValueError("no start-of-frame segment")


def _gif_screen(out: bytearray, width: int, height: int) -> None:
    out[6:10] = struct.pack("<HH", width, height)


def _gif_frame(out: bytearray, width: int, height: int) -> None:
    """The first image descriptor, found past the colour table and the extensions."""
    at = 13 + (3 << ((out[10] & 7) + 1) if out[10] & 0x80 else 0)
    while out[at] == 0x21:  # an extension: label, then sub-blocks up to a zero length
        at += 2
        while out[at]:
            at += out[at] + 1
        at += 1
    if out[at] != 0x2C:
        raise ValueError("no image descriptor")
    out[at + 5:at + 9] = struct.pack("<HH", width, height)


def _gif_both(out: bytearray, width: int, height: int) -> None:
    _gif_screen(out, width, height)
    _gif_frame(out, width, height)


def _bmp(out: bytearray, width: int, height: int) -> None:
    out[18:26] = struct.pack("<ii", width, height)


def _bmp_top_down(out: bytearray, width: int, height: int) -> None:
    out[18:26] = struct.pack("<ii", width, -height)  # a negative height: rows stored top down


def _ifd(out: bytearray, width: int, height: int) -> None:
    """Tags 256 and 257 (ImageWidth, ImageLength) of the first directory, as LONGs."""
    order = "<" if out[:2] == b"II" else ">"
    directory = struct.unpack(order + "I", out[4:8])[0]
    count = struct.unpack(order + "H", out[directory:directory + 2])[0]
    for entry in range(directory + 2, directory + 2 + 12 * count, 12):
        tag = struct.unpack(order + "H", out[entry:entry + 2])[0]
        if tag in (256, 257):
            out[entry + 2:entry + 12] = struct.pack(order + "HII", 4, 1, width if tag == 256 else height)


def _riff_chunk(out: bytearray, fourcc: bytes) -> int:
    """Where the data of the WebP chunk ``fourcc`` starts."""
    at = 12
    while at + 8 <= len(out):
        size = struct.unpack("<I", out[at + 4:at + 8])[0]
        if out[at:at + 4] == fourcc:
            return at + 8
        at += 8 + size + (size & 1)
    raise ValueError(f"no {fourcc!r} chunk")


def _vp8l(out: bytearray, width: int, height: int) -> None:
    at = _riff_chunk(out, b"VP8L") + 1  # past the signature byte; 14 bits each for width - 1, height - 1
    kept = struct.unpack("<I", out[at:at + 4])[0] & ~0x0FFFFFFF
    out[at:at + 4] = struct.pack("<I", kept | (width - 1) | (height - 1) << 14)


def _vp8(out: bytearray, width: int, height: int) -> None:
    at = _riff_chunk(out, b"VP8 ") + 6  # past the frame tag and the start code: 14 bits and a scale each
    out[at:at + 4] = struct.pack("<HH", width & 0x3FFF, height & 0x3FFF)


def _vp8x(out: bytearray, width: int, height: int) -> None:
    at = _riff_chunk(out, b"VP8X") + 4  # past the flags: the canvas, 24 bits each for width - 1, height - 1
    out[at:at + 6] = (width - 1).to_bytes(3, "little") + (height - 1).to_bytes(3, "little")


def _vp8x_and_vp8l(out: bytearray, width: int, height: int) -> None:
    _vp8x(out, width, height)
    _vp8l(out, width, height)


def _pnm(out: bytearray, width: int, height: int) -> None:
    magic, _sizes, rest = bytes(out).split(b"\n", 2)
    out[:] = magic + b"\n" + f"{width} {height}".encode() + b"\n" + rest


PATCHES: dict[str, Callable[[bytearray, int, int], None]] = {
    "ihdr": _ihdr, "sof": _sof, "screen": _gif_screen, "frame": _gif_frame, "both": _gif_both, "bmp": _bmp,
    "bmp-top-down": _bmp_top_down, "ifd": _ifd, "vp8l": _vp8l, "vp8": _vp8, "vp8x": _vp8x,
    "vp8x+vp8l": _vp8x_and_vp8l, "pnm": _pnm,
}
