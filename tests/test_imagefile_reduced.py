"""Given a working size, large pictures are decoded reduced, so that one
costs a bounded amount of memory: a JPEG by libjpeg itself, other formats
shrunk right after decoding. Photos of ordinary size are decoded as they are,
and without a working size every picture is."""
from __future__ import annotations

import io

import cv2
import numpy as np
import pytest
from PIL import Image, ImageFile

from vision.recognize import imagefile
from vision.recognize.imagefile import WORK_PIXELS, ImageFileError, decode_image, reduction


def _drawn(width: int, height: int) -> np.ndarray:
    """A grey picture with a green card-sized block whose corner is at a quarter of each side."""
    image = np.full((height, width, 3), 90, np.uint8)
    cv2.rectangle(image, (width // 4, height // 4), (width // 2, height // 2), (40, 200, 90), -1)
    return image


@pytest.fixture
def decoded_with(monkeypatch):
    """The flags each imdecode call was given."""
    flags = []
    real = imagefile.cv2.imdecode

    def spy(buffer, flag):
        flags.append(flag)
        return real(buffer, flag)

    monkeypatch.setattr(imagefile.cv2, "imdecode", spy)
    return flags


def test_a_39_megapixel_jpeg_is_decoded_at_half_size_by_libjpeg(decoded_with):
    data = cv2.imencode(".jpg", _drawn(7200, 5400))[1].tobytes()
    image = decode_image(data, work_pixels=WORK_PIXELS)
    assert decoded_with == [cv2.IMREAD_REDUCED_COLOR_2]
    assert image.shape == (2700, 3600, 3)
    assert image.shape[0] * image.shape[1] <= WORK_PIXELS
    assert image[700, 950].tolist() == pytest.approx([40, 200, 90], abs=3)  # the block, at half its place
    assert image[600, 800].tolist() == pytest.approx([90, 90, 90], abs=3)
    del image
    assert decode_image(data).shape == (5400, 7200, 3)
    assert decoded_with[-1] == cv2.IMREAD_COLOR


def test_a_phone_photo_of_12_or_16_megapixels_is_decoded_as_it_is():
    assert reduction(4032, 3024) == reduction(3024, 4032) == reduction(4608, 3456) == 1
    assert reduction(7200, 5400) == 2 and reduction(8000, 5000) == 2


@pytest.mark.parametrize("suffix", [".jpg", ".png", ".webp", ".tiff", ".bmp", ".gif", ".ppm"])
def test_every_format_comes_back_within_the_working_size(suffix):
    data = cv2.imencode(suffix, _drawn(400, 300))[1].tobytes()
    image = decode_image(data, work_pixels=30_000)
    assert image.shape == (150, 200, 3)
    assert image[56, 75].tolist() == pytest.approx([40, 200, 90], abs=8)  # GIF's palette is coarse
    assert decode_image(data).shape == (300, 400, 3)


def test_a_reduced_picture_keeps_its_exif_turn():
    tags = Image.Exif()
    tags[0x0112] = 6  # orientation: turned a quarter clockwise
    out = io.BytesIO()
    Image.fromarray(_drawn(400, 300)).save(out, "JPEG", exif=tags.tobytes())
    assert decode_image(out.getvalue(), work_pixels=30_000).shape == (200, 150, 3)


def test_a_reduction_never_leaves_a_side_under_16_pixels():
    assert reduction(40, 1_000_000, 1_000_000) == 2
    assert reduction(20, 1_000_000, 1_000_000) == 1


def _declaring(suffix: str, width: int, height: int) -> bytes:
    data = bytearray(cv2.imencode(suffix, _drawn(40, 24))[1].tobytes())
    if suffix == ".gif":  # the logical screen
        data[6:10] = width.to_bytes(2, "little") + height.to_bytes(2, "little")
    else:  # a lossless WebP: 14 bits each for width - 1 and height - 1
        assert data[12:16] == b"VP8L"
        bits = int.from_bytes(data[21:25], "little") & ~0xFFFFFFF
        data[21:25] = (bits | (width - 1) | (height - 1) << 14).to_bytes(4, "little")
    return bytes(data)


@pytest.mark.parametrize("suffix, name", [(".gif", "GIF"), (".webp", "WebP")])
def test_a_gif_or_webp_over_16_megapixels_is_refused_before_decoding(monkeypatch, suffix, name):
    def forbidden(*args, **kwargs):
        raise AssertionError("decoded")

    monkeypatch.setattr(imagefile.cv2, "imdecode", forbidden)
    monkeypatch.setattr(ImageFile.ImageFile, "load", forbidden)
    with pytest.raises(ImageFileError) as refused:
        decode_image(_declaring(suffix, 6000, 6000))
    assert str(refused.value) == f"image too large (6000 x 6000 pixels, 36 megapixels; at most 16 for a {name})"
