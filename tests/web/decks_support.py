"""Helpers for the deck API tests: pictures of the stand-in faces, and what
lies on disk, to check that a refusal changed nothing."""
from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

import cv2
import numpy as np
from flask.testing import FlaskClient

from companion.assets import DEFAULT_DECK_DIR
from companion.engine import parse_card
from vision.catalog import face_slug

from ..test_enroll import card_photo


def face_png(notation: str) -> bytes:
    """The stand-in deck's face of a card, as a scan cut to its edges."""
    return (DEFAULT_DECK_DIR / f"{face_slug(parse_card(notation))}.png").read_bytes()


def photo_jpeg(notation: str, blur: float = 0.0) -> bytes:
    """A photo of the stand-in face lying on a plain table."""
    face = cv2.imread(str(DEFAULT_DECK_DIR / f"{face_slug(parse_card(notation))}.png"))
    photo = card_photo(face, [[330, 110], [600, 140], [585, 560], [300, 535]])
    if blur:
        photo = cv2.GaussianBlur(photo, (0, 0), blur)
    return cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, 92])[1].tobytes()


def blank_jpeg() -> bytes:
    return cv2.imencode(".jpg", np.full((600, 800, 3), (70, 95, 120), np.uint8))[1].tobytes()


def files(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` with its content: equal before and after means nothing changed."""
    if not folder.exists():
        return {}
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def new_deck(client: FlaskClient, name: str = "Our cards", doubles: bool = True) -> str:
    response = client.post("/api/decks", json={"name": name, "doubles": doubles})
    assert response.status_code == 201, response.get_json()
    return response.get_json()["id"]


def teach(client: FlaskClient, deck: str, notation: str, picture: bytes | None = None,
          kind: str = "image/png") -> dict:
    response = client.post(f"/api/decks/{deck}/faces?card={_quoted(notation)}",
                           data=face_png(notation) if picture is None else picture, content_type=kind)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def _quoted(notation: str) -> str:
    return quote(notation, safe="")
