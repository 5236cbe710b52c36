"""Pictures taken while teaching whose card the player has not named yet.

Each waits in the deck's ``pending/`` folder (its straightened face as PNG
and the picture as it was sent) under a random token, so photos uploaded
many at once wait for their taps without holding memory, and survive a
restart. One left for :data:`PENDING_SECONDS` is dropped the next time a
picture is taken for that deck.
"""
from __future__ import annotations

import re
import secrets
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from .files import write_atomic

PENDING = "pending"
PENDING_SECONDS = 3600.0
MAX_PENDING = 120  # per deck: more than a deck's 51 faces uploaded at once, twice over
TOKEN = re.compile(r"^[A-Za-z0-9_-]{22}$")  # secrets.token_urlsafe(16)
ORIGINAL = ".original"


@dataclass(frozen=True)
class Pending:
    token: str
    face: Path      # the straightened face, PNG
    original: Path  # the picture as it was sent (its suffix says its format)


def hold(deck_folder: Path, face_png: bytes, original: bytes, suffix: str,
         clock: Callable[[], float] = time.time) -> Pending:
    """Keep a picture until its card is named; its token is returned."""
    folder = deck_folder / PENDING
    folder.mkdir(exist_ok=True)
    _expire(folder, clock())
    token = secrets.token_urlsafe(16)
    held = Pending(token, folder / f"{token}.png", folder / f"{token}{ORIGINAL}{suffix}")
    write_atomic(held.original, original)
    write_atomic(held.face, face_png)  # last: a face without its picture is never found
    return held


def find(deck_folder: Path, token: str, clock: Callable[[], float] = time.time) -> Pending | None:
    """The picture held under ``token``; None when unknown or expired."""
    if not TOKEN.match(token):
        return None
    folder = deck_folder / PENDING
    face = folder / f"{token}.png"
    originals = sorted(folder.glob(f"{token}{ORIGINAL}.*"))
    try:
        fresh = clock() - face.stat().st_mtime < PENDING_SECONDS
    except OSError:
        return None
    return Pending(token, face, originals[0]) if fresh and originals else None


def drop(held: Pending) -> None:
    held.face.unlink(missing_ok=True)
    held.original.unlink(missing_ok=True)


def _expire(folder: Path, now: float) -> None:
    """Drop pictures held too long, and the oldest beyond :data:`MAX_PENDING`
    (room for the one about to be held)."""
    held: dict[str, list[Path]] = {}
    for path in folder.iterdir():
        held.setdefault(path.name.split(".")[0], []).append(path)
    newest_first = sorted(held.values(), key=lambda paths: -max(_modified(p) for p in paths))
    for index, paths in enumerate(newest_first):
        if index >= MAX_PENDING - 1 or now - max(_modified(p) for p in paths) >= PENDING_SECONDS:
            for path in paths:
                path.unlink(missing_ok=True)


def _modified(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0
