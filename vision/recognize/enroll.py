"""Enrollment: turning a player's own pictures of their cards into a deck the
recogniser compares against, so it works with any printing of the game.

Each image listed in ``DIR/manifest.json`` is either a *scan* (the picture is
the card, cut to its edges: its shape is a card's, 57 x 89 mm) or a *photo*
with the card somewhere in it. A photo's card is the largest card-shaped
outline found whole inside the picture; photograph each card alone on a plain
table. Its face is then straightened and saved at :data:`FACE_SIZE`.

Which end is the card's top cannot be read from unknown art, so it is
assumed: the card was held upright-ish, i.e. its top edge is the short edge
nearest the top of the picture. A sideways scan (landscape) is assumed to
have the card's top on the left, so it is turned a quarter clockwise. An
entry may say otherwise with ``"top": "top" | "bottom" | "left" | "right"``
(the side of the picture the card's top edge faces); a card lying across the
picture with no such hint fails rather than being enrolled wrongly.
Nothing here depends on how any deck's art looks.
"""
from __future__ import annotations

import json
import shutil
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

import cv2
import numpy as np

from companion.engine import Card

from ..catalog import face_slug
from ..cvcompat import encode_png
from .config import DEFAULT_CONFIG
from .decks import ENROLLED, MANIFEST, ManifestEntry, duplicates, manifest_json, missing_faces
from .detect import detect, line_meeting
from .imagefile import ImageFileError, read_image
from .rectify import rectify
from .types import Quad

FACE_SIZE = (400, 624)  # width, height of an enrolled face
SCAN_ASPECT_TOLERANCE = 0.03  # closer than this to a card's shape: a scan (a 3:2 photo is 4% off)
MIN_CARD_SHARE = 0.03  # a photo's card covers at least this share of the picture
SIDEWAYS_LIMIT = 0.5  # cosine of 60 degrees: a card turned further than this from the hint is ambiguous
# a close-up photo's card may fill most of the picture
PHOTO_CONFIG = replace(DEFAULT_CONFIG, max_card_area=0.97)
EDGE_REACH = 0.05  # a side is searched this far either way (share of the card's size)
EDGE_SAMPLES = 40  # places along each side where its edge is located
EDGE_SHARE = 0.5  # the outermost edge at least this strong against the profile's strongest
EDGE_MIN_STEP = 6.0  # grey levels per half pixel: weaker is no edge
_TURNS = {"left": cv2.ROTATE_90_CLOCKWISE, "right": cv2.ROTATE_90_COUNTERCLOCKWISE, "bottom": cv2.ROTATE_180}
_SIDES = {"top": (0.0, -1.0), "bottom": (0.0, 1.0), "left": (-1.0, 0.0), "right": (1.0, 0.0)}


class EnrollError(ValueError):
    """A picture from which no face could be taken; the message says what to change."""


class NoCardFound(EnrollError):
    """No card-shaped outline in the picture."""


class CardNotWhole(EnrollError):
    """A card-shaped outline, but it touches the picture's edge."""


@dataclass(frozen=True)
class Outcome:
    """What became of one manifest entry: ``status`` is ok, failed or skipped."""

    entry: ManifestEntry
    status: str
    note: str
    face: np.ndarray | None = None


def face_from_image(image: np.ndarray, top: str | None = None) -> tuple[np.ndarray, str]:
    """The upright face at :data:`FACE_SIZE` and a note on how it was found."""
    if is_scan(image):
        return scan_face(image, top)
    quad, note = photo_quad(image)
    return rectify(image, upright(quad, top or "top"), FACE_SIZE), note


def scan_face(image: np.ndarray, top: str | None = None) -> tuple[np.ndarray, str]:
    """A scan turned upright by whole quarter turns (no resampling but the final resize)."""
    sideways = image.shape[1] > image.shape[0]
    side = top or ("left" if sideways else "top")
    if sideways != (side in ("left", "right")):
        raise EnrollError(f"a {'landscape' if sideways else 'portrait'} scan cannot have the card's top "
                          f"edge on its {side}; fix \"top\" in its entry in {MANIFEST}")
    if side != "top":
        image = cv2.rotate(image, _TURNS[side])
    note = "scan"
    if sideways and top is None:
        note += ", sideways: turned a quarter clockwise (add \"top\" to its entry if that is wrong)"
    shrinking = image.shape[1] >= FACE_SIZE[0]
    return cv2.resize(image, FACE_SIZE, interpolation=cv2.INTER_AREA if shrinking else cv2.INTER_CUBIC), note


def is_scan(image: np.ndarray) -> bool:
    """Whether the picture has a card's shape, either way round."""
    height, width = image.shape[:2]
    aspect = max(height, width) / max(1, min(height, width))
    card = DEFAULT_CONFIG.card_aspect
    return abs(aspect - card) <= SCAN_ASPECT_TOLERANCE * card


