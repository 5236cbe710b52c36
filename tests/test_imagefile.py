"""Reading image files people hand us: every way a file can be unusable gets
a clear reason, and good images (including phone quirks) still load."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import cvcompat
from vision.recognize.imagefile import MAX_FILE_BYTES, ImageFileError, declared_size, decode_image, read_image


def _picture(width: int = 64, height: int = 48) -> np.ndarray:
    image = np.zeros((height, width, 3), np.uint8)
    cv2.rectangle(image, (8, 8), (width - 9, height - 9), (40, 200, 90), -1)
    return image


def _jpeg(image: np.ndarray) -> bytes:
    return cv2.imencode(".jpg", image)[1].tobytes()


def _png(image: np.ndarray) -> bytes:
    return cv2.imencode(".png", image)[1].tobytes()


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


def test_a_png_declaring_100000_by_100000_pixels_is_refused_before_decoding(tmp_path):
    data = bytearray(_png(_picture()))
    data[16:24] = (100_000).to_bytes(4, "big") + (100_000).to_bytes(4, "big")
    path = _write(tmp_path, "bomb.png", bytes(data))
    assert declared_size(bytes(data)) == (100_000, 100_000)
    assert "image too large" in _reason(path) and "100000 x 100000" in _reason(path)


def test_a_jpeg_declaring_a_huge_size_is_refused(tmp_path):
    data = bytearray(_jpeg(_picture()))
    sof = data.index(b"\xff\xc0")
    data[sof + 5:sof + 9] = (60_000).to_bytes(2, "big") + (60_000).to_bytes(2, "big")
    assert declared_size(bytes(data)) == (60_000, 60_000)
    assert "image too large" in _reason(_write(tmp_path, "bomb.jpg", bytes(data)))


def test_a_bmp_header_is_read_too():
    data = cv2.imencode(".bmp", _picture(30, 20))[1].tobytes()
    assert declared_size(data) == (30, 20)


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
