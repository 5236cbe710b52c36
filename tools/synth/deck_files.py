"""A deck on disk: one PNG per face plus ``manifest.json``, and a contact sheet.

The manifest is also the format of an *enrolled* deck (photos of a user's own
printed cards), so it stays minimal::

    {"cards": [{"image": "ingredient-salami.png", "card": {"kind": "ingredient", ...}}, ...]}

Image paths are relative to the manifest's folder.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import cv2
import numpy as np

from companion.engine import Card, card_to_json

from vision.catalog import distinct_faces, face_slug
from vision.cvcompat import encode_png, fit_text_scale, put_text_centered, read_image, write_bytes
from vision.recognize.decks import MANIFEST, ManifestEntry, read_manifest
from tools.synth.deck_art import face_mask, render_face
from tools.synth.style import DEFAULT_STYLE, DeckStyle


@dataclass(frozen=True)
class DeckFace:
    """A face in memory: what a recogniser is enrolled with."""

    card: Card
    image: np.ndarray


def render_deck(style: DeckStyle = DEFAULT_STYLE) -> list[DeckFace]:
    """All 51 faces of ``style`` in catalogue order."""
    return [DeckFace(card, render_face(card, style)) for card in distinct_faces()]


def write_deck(out_dir: str | Path, style: DeckStyle = DEFAULT_STYLE) -> list[ManifestEntry]:
    """Write each face as PNG and the manifest; returns the entries."""
    out = Path(out_dir)
    entries = []
    for index, face in enumerate(render_deck(style)):
        path = out / f"{face_slug(face.card)}.png"
        write_bytes(path, encode_png(face.image))
        entries.append(ManifestEntry(index, face.card, path))
    manifest = {"cards": [{"image": e.image.name, "card": card_to_json(e.card)} for e in entries]}
    write_bytes(out / MANIFEST, (json.dumps(manifest, indent=1) + "\n").encode())
    return entries


def load_deck(path: str | Path) -> list[DeckFace]:
    """The faces of a deck folder (or of its ``manifest.json``), read with the
    recogniser's own manifest reader."""
    path = Path(path)
    folder = path.parent if path.name == MANIFEST else path
    return [DeckFace(entry.card, _load_face(entry)) for entry in read_manifest(folder)]


def _load_face(entry: ManifestEntry) -> np.ndarray:
    # read_manifest leaves missing images to its caller; a deck on disk must have them all
    if not entry.image.is_file():
        raise FileNotFoundError(f"{entry.image}: missing, though its manifest lists it")
    return read_image(entry.image)


def contact_sheet(faces: Sequence[DeckFace], columns: int = 10, card_width: int = 150,
                  background: tuple[int, int, int] = (70, 70, 70)) -> np.ndarray:
    """All faces in a labelled grid, corners rounded as on a real card."""
    first = faces[0].image
    card_height = round(card_width * first.shape[0] / first.shape[1])
    pad, label = 12, 22
    rows = (len(faces) + columns - 1) // columns
    sheet = np.full((rows * (card_height + pad + label) + pad, columns * (card_width + pad) + pad, 3),
                    background, np.uint8)
    for k, face in enumerate(faces):
        x = pad + (k % columns) * (card_width + pad)
        y = pad + (k // columns) * (card_height + pad + label)
        small = cv2.resize(face.image, (card_width, card_height), interpolation=cv2.INTER_AREA)
        mask = cv2.resize(face_mask(face.image), (card_width, card_height), interpolation=cv2.INTER_AREA)[..., None]
        region = sheet[y:y + card_height, x:x + card_width]
        region[:] = (small * mask + region * (1 - mask)).astype(np.uint8)
        text = face.card.notation
        scale = min(0.5, fit_text_scale(text, cv2.FONT_HERSHEY_SIMPLEX, card_width - 8, label - 8, 1))
        put_text_centered(sheet, text, (x + card_width / 2, y + card_height + label / 2 + 2),
                          cv2.FONT_HERSHEY_SIMPLEX, scale, (235, 235, 235), 1)
    return sheet


def write_contact_sheet(faces: Sequence[DeckFace], path: str | Path) -> Path:
    write_bytes(path, encode_png(contact_sheet(faces)))
    return Path(path)