def photo_quad(image: np.ndarray) -> tuple[Quad, str]:
    """The largest card-shaped outline lying whole inside the photo."""
    quad = photo_outlines(image)[0]
    share = quad.area / (image.shape[0] * image.shape[1])
    return refine_outline(image, quad), f"photo, card found covering {share:.0%} of the picture"


def photo_outlines(image: np.ndarray) -> list[Quad]:
    """The card-shaped outlines lying whole inside the photo, largest first,
    as found (not yet refined); :class:`NoCardFound` or :class:`CardNotWhole`
    when there is none."""
    height, width = image.shape[:2]
    candidates = [q for q in detect(image, PHOTO_CONFIG) if q.area >= MIN_CARD_SHARE * width * height]
    whole = [q for q in candidates if _inside(q, width, height)]
    if not whole:
        if candidates:
            raise CardNotWhole("the card touches the edge of the picture; photograph it whole, "
                               "with some table around it")
        raise NoCardFound("no card found; photograph the card alone on a plain table, "
                          "whole, in focus and filling a good part of the picture")
    return sorted(whole, key=lambda q: q.area, reverse=True)


def refine_outline(image: np.ndarray, quad: Quad) -> Quad:
    """``quad`` snapped to the card's edges at full resolution.

    The outline comes from a reduced copy, and a card's rounded corners pull
    the fitted corners inwards; an enrolled face is the reference for every
    later match, so each side is located again along its middle part (the
    outermost strong edge across it, so a printed frame inside the card is
    not taken for its border) and the corners are where those lines meet.
    Falls back to ``quad`` when a side cannot be found clearly.
    """
    smooth = cv2.GaussianBlur(image, (0, 0), 1.0).astype(np.float32)
    reach = max(4.0, EDGE_REACH * float(np.sqrt(quad.area)))
    centre = quad.center
    lines = []
    for k in range(4):
        line = _side_line(smooth, quad.corners[k], quad.corners[(k + 1) % 4], centre, reach)
        if line is None:
            return quad
        lines.append(line)
    corners = [line_meeting(*lines[k - 1], *lines[k]) for k in range(4)]
    if any(c is None for c in corners):
        return quad
    refined = np.array(corners, np.float32)
    if np.linalg.norm(refined - quad.corners, axis=1).max() > 2 * reach:
        return quad
    return Quad(refined)


