"""Uploads built to cost the server memory or time are refused before the
work, or cut short: images sent as videos, frames larger than 4K, videos
that would keep a thread busy, images too small to hold a card."""
from __future__ import annotations

import io

import cv2
import numpy as np
import pytest
from PIL import Image

from companion.web import camera
from vision.track.sources import SourceError, VideoFile



def compressed_tiff(side: int) -> bytes:
    out = io.BytesIO()
    Image.new("L", (side, side)).save(out, format="TIFF", compression="tiff_deflate")
    return out.getvalue()


@pytest.mark.parametrize("kind", ["video/mp4", "application/octet-stream"])
def test_an_image_sent_as_a_video_is_refused_before_it_is_decoded(table, client, kind):
    body = compressed_tiff(12000)
    assert len(body) < 1_000_000  # tiny on the wire, 144 megapixels once decoded
    response = client.post(f"/api/games/{table.id}/video", data=body, content_type=kind)
    assert response.status_code == 400 and "not a video file" in response.get_json()["error"]
    assert table.get()["version"] == 1


def test_frames_larger_than_4k_are_refused_from_the_header(tmp_path):
    path = tmp_path / "huge.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 15, (4000, 2400))
    writer.write(np.zeros((2400, 4000, 3), np.uint8))
    writer.release()
    with pytest.raises(SourceError, match="4000 x 2400 pixels are larger than a 4K video"):
        VideoFile(path)


def test_a_long_video_is_read_for_a_bounded_time():
    clock = iter(range(1000))
    frames = camera.FirstFrames(iter(range(500)), limit=400, seconds=10, clock=lambda: next(clock))
    assert len(list(frames)) == 10 and frames.cut_short
    frames = camera.FirstFrames(iter(range(5)), limit=400, seconds=10, clock=lambda: 0)
    assert len(list(frames)) == 5 and not frames.cut_short


@pytest.mark.parametrize("size", [(1, 1), (2, 1), (1, 5000), (5000, 1)])
@pytest.mark.parametrize("form", ["PNG", "JPEG"])
def test_an_image_too_small_for_a_card_is_a_clear_400(table, client, size, form):
    out = io.BytesIO()
    Image.new("RGB", size).save(out, format=form)
    response = client.post(f"/api/games/{table.id}/photo", data=out.getvalue(), content_type=f"image/{form.lower()}")
    assert response.status_code == 400 and "image too small" in response.get_json()["error"]


def test_a_camera_frame_larger_than_4k_is_refused_from_its_header(table, client):
    # 5000 x 3000 declared by a tiny file: a photo may be that large, a frame (kept by the camera's tracker) may not
    data = bytearray(_jpeg(64, 48))
    sof = data.index(b"\xff\xc0")
    data[sof + 5:sof + 9] = (3000).to_bytes(2, "big") + (5000).to_bytes(2, "big")
    response = client.post(f"/api/games/{table.id}/frame?device=cam", data=bytes(data), content_type="image/jpeg")
    assert response.status_code == 400
    assert "image too large (5000 x 3000 pixels" in response.get_json()["error"]
    assert table.get()["version"] == 1


def _jpeg(width: int, height: int) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height)).save(out, format="JPEG")
    return out.getvalue()
