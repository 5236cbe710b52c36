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


RETAKE_SEED_STEP = 1_000_003  # a retake's seed: the set's plus this times the attempt


def retake_maus_photos(folder: str | Path, images: Sequence[str], attempt: int) -> None:
    """Photograph the cards of ``images`` (file names in ``folder``) again, as
    a player does when enrollment refuses a picture: the same card, another
    shot drawn from the set's seed and ``attempt``. The photos, ``truth.json``
    and their manifest entries are rewritten."""
    from tools.synth.maus_style import maus_style_named

    out = Path(folder)
    truth = json.loads((out / TRUTH).read_text())
    manifest = json.loads((out / MANIFEST).read_text())
    style = maus_style_named(truth["style"])
    everything = maus_faces()
    truths = {entry["image"]: entry for entry in truth["photos"]}
    entries = {entry["image"]: entry for entry in manifest["cards"]}
    for image in images:
        card = Card.from_notation(entries[image]["card"])
        photo = maus_card_photo(style, truth["seed"] + RETAKE_SEED_STEP * attempt, everything.index(card), card)
        write_bytes(out / image, photo.photo.jpeg)
        entries[image].clear()
        entries[image].update({"image": image, "card": card.notation, **({"top": photo.top} if photo.top != "top"
                                                                         else {})})
        truths[image].update({"top": photo.top, "corners": [[round(float(x), 2), round(float(y), 2)]
                                                             for x, y in photo.corners]})
    write_bytes(out / TRUTH, _json(truth))
    write_bytes(out / MANIFEST, _json(manifest))
