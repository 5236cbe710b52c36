"""A corpus of hostile upload files, made in memory from a seed: images of 1
or 2 pixels on a side and 1 x 5000 strips in every format the app reads;
decompression bombs (small files whose headers declare 7000 x 6000 up to
65535 x 65535) and small files declaring 36 megapixels, just under the app's
limit, which a lenient decoder really builds; the same sent under a wrong
content type; JPEGs and PNGs cut short;
random bytes; polyglots; files of the wrong kind; and, for the video upload,
images posing as videos, cut and garbled containers and Motion-JPEG AVIs
declaring frames larger than 4K.

    python -m tools.bench.hostile_files --out DIR [--seed 22]

writes every file into DIR with ``index.json`` (name, content type, what it
tries). ``corpus()`` gives the same list to the attack bench and the tests.

>>> files = corpus()
>>> len(files) >= 200, len({f.name for f in files}) == len(files)
(True, True)
"""
from __future__ import annotations

import argparse
import io
import json
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import numpy as np
from PIL import Image, ImageDraw

from .hostile_images import BOMB_KINDS, FORMATS, LARGEST_SIDE, bomb_source, declaring, encode
from .hostile_videos import jpeg_frame, mjpeg_avi, mp4

SEED = 22
TINY_SIZES = [(1, 1), (2, 1), (1, 2), (2, 2), (1, 5000), (5000, 1)]
# just past the app's 40 megapixels, past Pillow's own limit, and a 16-bit header's largest
BOMB_SIZES = [(7000, 6000), (16383, 16383), (20000, 20000), (65535, 65535)]
NEAR_LIMIT = (6000, 6000)  # 36 megapixels: under the limit, so a lenient decoder really decodes it
RANDOM_SIZES = [1, 2, 3, 4, 8, 16, 64, 255, 1024, 4096, 65536, 1_000_000]
MAGIC = {"jpeg": b"\xff\xd8\xff\xe0", "png": b"\x89PNG\r\n\x1a\n", "gif": b"GIF89a", "bmp": b"BM",
         "tiff": b"II*\x00", "webp": b"RIFF\x00\x10\x00\x00WEBPVP8L", "ppm": b"P6\n"}
TOO_LARGE_BYTES = 17 * 1024 * 1024  # past the 16 MB upload limit
OVER_FRAME_BYTES = 3 * 1024 * 1024  # past the 2 MB camera-frame limit only


@dataclass(frozen=True)
class HostileFile:
    name: str
    data: bytes
    content_type: str
    what: str


def corpus(seed: int = SEED) -> list[HostileFile]:
    """Every hostile file, the same ones for the same seed."""
    rng = np.random.default_rng(seed)
    makers = (tiny_images, bombs, truncated, random_files, polyglots, wrong_kinds, videos)
    return [hostile for make in makers for hostile in make(rng)]


def posing(hostile: HostileFile) -> HostileFile:
    """The same file under a content type it is not: the app's image uploads
    accept only image/jpeg and image/png, so this is how every other format
    reaches the decoder."""
    wrong = "image/png" if hostile.content_type == "image/jpeg" else "image/jpeg"
    return HostileFile(f"{hostile.name}-as-{wrong.split('/')[1]}", hostile.data, wrong,
                       f"{hostile.what}, sent as {wrong}")


def _both(hostile: HostileFile) -> Iterator[HostileFile]:
    yield hostile
    yield posing(hostile)


def tiny_images(rng: np.random.Generator) -> Iterator[HostileFile]:
    for kind, (_, content_type) in FORMATS.items():
        for width, height in TINY_SIZES:
            yield from _both(HostileFile(f"tiny-{width}x{height}.{kind}", encode(kind, width, height, rng),
                                         content_type, f"a {width} x {height} {kind.upper()}"))


