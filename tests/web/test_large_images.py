"""Large pictures are read one at a time, so that several sent together
queue instead of multiplying the server's memory; camera frames never wait."""
from __future__ import annotations

import threading
import time

import cv2
import numpy as np
import pytest

from companion.assets import SAMPLE_PHOTOS
from companion.web import jsonapi
from companion.web.jsonapi import ApiError, decoded_image
from vision.recognize import imagefile


def _jpeg(width: int, height: int) -> bytes:
    return cv2.imencode(".jpg", np.full((height, width, 3), 90, np.uint8))[1].tobytes()


LARGE = _jpeg(2000, 1200)  # 2.4 megapixels: more than a full-HD frame
FRAME = _jpeg(640, 480)


def _read_together(app, pictures: list[bytes], hold: float = 0.05) -> tuple[int, list[str]]:
    """Each picture read in a request of its own, all at once: how many
    requests held a decoded picture at the same time, and any refusals."""
    lock, inside, most, refusals = threading.Lock(), [0], [0], []
    start = threading.Barrier(len(pictures))

    def request(data: bytes) -> None:
        with app.test_request_context("/api/photo", method="POST"):
            start.wait()
            try:
                decoded_image(data)
            except ApiError as error:
                refusals.append(f"{error.status} {error}")
                return
            with lock:
                inside[0] += 1
                most[0] = max(most[0], inside[0])
            time.sleep(hold)
            with lock:
                inside[0] -= 1

    threads = [threading.Thread(target=request, args=(data,)) for data in pictures]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return most[0], refusals


def test_large_pictures_sent_together_are_read_one_at_a_time(app):
    assert _read_together(app, [LARGE] * 4) == (1, [])


def test_camera_frames_do_not_wait_for_a_large_picture(app):
    most, refusals = _read_together(app, [LARGE, FRAME, FRAME, FRAME], hold=0.3)
    assert most >= 2 and refusals == []


def test_a_picture_that_waits_too_long_is_answered_busy(app, monkeypatch):
    monkeypatch.setattr(jsonapi, "LARGE_IMAGE_WAIT_SECONDS", 0.05)
    most, refusals = _read_together(app, [LARGE, LARGE], hold=0.5)
    assert most == 1
    assert refusals == ["503 busy reading other large pictures: try again in a moment"]


def test_the_turn_is_given_back_when_the_photo_is_answered(table, client):
    photo = cv2.imdecode(np.frombuffer((SAMPLE_PHOTOS / "top-00.jpg").read_bytes(), np.uint8), cv2.IMREAD_COLOR)
    large = cv2.imencode(".jpg", cv2.resize(photo, (2400, 1350)))[1].tobytes()
    response = client.post(f"/api/games/{table.id}/photo", data=large, content_type="image/jpeg")
    assert response.status_code == 200 and response.get_json()["proposal"]["card"] == "A"
    assert jsonapi.LARGE_IMAGE_TURNS.acquire(blocking=False)
    jsonapi.LARGE_IMAGE_TURNS.release()


def test_a_photo_over_the_working_size_is_decoded_reduced(table, client, monkeypatch):
    photo = cv2.imdecode(np.frombuffer((SAMPLE_PHOTOS / "top-00.jpg").read_bytes(), np.uint8), cv2.IMREAD_COLOR)
    large = cv2.imencode(".jpg", cv2.resize(photo, (6400, 3600)))[1].tobytes()  # 23 megapixels
    flags, real = [], imagefile.cv2.imdecode

    def spy(buffer, flag):  # the deck's faces are read through here too, on first use
        if len(buffer) == len(large):
            flags.append(flag)
        return real(buffer, flag)

    monkeypatch.setattr(imagefile.cv2, "imdecode", spy)
    response = client.post(f"/api/games/{table.id}/photo", data=large, content_type="image/jpeg")
    assert response.status_code == 200 and response.get_json()["proposal"]["card"] == "A"
    assert flags == [cv2.IMREAD_REDUCED_COLOR_2]
