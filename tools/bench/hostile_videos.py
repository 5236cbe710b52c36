"""Small video files that lie: Motion-JPEG AVIs written here byte by byte
(so any size they declare is ours to choose) and an MP4 from OpenCV's
writer, to cut short.

>>> import numpy as np
>>> frames = [jpeg_frame(np.random.default_rng(1), 64, 48)] * 3
>>> data = mjpeg_avi(frames, 64, 48)
>>> data[:4], data[8:12], len(data) % 2
(b'RIFF', b'AVI ', 0)
"""
from __future__ import annotations

import io
import os
import struct
import tempfile

import numpy as np
from PIL import Image

AVI_HAS_INDEX = 0x10
KEYFRAME = 0x10
FPS = 15


def jpeg_frame(rng: np.random.Generator, width: int, height: int) -> bytes:
    """One frame: a grey card-sized patch on noise, as JPEG."""
    pixels = rng.integers(0, 256, (height, width, 3), dtype=np.uint8)
    pixels[height // 4:3 * height // 4, width // 3:2 * width // 3] = 200
    out = io.BytesIO()
    Image.fromarray(pixels).save(out, format="JPEG", quality=80)
    return out.getvalue()


def _chunk(fourcc: bytes, data: bytes) -> bytes:
    return fourcc + struct.pack("<I", len(data)) + data + (b"\x00" if len(data) & 1 else b"")


def _list(kind: bytes, *chunks: bytes) -> bytes:
    return _chunk(b"LIST", kind + b"".join(chunks))


def mjpeg_avi(frames: list[bytes], width: int, height: int, total_frames: int | None = None) -> bytes:
    """An AVI of JPEG ``frames`` whose headers declare ``width`` x ``height``
    (whatever the frames hold) and ``total_frames`` (default: the truth)."""
    count = len(frames) if total_frames is None else total_frames
    largest = max(len(f) for f in frames)
    avih = struct.pack("<10I4I", 1_000_000 // FPS, largest * FPS, 0, AVI_HAS_INDEX, count, 0, 1, largest,
                       width, height, 0, 0, 0, 0)
    strh = b"vidsMJPG" + struct.pack("<IHHIIIIIIiI4h", 0, 0, 0, 0, 1, FPS, 0, count, largest, -1, 0,
                                     0, 0, min(width, 32767), min(height, 32767))
    strf = struct.pack("<IiiHH4sIiiII", 40, width, height, 1, 24, b"MJPG", width * height * 3 & 0xFFFFFFFF,
                       0, 0, 0, 0)
    header = _list(b"hdrl", _chunk(b"avih", avih), _list(b"strl", _chunk(b"strh", strh), _chunk(b"strf", strf)))
    movi, index, offset = [], [], 4  # index offsets count from the 'movi' fourcc
    for frame in frames:
        piece = _chunk(b"00dc", frame)
        index.append(b"00dc" + struct.pack("<III", KEYFRAME, offset, len(frame)))
        movi.append(piece)
        offset += len(piece)
    body = header + _list(b"movi", *movi) + _chunk(b"idx1", b"".join(index))
    return b"RIFF" + struct.pack("<I", len(body) + 4) + b"AVI " + body


def mp4(rng: np.random.Generator, frames: int = 12, width: int = 64, height: int = 48) -> bytes:
    """A short MPEG-4 video from OpenCV's writer (it writes only to a file,
    so one is made and removed at once)."""
    import cv2

    handle, path = tempfile.mkstemp(suffix=".mp4")
    os.close(handle)
    try:
        writer = cv2.VideoWriter(path, cv2.VideoWriter_fourcc(*"mp4v"), FPS, (width, height))
        if not writer.isOpened():
            raise RuntimeError("OpenCV cannot write MPEG-4 here")
        for _ in range(frames):
            writer.write(rng.integers(0, 256, (height, width, 3), dtype=np.uint8))
        writer.release()
        with open(path, "rb") as made:
            return made.read()
    finally:
        os.unlink(path)