def bombs(rng: np.random.Generator) -> Iterator[HostileFile]:
    for name in BOMB_KINDS:
        source, patch = bomb_source(name, rng)
        kind, content_type = BOMB_KINDS[name][0], FORMATS[BOMB_KINDS[name][0]][1]
        for width, height in BOMB_SIZES:
            if max(width, height) <= LARGEST_SIDE.get(patch, 2**31 - 1):
                data = declaring(source, patch, width, height)
                yield from _both(HostileFile(f"bomb-{name}-{width}x{height}.{kind}", data, content_type,
                                             f"{len(data)} bytes of {name} declaring {width} x {height}"))
        yield _decodable(HostileFile(f"near-limit-{name}.{kind}", declaring(source, patch, *NEAR_LIMIT), content_type,
                                     f"{name} declaring {NEAR_LIMIT[0]} x {NEAR_LIMIT[1]}, under the size limit"))


def large_pictures(rng: np.random.Generator) -> list[HostileFile]:
    """Pictures near the size limit that decode in full, for sending several at
    once: a JPEG declaring 36 megapixels and a drawn PNG of 39 (a few hundred kB)."""
    source, patch = bomb_source("jpeg", rng)
    jpeg = declaring(source, patch, *NEAR_LIMIT)
    picture = Image.new("RGB", (7200, 5400), (90, 120, 60))
    ImageDraw.Draw(picture).rectangle((2000, 1500, 3000, 3060), fill=(240, 230, 200))
    out = io.BytesIO()
    picture.save(out, format="PNG")
    return [HostileFile("near-limit-jpeg.jpeg", jpeg, "image/jpeg", f"JPEG declaring {NEAR_LIMIT[0]} x {NEAR_LIMIT[1]}"),
            HostileFile("drawn-7200x5400.png", out.getvalue(), "image/png", "a drawn PNG of 7200 x 5400")]


def _decodable(hostile: HostileFile) -> HostileFile:
    """The file under the content type that gets it decoded: a lenient
    decoder really builds an image that large, so once is enough."""
    return hostile if hostile.content_type in ("image/jpeg", "image/png") else posing(hostile)


def truncated(rng: np.random.Generator) -> Iterator[HostileFile]:
    for kind in ("jpeg", "png"):
        whole = encode(kind, 160, 120, rng)
        cuts = sorted({1, 2, 3, 4, 8, 12, 20, 33, 64, 100, *(int(len(whole) * share) for share in
                       (0.1, 0.25, 0.4, 0.5, 0.6, 0.75, 0.9, 0.99)), len(whole) - 2, len(whole) - 1})
        for cut in cuts:
            yield HostileFile(f"cut-{cut}-of-{len(whole)}.{kind}", whole[:cut], FORMATS[kind][1],
                              f"a {kind.upper()} cut after {cut} of {len(whole)} bytes")


def random_files(rng: np.random.Generator) -> Iterator[HostileFile]:
    types = ["image/jpeg", "image/png", "application/octet-stream", "video/mp4"]
    for index, size in enumerate(RANDOM_SIZES):
        yield HostileFile(f"random-{size}.bin", _noise(rng, size), types[index % len(types)],
                          f"{size} random bytes")
    for kind, magic in MAGIC.items():
        yield HostileFile(f"random-after-{kind}-magic.bin", magic + _noise(rng, 4096), "image/jpeg",
                          f"a {kind.upper()} signature, then random bytes")
    yield HostileFile("random-over-frame-limit.jpg", MAGIC["jpeg"] + _noise(rng, OVER_FRAME_BYTES), "image/jpeg",
                      "3 MB after a JPEG signature: over the camera frame's 2 MB")
    yield HostileFile("zeros-over-upload-limit.jpg", MAGIC["jpeg"] + bytes(TOO_LARGE_BYTES), "image/jpeg",
                      "17 MB: over the 16 MB upload limit")


