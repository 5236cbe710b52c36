"""A folder of phone photos of single Maus au Chocolat cards, one per
distinct face, ready for ``mamma-mia enroll DIR``: the JPEGs, a
``manifest.json`` saying the deck is for Maus (``"game": "maus"``) and
naming each face with its coins, and ``truth.json`` with where each card
really lies in its photo.

The photos are taken as :mod:`tools.synth.enroll_photos` takes Mamma Mia!'s
(the card alone on a table, a handheld phone's tilt and turn, a colour cast,
uneven light, JPEG); photo ``k`` of seed ``s`` is the face at place ``k`` of
the deck, from its own generator seeded with ``(s, k)``.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Sequence

from companion.maus.engine import Card

from tools.synth.card_shot import sample_card_shot
from tools.synth.datasets import item_rng
from tools.synth.enroll_photos import TRUTH, CardPhoto, photograph_card
from tools.synth.maus_art import face_file, maus_faces, render_maus_face
from tools.synth.maus_style import DEFAULT_MAUS_STYLE, MausStyle
from vision.cvcompat import write_bytes
from vision.recognize.decks import MANIFEST

GAME = "maus"


def maus_card_photo(style: MausStyle, seed: int, place: int, card: Card) -> CardPhoto:
    """The photo of the face at deck ``place`` in the set of ``seed``."""
    rng = item_rng(seed, place)
    return photograph_card(render_maus_face(card, style), sample_card_shot(rng), rng, card)  # type: ignore[arg-type]


def write_maus_enroll_photos(out_dir: str | Path, style: MausStyle = DEFAULT_MAUS_STYLE, seed: int = 0,
                             cards: Sequence[Card] | None = None) -> Path:
    """Write the photos, ``manifest.json`` and ``truth.json``; returns the
    manifest's path. ``cards`` limits the set (default: all 70 faces)."""
    out = Path(out_dir)
    manifest: list[dict[str, Any]] = []
    truth: list[dict[str, Any]] = []
    everything = maus_faces()
    for card in cards if cards is not None else everything:
        photo = maus_card_photo(style, seed, everything.index(card), card)
        name = face_file(card).replace(".png", ".jpg")
        write_bytes(out / name, photo.photo.jpeg)
        entry: dict[str, Any] = {"image": name, "card": card.notation}
        if photo.top != "top":
            entry["top"] = photo.top
        manifest.append(entry)
        truth.append({"image": name, "card": card.notation, "top": photo.top,
                      "corners": [[round(float(x), 2), round(float(y), 2)] for x, y in photo.corners]})
    write_bytes(out / TRUTH, _json({"style": style.name, "seed": seed, "photos": truth}))
    write_bytes(out / MANIFEST, _json({"game": GAME, "cards": manifest}))
    return out / MANIFEST


def _json(data: dict[str, Any]) -> bytes:
    return (json.dumps(data, indent=1) + "\n").encode()
