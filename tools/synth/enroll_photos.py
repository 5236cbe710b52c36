"""A folder of phone photos of single cards, one per face, ready for
``mamma-mia enroll DIR``: the JPEGs, ``manifest.json`` in the deck format
(:func:`vision.recognize.decks.read_manifest`) and ``truth.json`` with where
each card really lies in its photo.

Photo ``k`` of seed ``s`` is the face at place ``k`` of the catalogue, drawn
from its own generator seeded with ``(s, k)``: leaving the doubles out
changes no other photo, and the same seed gives the same bytes.

The manifest gives a ``"top"`` hint only for a card lying across its
picture: enrollment takes the short edge nearest the picture's top for the
card's top, which is right for every other photo.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from companion.engine import Card, IngredientCard, card_to_json

from tools.synth.backgrounds import table_background
from tools.synth.camera_effects import Shot, shoot
from tools.synth.card_shot import CardShot, card_share, sample_card_shot, top_side
from tools.synth.compose import composite_card, new_labels
from tools.synth.datasets import item_rng
from tools.synth.deck_art import render_face
from tools.synth.style import DeckStyle, style_named
from vision.catalog import distinct_faces, face_slug
from vision.cvcompat import write_bytes
from vision.recognize.decks import MANIFEST

TRUTH = "truth.json"


@dataclass(frozen=True)
class CardPhoto:
    """A photo of one card and where its face's corners are (TL, TR, BR, BL)."""

    card: Card
    shot: CardShot
    photo: Shot
    corners: np.ndarray

    @property
    def top(self) -> str:
        return top_side(self.corners)

    def manifest_json(self, image: str) -> dict[str, Any]:
        entry: dict[str, Any] = {"image": image, "card": card_to_json(self.card)}
        if self.top != "top":
            entry["top"] = self.top
        return entry

    def truth_json(self, image: str) -> dict[str, Any]:
        return {
            "image": image,
            "card": card_to_json(self.card),
            "notation": self.card.notation,
            "size": list(self.shot.size),
            "orientation": self.shot.orientation,
            "table": self.shot.table,
            "top": self.top,
            "corners": [[round(float(x), 2), round(float(y), 2)] for x, y in self.corners],
            "card_share": round(card_share(self.corners, self.shot.size), 3),
            "tilt": round(self.shot.camera.tilt, 2),
            "camera": self.shot.look.as_json(),
        }


def enroll_faces(doubles: bool = True) -> list[tuple[int, Card]]:
    """(catalogue place, card) of every face to photograph; 46 without the doubles.

    >>> len(enroll_faces()), len(enroll_faces(doubles=False))
    (51, 46)
    """
    return [(k, card) for k, card in enumerate(distinct_faces())
            if doubles or not (isinstance(card, IngredientCard) and card.double)]


def photograph_card(face: np.ndarray, shot: CardShot, rng: np.random.Generator, card: Card) -> CardPhoto:
    """Lay ``face`` on the shot's table and take the picture."""
    scene = table_background(shot.table, shot.size, rng)
    size = (face.shape[1], face.shape[0])
    to_image = shot.camera.table_to_image() @ shot.pose.face_to_table(size)
    corners = composite_card(scene, new_labels(shot.size), 0, face, to_image)
    return CardPhoto(card, shot, shoot(scene, shot.look, rng), corners)


def card_photo(style: DeckStyle, seed: int, place: int, card: Card) -> CardPhoto:
    """The photo of the face at catalogue ``place`` in the set of ``seed``."""
    rng = item_rng(seed, place)
    return photograph_card(render_face(card, style), sample_card_shot(rng), rng, card)


def write_enroll_photos(out_dir: str | Path, style: DeckStyle, seed: int, doubles: bool = True,
                        faces: Sequence[tuple[int, Card]] | None = None) -> Path:
    """Write the photos, ``manifest.json`` and ``truth.json``; returns the manifest's path.
    ``faces`` (catalogue place, card) limits the set, e.g. for a quick test."""
    out = Path(out_dir)
    manifest, truth = [], []
    for place, card in faces if faces is not None else enroll_faces(doubles):
        photo = card_photo(style, seed, place, card)
        name = f"{face_slug(card)}.jpg"
        write_bytes(out / name, photo.photo.jpeg)
        manifest.append(photo.manifest_json(name))
        truth.append(photo.truth_json(name))
    write_bytes(out / TRUTH, _json({"style": style.name, "seed": seed, "photos": truth}))
    write_bytes(out / MANIFEST, _json({"cards": manifest}))
    return out / MANIFEST


RETAKE_SEED_STEP = 1_000_003  # a retake's seed: the set's plus this times the attempt


def retake_photos(folder: str | Path, images: Sequence[str], attempt: int) -> None:
    """Photograph the cards of ``images`` (file names in ``folder``, as
    :func:`write_enroll_photos` named them) again, as a player does when
    enrollment refuses a picture: the same card, another shot (table, light,
    pose) drawn from the set's seed and ``attempt``. The photos,
    ``truth.json`` and their manifest entries (a card lying across its new
    picture gets its ``"top"``) are rewritten."""
    out = Path(folder)
    truth = json.loads((out / TRUTH).read_text())
    manifest = json.loads((out / MANIFEST).read_text())
    style = style_named(truth["style"])
    places = {f"{face_slug(card)}.jpg": (place, card) for place, card in enroll_faces()}
    truths = {entry["image"]: entry for entry in truth["photos"]}
    entries = {entry["image"]: entry for entry in manifest["cards"]}
    for image in images:
        place, card = places[image]
        photo = card_photo(style, truth["seed"] + RETAKE_SEED_STEP * attempt, place, card)
        write_bytes(out / image, photo.photo.jpeg)
        truths[image].clear()
        truths[image].update(photo.truth_json(image))
        entries[image].clear()
        entries[image].update(photo.manifest_json(image))
    write_bytes(out / TRUTH, _json(truth))
    write_bytes(out / MANIFEST, _json(manifest))


def _json(data: dict[str, Any]) -> bytes:
    return (json.dumps(data, indent=1) + "\n").encode()