def polyglots(rng: np.random.Generator) -> Iterator[HostileFile]:
    jpeg, png = encode("jpeg", 64, 48, rng), encode("png", 64, 48, rng)
    html = b"<html><body><script>alert(document.cookie)</script></body></html>"
    yield from _both(HostileFile("polyglot-jpeg-zip.jpg", jpeg + _zip({"evil.sh": b"rm -rf ~\n"}), "image/jpeg",
                                 "a JPEG with a ZIP archive after it"))
    yield from _both(HostileFile("polyglot-png-html.png", _png_with_text(png, html) + html, "image/png",
                                 "a PNG carrying HTML in a text chunk and after its end"))
    yield from _both(HostileFile("polyglot-gif-js.gif", _gif_javascript(), "image/gif",
                                 "a GIF that is also JavaScript (its screen width opens a comment)"))
    yield from _both(HostileFile("polyglot-jpeg-pdf.jpg", jpeg + _pdf(), "image/jpeg",
                                 "a JPEG with a PDF after it"))
    yield from _both(HostileFile("polyglot-jpeg-svg-comment.jpg", _jpeg_comment(jpeg, _svg()), "image/jpeg",
                                 "a JPEG whose comment segment is an SVG with a script"))
    yield HostileFile("polyglot-html-then-png.html", html + png, "image/png", "HTML first, a PNG after it")


def wrong_kinds(rng: np.random.Generator) -> Iterator[HostileFile]:
    kinds = {
        "pdf": (_pdf(), "application/pdf"),
        "zip": (_zip({"a.txt": b"hello"}), "application/zip"),
        "elf": (b"\x7fELF\x02\x01\x01" + bytes(9) + b"\x02\x00\x3e\x00" + _noise(rng, 1000), "application/x-elf"),
        "exe": (b"MZ\x90\x00" + _noise(rng, 1000), "application/vnd.microsoft.portable-executable"),
        "html": (b"<!doctype html><script>fetch('/api/games',{method:'POST'})</script>", "text/html"),
        "svg": (_svg(), "image/svg+xml"),
        "json": (b'{"players": [{"name": "Ann", "color": "green"}]}', "application/json"),
        "text": ("a photo of the salami card, honest\n".encode(), "text/plain"),
        "empty": (b"", "image/jpeg"),
        "gzip": (zlib.compress(b"\x00" * 1_000_000, 9), "application/gzip"),
        "xml-entities": (_billion_laughs(), "application/xml"),
        "shell": (b"#!/bin/sh\nrm -rf /\n", "application/x-sh"),
    }
    for name, (data, content_type) in kinds.items():
        yield from _both(HostileFile(f"wrong-{name}", data, content_type, f"a {name} file, not a picture"))


def videos(rng: np.random.Generator) -> Iterator[HostileFile]:
    frames = [jpeg_frame(rng, 64, 48) for _ in range(8)]
    avi, movie = mjpeg_avi(frames, 64, 48), mp4(rng)
    yield HostileFile("video-ok.avi", avi, "video/x-msvideo", "a small valid Motion-JPEG AVI (the control)")
    for kind in ("jpeg", "png", "gif"):
        for content_type in ("video/mp4", "application/octet-stream"):
            yield HostileFile(f"image-as-video-{kind}-{content_type.replace('/', '-')}",
                              encode(kind, 64, 48, rng), content_type, f"a {kind.upper()} posing as a video")
    for name in ("tiff-deflate", "webp-lossless"):
        source, patch = bomb_source(name, rng)
        yield HostileFile(f"bomb-as-video-{name}", declaring(source, patch, 16383, 16383), "video/mp4",
                          f"a {name} bomb posing as a video")
    for whole, kind, content_type in ((avi, "avi", "video/x-msvideo"), (movie, "mp4", "video/mp4")):
        for share in (0.02, 0.1, 0.3, 0.5, 0.7, 0.9, 0.99):
            cut = max(1, int(len(whole) * share))
            yield HostileFile(f"cut-{cut}-of-{len(whole)}.{kind}", whole[:cut], content_type,
                              f"an {kind.upper()} cut after {cut} of {len(whole)} bytes")
    yield from _garbled_containers(rng)
    yield from _oversized_avis(frames)


def _garbled_containers(rng: np.random.Generator) -> Iterator[HostileFile]:
    heads = {"riff-avi": b"RIFF\xff\xff\xff\x7fAVI LIST", "ftyp": b"\x00\x00\x00\x18ftypisom",
             "moov": b"\xff\xff\xff\xffmoov", "mdat": b"\x00\x00\x00\x01mdat", "matroska": b"\x1a\x45\xdf\xa3"}
    for name, head in heads.items():
        for size in (16, 4096, 1_000_000):
            yield HostileFile(f"garbled-{name}-{size}", head + _noise(rng, size), "video/mp4",
                              f"a {name} header, then {size} random bytes")