def _side_line(image: np.ndarray, a: np.ndarray, b: np.ndarray, centre: np.ndarray,
               reach: float) -> tuple[np.ndarray, np.ndarray] | None:
    """(point, direction) of the side from ``a`` to ``b``, fitted to edge points."""
    along = (b - a) / (np.linalg.norm(b - a) + 1e-9)
    normal = np.array([along[1], -along[0]], np.float32)
    if np.dot((a + b) / 2 - centre, normal) < 0:
        normal = -normal  # pointing out of the card
    steps = np.arange(-reach, reach + 0.5, 0.5, dtype=np.float32)
    bases = a + np.linspace(0.15, 0.85, EDGE_SAMPLES, dtype=np.float32)[:, None] * (b - a)
    points = bases[:, None, :] + steps[None, :, None] * normal
    profiles = cv2.remap(image, points[..., 0], points[..., 1], cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_REPLICATE)
    strength = np.abs(np.diff(profiles, axis=1)).max(axis=2)  # (samples, steps - 1)
    found = [_outer_edge(row) for row in strength]
    edge = np.array([bases[i] + (steps[0] + 0.5 * (j + 0.5)) * normal
                     for i, j in enumerate(found) if j is not None], np.float32)
    if len(edge) < EDGE_SAMPLES // 2:
        return None
    vx, vy, x0, y0 = cv2.fitLine(edge, cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
    return np.array([x0, y0], np.float32), np.array([vx, vy], np.float32)


def _outer_edge(strength: np.ndarray) -> float | None:
    """Position of the outermost clear edge in one profile (sub-step), or None."""
    peak = float(strength.max())
    if peak < EDGE_MIN_STEP:
        return None
    j = int(np.flatnonzero(strength >= EDGE_SHARE * peak)[-1])
    while 0 < j and strength[j - 1] > strength[j]:
        j -= 1
    while j + 1 < len(strength) and strength[j + 1] > strength[j]:
        j += 1
    if 0 < j < len(strength) - 1:
        left, mid, right = strength[j - 1], strength[j], strength[j + 1]
        curve = left - 2 * mid + right
        return j + (0.5 * (left - right) / curve if curve < 0 else 0.0)
    return float(j)


def _inside(quad: Quad, width: int, height: int, margin: float = 1.0) -> bool:
    x, y = quad.corners[:, 0], quad.corners[:, 1]
    return bool(x.min() >= margin and y.min() >= margin and
                x.max() <= width - 1 - margin and y.max() <= height - 1 - margin)


def upright(quad: Quad, side: str) -> Quad:
    """The reading of ``quad`` (it or its 180-degree turn) whose top edge faces
    ``side`` of the picture; :class:`EnrollError` when the card lies across."""
    direction = np.array(_SIDES[side], np.float32)
    best, score = max(((q, _facing(q, direction)) for q in (quad, quad.turned())), key=lambda pair: pair[1])
    if score < SIDEWAYS_LIMIT:
        raise EnrollError(f"the card lies across the picture, so which end is its top is unclear; "
                          f"turn the picture, or add \"top\": \"left\" or \"right\" (the side its top "
                          f"edge faces) to its entry in {MANIFEST}")
    return best


def _facing(quad: Quad, direction: np.ndarray) -> float:
    """Cosine between ``direction`` and the way from the card's centre to its top edge."""
    to_top = (quad.corners[0] + quad.corners[1]) / 2 - quad.center
    return float(np.dot(to_top, direction) / (np.linalg.norm(to_top) + 1e-9))


def enroll_entries(entries: Sequence[ManifestEntry]) -> Iterator[Outcome]:
    """One outcome per entry, in order; a repeated card is skipped (the first image is used)."""
    repeats = {id(repeat): first for first, repeat in duplicates(entries)}
    for entry in entries:
        first = repeats.get(id(entry))
        if first is not None:
            yield Outcome(entry, "skipped", f"a second image of this card (the first, {first.image.name}, is used)")
        else:
            yield enroll_entry(entry)


def enroll_entry(entry: ManifestEntry) -> Outcome:
    """The entry's face, or why its picture cannot be taught: the checks of
    teaching from the tablet (:mod:`.capture`), since a face taught from a
    poor picture spoils every later reading of its card."""
    from .capture import capture  # capture builds on this module's outline finding

    if not entry.image.exists():
        return Outcome(entry, "failed", "missing: no such file next to manifest.json")
    try:
        image = read_image(entry.image)
        found = capture(image, top=entry.top)
    except (ImageFileError, EnrollError) as error:
        return Outcome(entry, "failed", str(error))
    if found.problems:
        return Outcome(entry, "failed", "; ".join(f"{p.message} ({p.hint})" for p in found.problems))
    return Outcome(entry, "ok", _how_found(image, found.outline, entry.top), found.face)


def _how_found(image: np.ndarray, outline: Quad | None, top: str | None) -> str:
    if is_scan(image) or outline is None:
        return scan_face(image, top)[1]
    share = outline.area / (image.shape[0] * image.shape[1])
    return f"photo, card found covering {share:.0%} of the picture"


def coverage_warnings(cards: Iterable[Card], catalogue: Sequence[Card]) -> list[str]:
    """Faces the deck lacks (those cards can never be recognised) and faces
    that are not in the catalogue (a typo in the manifest, or another edition)."""
    cards = list(dict.fromkeys(cards))
    warnings = []
    missing = missing_faces(cards, catalogue)
    if missing:
        names = ", ".join(card.notation for card in missing)
        warnings.append(f"the deck lacks {len(missing)} of the {len(catalogue)} faces, so these cards "
                        f"will never be recognised: {names}")
    unknown = [card.notation for card in cards if card not in set(catalogue)]
    if unknown:
        warnings.append(f"not faces of the classic deck (a mistake in {MANIFEST}?): {', '.join(unknown)}")
    return warnings


def write_enrolled(folder: str | Path, faces: Sequence[tuple[Card, np.ndarray]],
                   slug: Callable[[Any], str] = face_slug,
                   manifest: Callable[[list[tuple[str, Any]]], dict[str, Any]] = manifest_json) -> Path:
    """Write ``folder/enrolled/`` (faces as PNG plus manifest) all at once: it
    is built in a temporary folder and renamed, so a failure leaves any
    earlier enrollment untouched. Another game's deck passes how its faces
    are named as files (``slug``) and listed (``manifest``)."""
    folder = Path(folder)
    staging = Path(tempfile.mkdtemp(prefix=".enrolling-", dir=folder))
    try:
        items = []
        for card, face in faces:
            name = f"{slug(card)}.png"
            (staging / name).write_bytes(encode_png(face, level=3))
            items.append((name, card))
        (staging / MANIFEST).write_text(json.dumps(manifest(items), indent=1) + "\n", "utf-8")
        return _swap_in(staging, folder / ENROLLED)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def _swap_in(staging: Path, target: Path) -> Path:
    old = None
    if target.exists():
        old = Path(tempfile.mkdtemp(prefix=".enrolled-old-", dir=target.parent))
        target.rename(old / target.name)
    try:
        staging.rename(target)
    except OSError:
        if old is not None:
            (old / target.name).rename(target)
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
    return target
