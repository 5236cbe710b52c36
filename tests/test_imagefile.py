"""Reading image files people hand us: every way a file can be unusable gets
a clear reason, and good images (including phone quirks) still load."""
from __future__ import annotations

import io
import warnings
import zlib

import cv2
import numpy as np
import pytest
from PIL import Image, ImageFile

from vision import cvcompat
from vision.recognize import imagefile
from vision.recognize.imagefile import MAX_FILE_BYTES, ImageFileError, declared_size, decode_image, read_image


def _picture(width: int = 64, height: int = 48) -> np.ndarray:
    image = np.zeros((height, width, 3), np.uint8)
    cv2.rectangle(image, (8, 8), (width - 9, height - 9), (40, 200, 90), -1)
    return image


def _jpeg(image: np.ndarray) -> bytes:
    return cv2.imencode(".jpg", image)[1].tobytes()


def _png(image: np.ndarray) -> bytes:
    return cv2.imencode(".png", image)[1].tobytes()


# each accepted format, as OpenCV writes it (PGM: a grey image; Pillow calls PPM and PGM "PPM")
ENCODINGS = {"JPEG": ".jpg", "PNG": ".png", "WEBP": ".webp", "TIFF": ".tiff", "BMP": ".bmp", "GIF": ".gif",
             "PPM": ".ppm", "PGM": ".pgm"}


def _encoded(kind: str, image: np.ndarray) -> bytes:
    return cv2.imencode(ENCODINGS[kind], image[:, :, 1] if kind == "PGM" else image)[1].tobytes()


def _declaring(kind: str, width: int, height: int) -> bytes:
    """A small ``kind`` file whose header declares ``width`` x ``height``."""
    data = bytearray(_encoded(kind, _picture(40, 24)))
    if kind == "PNG":  # IHDR's size, then its checksum, which Pillow verifies
        data[16:24] = width.to_bytes(4, "big") + height.to_bytes(4, "big")
        data[29:33] = zlib.crc32(data[12:29]).to_bytes(4, "big")
    elif kind == "JPEG":  # the baseline start-of-frame segment
        sof = data.index(b"\xff\xc0")
        data[sof + 5:sof + 9] = height.to_bytes(2, "big") + width.to_bytes(2, "big")
    elif kind == "GIF":  # the logical screen
        data[6:10] = width.to_bytes(2, "little") + height.to_bytes(2, "little")
    elif kind == "BMP":
        data[18:26] = width.to_bytes(4, "little") + height.to_bytes(4, "little")
    elif kind == "WEBP":  # lossless: 14 bits each for width - 1 and height - 1
        assert data[12:16] == b"VP8L"
        bits = int.from_bytes(data[21:25], "little") & ~0xFFFFFFF
        data[21:25] = (bits | (width - 1) | (height - 1) << 14).to_bytes(4, "little")
    elif kind == "TIFF":  # the ImageWidth and ImageLength entries of the first directory
        assert data[:4] == b"II*\x00"
        directory = int.from_bytes(data[4:8], "little")
        for entry in range(int.from_bytes(data[directory:directory + 2], "little")):
            at = directory + 2 + 12 * entry
            tag = int.from_bytes(data[at:at + 2], "little")
            if tag in (256, 257):
                data[at + 2:at + 12] = (4).to_bytes(2, "little") + (1).to_bytes(4, "little") + \
                    (width if tag == 256 else height).to_bytes(4, "little")
    else:  # PPM and PGM: a text header
        data = data.replace(b"\n40 24\n", f"\n{width} {height}\n".encode(), 1)
    return bytes(data)


@pytest.fixture
def no_decoding(monkeypatch):
    """Fails the test if OpenCV or Pillow decodes a single pixel."""
    def forbidden(*args, **kwargs):
        raise AssertionError("decoded")

    monkeypatch.setattr(imagefile.cv2, "imdecode", forbidden)
    monkeypatch.setattr(ImageFile.ImageFile, "load", forbidden)


def _write(tmp_path, name: str, data: bytes):
    path = tmp_path / name
    path.write_bytes(data)
    return path


def _reason(path) -> str:
    with pytest.raises(ImageFileError) as error:
        read_image(path)
    return str(error.value)