def _oversized_avis(frames: list[bytes]) -> Iterator[HostileFile]:
    for width, height in ((3841, 2161), (5000, 5000), (16383, 16383), (65535, 65535)):
        yield HostileFile(f"avi-header-{width}x{height}.avi", mjpeg_avi(frames, width, height), "video/x-msvideo",
                          f"an MJPEG AVI whose header declares {width} x {height} frames")
    for width, height in ((4000, 2400), (7680, 4320), (16383, 16383)):
        patched = [declaring(frame, "sof", width, height) for frame in frames]
        yield HostileFile(f"avi-frames-{width}x{height}.avi", mjpeg_avi(patched, width, height), "video/x-msvideo",
                          f"an MJPEG AVI whose header and frames declare {width} x {height}")
        yield HostileFile(f"avi-hidden-frames-{width}x{height}.avi", mjpeg_avi(patched, 64, 48), "video/x-msvideo",
                          f"an MJPEG AVI declaring 64 x 48 whose frames declare {width} x {height}")
    yield HostileFile("avi-billions-of-frames.avi", mjpeg_avi(frames, 64, 48, total_frames=2**31 - 1),
                      "video/x-msvideo", "an MJPEG AVI declaring 2**31 - 1 frames")


# the pieces -------------------------------------------------------------------------------------


def _noise(rng: np.random.Generator, size: int) -> bytes:
    return rng.integers(0, 256, size, dtype=np.uint8).tobytes()


def _zip(files: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name, data in files.items():
            archive.writestr(zipfile.ZipInfo(name, (2024, 1, 1, 0, 0, 0)), data)  # fixed date: same bytes each run
    return out.getvalue()


def _pdf() -> bytes:
    return (b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R/OpenAction<</S/JavaScript/JS(app.alert(1))>>>>endobj\n"
            b"2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n")


def _svg() -> bytes:
    return (b'<svg xmlns="http://www.w3.org/2000/svg" width="64" height="48" onload="alert(1)">'
            b"<script>alert(document.domain)</script><rect width=\"64\" height=\"48\"/></svg>")


def _billion_laughs() -> bytes:
    entities = "".join(f'<!ENTITY l{i} "{f"&l{i - 1};" * 10}">' for i in range(1, 10))
    return f'<?xml version="1.0"?><!DOCTYPE l [<!ENTITY l0 "lol">{entities}]><l>&l9;</l>'.encode()


def _png_with_text(png: bytes, text: bytes) -> bytes:
    """``png`` with a tEXt chunk right after its header chunk (8 + 25 bytes)."""
    data = b"Comment\x00" + text
    chunk = len(data).to_bytes(4, "big") + b"tEXt" + data + zlib.crc32(b"tEXt" + data).to_bytes(4, "big")
    return png[:33] + chunk + png[33:]


def _jpeg_comment(jpeg: bytes, text: bytes) -> bytes:
    return jpeg[:2] + b"\xff\xfe" + (len(text) + 2).to_bytes(2, "big") + text + jpeg[2:]


def _gif_javascript() -> bytes:
    """GIF89a, then a screen width of bytes '/*' (10799 pixels) opening a
    JavaScript comment that the bytes after the trailer close."""
    screen = b"/*" + (256).to_bytes(2, "little") + b"\x80\x00\x00"  # 10799 x 256, a 2-colour table
    image = b"\x2c" + bytes(4) + (1).to_bytes(2, "little") * 2 + b"\x00\x02\x02\x44\x01\x00"
    return b"GIF89a" + screen + b"\x00\x00\x00\xff\xff\xff" + image + b";*/=alert(1);"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench.hostile_files", description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="folder to write the files into")
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    files = corpus(args.seed)
    for hostile in files:
        (args.out / hostile.name).write_bytes(hostile.data)
    index = [{"name": f.name, "content_type": f.content_type, "what": f.what, "bytes": len(f.data)} for f in files]
    (args.out / "index.json").write_text(json.dumps(index, indent=1))
    print(f"{len(files)} files, {sum(len(f.data) for f in files) / 1e6:.1f} MB, in {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
