"""Built decks kept on disk between runs.

Building a deck's references (descriptors, alignment templates, the close
faces' families) takes one to two seconds of computer time; loading them back
takes milliseconds. ``mamma-mia scan`` builds its deck at every start, so a
short video would spend more time building the deck than following the pile.

An entry is found again only when everything it was built from is the same:
the bytes of every file in the deck folder, the vision settings, and the
source of the code that builds it (a new version of the app builds anew).
Entries live in ``$XDG_CACHE_HOME/mamma-mia/decks`` (``~/.cache`` when that
is not set); the newest few are kept. A cache that cannot be read or written
is passed over: the deck is then built as before.

The entries are pickles: the cache is the user's own, written by this code
only, like the deck folders the app reads.
"""
from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Callable, TypeVar

Built = TypeVar("Built")
KEPT = 6  # entries (up to about 35 MB each): both games' stand-in decks and a few a table taught
_CODE = Path(__file__).resolve().parent


def cache_dir() -> Path:
    """Where built decks are kept."""
    root = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(root) / "mamma-mia" / "decks"


def kept(folder: Path, settings: object, build: Callable[[], Built]) -> Built:
    """What ``build()`` makes of the deck in ``folder`` with ``settings``
    (a dataclass whose ``repr`` names every value), from the cache when it
    was built from the same files, settings and code before."""
    key = _key(folder, settings)
    entry = cache_dir() / f"{key}.pickle"
    try:
        with entry.open("rb") as stored:
            return pickle.load(stored)
    except Exception:  # missing, cut short by a crash, or of a class that changed: build again
        pass
    built = build()
    _store(entry, built)
    return built


def _key(folder: Path, settings: object) -> str:
    digest = hashlib.sha256(_code_digest().encode())
    digest.update(repr(settings).encode())
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        digest.update(str(path.relative_to(folder)).encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:32]


@lru_cache(maxsize=1)
def _code_digest() -> str:
    """A digest of the vision code's source (and the games' vocabulary it pickles)."""
    digest = hashlib.sha256()
    for root in (_CODE, _CODE.parent / "companion" / "engine", _CODE.parent / "companion" / "maus" / "engine"):
        for path in sorted(root.rglob("*.py")):
            digest.update(path.read_bytes())
    return digest.hexdigest()


def _store(entry: Path, built: object) -> None:
    """Write ``built`` at ``entry`` whole or not at all, and drop the oldest entries."""
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=entry.parent, suffix=".part")
    except OSError:
        return  # a read-only home: the deck is built again next time
    try:
        with os.fdopen(handle, "wb") as out:
            pickle.dump(built, out, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(temporary, entry)
    except OSError:
        Path(temporary).unlink(missing_ok=True)  # a full disk: nothing half written stays
        return
    try:
        entries = sorted(entry.parent.glob("*.pickle"), key=lambda p: p.stat().st_mtime, reverse=True)
        for old in entries[KEPT:]:
            old.unlink(missing_ok=True)
    except OSError:
        pass  # another process dropped an entry first