@pytest.mark.parametrize("encode", [_jpeg, _png])
def test_a_good_image_loads_as_bgr(tmp_path, encode):
    image = _picture()
    loaded = read_image(_write(tmp_path, "good.img", encode(image)))
    assert loaded.shape == (48, 64, 3) and loaded.dtype == np.uint8
    assert np.abs(loaded.astype(int) - image).mean() < 3


def test_an_empty_file(tmp_path):
    assert "empty file" in _reason(_write(tmp_path, "empty.jpg", b""))


@pytest.mark.parametrize("encode", [_jpeg, _png])
def test_a_truncated_image(tmp_path, encode):
    data = encode(_picture(200, 150))
    # OpenCV itself would decode the JPEG half with a grey bottom, silently
    assert "truncated image" in _reason(_write(tmp_path, "cut.img", data[: len(data) * 2 // 3]))


def test_a_jpeg_cut_inside_its_header_is_truncated(tmp_path):
    assert "truncated image" in _reason(_write(tmp_path, "cut.jpg", _jpeg(_picture())[:30]))


def test_a_truncated_jpeg_with_a_whole_thumbnail_inside_is_still_truncated(tmp_path):
    thumbnail = _jpeg(_picture(16, 12))  # carries its own end-of-image marker
    app1 = b"\xff\xe1" + (len(thumbnail) + 2).to_bytes(2, "big") + thumbnail
    main = _jpeg(_picture(200, 150))
    data = main[:2] + app1 + main[2:]
    assert read_image(_write(tmp_path, "whole.jpg", data)).shape == (150, 200, 3)
    assert "truncated image" in _reason(_write(tmp_path, "cut.jpg", data[: len(data) - 200]))


def test_bytes_after_the_end_of_a_jpeg_are_tolerated(tmp_path):
    # some phones append kilobytes of their own data after the image
    data = _jpeg(_picture()) + b"\x00TRAILER" * 400
    assert read_image(_write(tmp_path, "phone.jpg", data)).shape == (48, 64, 3)


def test_a_text_file_renamed_to_jpg(tmp_path):
    reason = _reason(_write(tmp_path, "notes.jpg", b"shopping list: salami, olives\n" * 20))
    assert "not an image file" in reason


def test_a_damaged_jpeg_body_is_not_an_image(tmp_path):
    data = bytearray(_jpeg(_picture()))
    data[2:40] = bytes(38)  # the header is garbage, the end marker still there
    assert "damaged image" in _reason(_write(tmp_path, "bad.jpg", bytes(data)))


def test_a_directory(tmp_path):
    (tmp_path / "holiday.jpg").mkdir()
    assert "folder" in _reason(tmp_path / "holiday.jpg")


def test_a_missing_file(tmp_path):
    assert "cannot read the file" in _reason(tmp_path / "nowhere.jpg")


@pytest.mark.parametrize("kind", ENCODINGS)
def test_each_accepted_format_declares_its_size_and_loads(tmp_path, kind):
    data = _encoded(kind, _picture(40, 24))
    assert declared_size(data) == (40, 24)
    assert read_image(_write(tmp_path, "picture.img", data)).shape == (24, 40, 3)


def test_a_multi_picture_jpeg_from_a_phone_reads_as_a_jpeg(tmp_path):
    # some phones store a second picture (depth, a preview) after the first: Pillow calls it MPO
    first, second = Image.new("RGB", (40, 24), (90, 200, 40)), Image.new("RGB", (40, 24), (0, 0, 0))
    buffer = io.BytesIO()
    first.save(buffer, "MPO", save_all=True, append_images=[second])
    loaded = read_image(_write(tmp_path, "phone.jpg", buffer.getvalue()))
    assert loaded.shape == (24, 40, 3) and loaded[12, 20, 1] > 150


@pytest.mark.parametrize("kind", ["ICO", "JPEG2000"])
def test_a_format_we_do_not_read_is_refused_even_if_opencv_could(tmp_path, kind):
    buffer = io.BytesIO()
    Image.new("RGB", (40, 24), (90, 200, 40)).save(buffer, kind)
    reason = _reason(_write(tmp_path, "picture.img", buffer.getvalue()))
    assert reason == "not an image file (or a format that cannot be read; " \
                     "use JPEG, PNG, WebP, TIFF, BMP, GIF, PPM or PGM)"


@pytest.mark.parametrize("kind", ENCODINGS)
def test_a_tiny_file_declaring_16383_by_16383_is_refused_without_decoding(tmp_path, kind, no_decoding):
    data = _declaring(kind, 16383, 16383)
    assert len(data) < 3000
    assert _reason(_write(tmp_path, "bomb.img", data)) == "image too large (more than 179 megapixels; at most 40)"


@pytest.mark.parametrize("kind", ["PNG", "JPEG", "TIFF"])
def test_a_size_over_our_limit_is_refused_by_its_declared_size_without_a_warning(tmp_path, kind, no_decoding):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        large = _reason(_write(tmp_path, "large.img", _declaring(kind, 8000, 6000)))
        beyond_pillows_warning = _reason(_write(tmp_path, "larger.img", _declaring(kind, 10000, 10000)))
    assert large == "image too large (8000 x 6000 pixels, 48 megapixels; at most 40)"
    assert beyond_pillows_warning.startswith("image too large (10000 x 10000 pixels")
    assert caught == []


@pytest.mark.parametrize("width, height", [(1, 1), (5000, 1), (15, 300)])
def test_images_too_small_to_show_a_card_are_refused_before_decoding(tmp_path, width, height, no_decoding):
    data = _png(np.zeros((height, width, 3), np.uint8))
    assert _reason(_write(tmp_path, "dot.png", data)) == \
        f"image too small: {width} x {height} pixels (at least 16 on each side)"


def _broken_png_checksum() -> bytes:
    data = bytearray(_png(_picture()))
    data[29] ^= 0xFF
    return bytes(data)


@pytest.mark.parametrize("data, reason", [
    (_broken_png_checksum(), "damaged image: the file starts like a photo but cannot be decoded"),
    (b"BM" + b"\xff" * 60, "damaged image: its header cannot be read"),
    (_encoded("WEBP", _picture())[:30] + b"\x55" * 40,
     "damaged image: the WEBP header is readable but the picture cannot be decoded"),
    (_encoded("PPM", _picture())[:-100], "damaged image: the PPM header is readable but the picture cannot be decoded"),
], ids=["png-checksum", "bmp-header", "webp-picture", "ppm-cut"])
def test_a_corrupt_file_gets_a_clear_reason(tmp_path, data, reason):
    assert _reason(_write(tmp_path, "corrupt.img", data)).startswith(reason)


def test_an_absurdly_large_file_is_refused_without_reading_it(tmp_path):
    path = tmp_path / "huge.jpg"
    with open(path, "wb") as handle:
        handle.truncate(MAX_FILE_BYTES + 1)  # sparse: no disk used
    assert "file too large" in _reason(path)


def test_a_decoded_size_limit_applies_to_every_format():
    with pytest.raises(ImageFileError, match="image too large"):
        decode_image(_png(_picture(100, 100)), max_pixels=5_000)


def test_cvcompat_reads_images_the_same_way(tmp_path):
    path = _write(tmp_path, "cut.png", _png(_picture())[:-20])
    with pytest.raises(ImageFileError, match="truncated"):
        cvcompat.read_image(path)
    with pytest.raises(ValueError):
        cvcompat.decode_image(b"GIF89a-not-really")
    assert cvcompat.decode_image(_png(_picture())).shape == (48, 64, 3)


def test_a_phone_photo_is_turned_as_its_exif_orientation_says(tmp_path):
    # phones store the sensor's pixels and note the turn (EXIF orientation 6:
    # turn clockwise); a card held upright must come out upright
    image = np.zeros((40, 80, 3), np.uint8)
    image[:, :20] = 255  # the left edge of the stored pixels is the top of the view
    tiff = b"MM\x00\x2a" + (8).to_bytes(4, "big") + (1).to_bytes(2, "big") + \
        bytes.fromhex("0112 0003 00000001 0006 0000") + bytes(4)
    payload = b"Exif\x00\x00" + tiff
    jpeg = _jpeg(image)
    data = jpeg[:2] + b"\xff\xe1" + (len(payload) + 2).to_bytes(2, "big") + payload + jpeg[2:]
    loaded = read_image(_write(tmp_path, "phone.jpg", data))
    assert loaded.shape == (80, 40, 3)
    assert loaded[:20].mean() > 200 and loaded[30:].mean() < 50
