"""Which deck the recogniser compares against, read from disk with messages a
player can act on.

A deck folder holds ``manifest.json`` (``{"cards": [{"image": FILE, "card":
CARD}]}``) and one image per face. CARD is a Mamma Mia! card in its JSON form;
another game's deck passes its own ``card_reader`` (Maus au Chocolat: its
card notation, ``"g5/3"``). After ``mamma-mia enroll DIR`` it also holds
``enrolled/``, the faces cut out and straightened; that is then the deck, since
the folder's own images may be photos rather than faces.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Hashable, Iterable, Sequence

import numpy as np

from companion.assets import DEFAULT_DECK_DIR
from companion.engine import Card, card_from_json, card_to_json

from ..builtcache import kept
from .config import DEFAULT_CONFIG, VisionConfig
from .identify import ReferenceDeck
from .imagefile import ImageFileError, read_image

MANIFEST = "manifest.json"
ENROLLED = "enrolled"
FACE_ASPECT_TOLERANCE = 0.08  # a face image further from the card's shape is not a tight face
CardReader = Callable[[Any], Hashable]  # a manifest's "card" value to the game's card; ValueError if it is none


class DeckError(ValueError):
    """A deck folder that cannot be used; the message names the file and the fix."""


@dataclass(frozen=True)
class ManifestEntry:
    """One manifest item: the card, its image path, its place in the list and,
    for enrollment, where the card's top edge is in the image (None: the default)."""

    index: int
    card: Card  # or the card of the game whose ``card_reader`` read the manifest
    image: Path
    top: str | None = None


TOP_SIDES = ("top", "bottom", "left", "right")


def read_manifest(folder: str | Path, card_reader: CardReader = card_from_json) -> list[ManifestEntry]:
    """The entries of ``folder/manifest.json``, every field checked (each
    card by ``card_reader``); images are not opened (a missing one is for the
    caller to report)."""
    folder = Path(folder)
    if not folder.is_dir():
        raise DeckError(f"{folder}: no such folder" if not folder.exists() else f"{folder}: not a folder")
    path = folder / MANIFEST
    if not path.is_file():
        raise DeckError(f"{path}: missing (a deck folder needs a manifest.json listing its cards)")
    try:
        data = json.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        raise DeckError(f"{path}: cannot read it: {error}") from None
    except json.JSONDecodeError as error:
        raise DeckError(f"{path}: not valid JSON: {error.msg} at line {error.lineno} column {error.colno}") from None
    items = data.get("cards") if isinstance(data, dict) else None
    if not isinstance(items, list):
        raise DeckError(f'{path}: expected {{"cards": [{{"image": FILE, "card": CARD}}, ...]}}')
    if not items:
        raise DeckError(f"{path}: lists no cards")
    return [_entry(path, index, item, card_reader) for index, item in enumerate(items)]


def manifest_json(faces: Iterable[tuple[str, Card]]) -> dict[str, Any]:
    """The content of a ``manifest.json`` listing each (image file name, card)."""
    return {"cards": [{"image": image, "card": card_to_json(card)} for image, card in faces]}


def _entry(path: Path, index: int, item: Any, card_reader: CardReader) -> ManifestEntry:
    where = f"{path}: cards[{index}]"
    if not isinstance(item, dict):
        raise DeckError(f'{where}: expected {{"image": FILE, "card": CARD}}, not {item!r}')
    image = item.get("image")
    if not isinstance(image, str) or not image.strip():
        raise DeckError(f"{where}: 'image' is missing or not a file name")
    if "card" not in item:
        raise DeckError(f"{where}: 'card' is missing")
    try:
        card = card_reader(item["card"])
    except ValueError as error:
        raise DeckError(f"{where}: {error}") from None
    top = item.get("top")
    if top is not None and top not in TOP_SIDES:
        raise DeckError(f"{where}: 'top' must be one of {', '.join(TOP_SIDES)}, not {top!r}")
    return ManifestEntry(index, card, path.parent / image, top)


def duplicates(entries: Iterable[ManifestEntry]) -> list[tuple[ManifestEntry, ManifestEntry]]:
    """(first, repeat) for every entry whose card an earlier entry already has."""
    first: dict[Card, ManifestEntry] = {}
    repeats = []
    for entry in entries:
        if entry.card in first:
            repeats.append((first[entry.card], entry))
        else:
            first[entry.card] = entry
    return repeats


def deck_folder(folder: str | Path | None = None) -> Path:
    """The folder whose faces are the deck: the enrolled faces when present."""
    folder = Path(folder) if folder is not None else DEFAULT_DECK_DIR
    enrolled = folder / ENROLLED
    return enrolled if (enrolled / MANIFEST).is_file() else folder


def load_faces(folder: str | Path | None = None,
               card_reader: CardReader = card_from_json) -> list[tuple[Card, np.ndarray]]:
    """(card, upright face image) for every face of the deck in ``folder``
    (default: the stand-in deck), or :class:`DeckError`."""
    source = deck_folder(folder)
    entries = read_manifest(source, card_reader)
    repeats = duplicates(entries)
    if repeats:
        first, repeat = repeats[0]
        raise DeckError(f"{source / MANIFEST}: {repeat.card.notation} is listed twice "
                        f"({first.image.name} and {repeat.image.name}); a deck has one image per face")
    return [(entry.card, _face_image(entry, source)) for entry in entries]


def _face_image(entry: ManifestEntry, source: Path) -> np.ndarray:
    if not entry.image.exists():
        raise DeckError(f"{entry.image}: missing (listed in {source / MANIFEST} for {entry.card.notation})")
    try:
        image = read_image(entry.image)
    except ImageFileError as error:
        raise DeckError(f"{entry.image}: {error}") from None
    height, width = image.shape[:2]
    card = DEFAULT_CONFIG.card_aspect
    if abs(height / width - card) > FACE_ASPECT_TOLERANCE * card:
        hint = source.parent if source.name == ENROLLED else source
        raise DeckError(f"{entry.image}: {width} x {height} pixels is not an upright card face cut to its "
                        f"edges; if the deck's images are photos or sideways scans, "
                        f"run: mamma-mia enroll {hint}")
    return image


def load_reference_deck(folder: str | Path | None = None,
                        config: VisionConfig = DEFAULT_CONFIG) -> ReferenceDeck:
    """The recogniser's references for the deck in ``folder`` (default: the
    stand-in deck): ``folder/enrolled/`` after enrollment, else the folder's
    own images, which must then be upright faces cut to the card.

    Building them takes about a second, so the last few decks built are
    kept, each until its manifest changes (teaching a face or enrolling
    again rewrites it), and on disk between runs (:mod:`vision.builtcache`)."""
    source = deck_folder(folder)
    try:
        stamp = (source / MANIFEST).stat()
    except OSError:
        return ReferenceDeck.from_faces(load_faces(folder), config)  # load_faces says what is wrong
    return _built(str(source.resolve()), stamp.st_mtime_ns, stamp.st_size, config)


@lru_cache(maxsize=4)
def _built(source: str, modified: int, size: int, config: VisionConfig) -> ReferenceDeck:
    return kept(Path(source), config, lambda: ReferenceDeck.from_faces(load_faces(source), config))


def missing_faces(cards: Sequence[Card], catalogue: Sequence[Card]) -> list[Card]:
    """The faces of ``catalogue`` that ``cards`` lacks, in catalogue order."""
    present = set(cards)
    return [card for card in catalogue if card not in present]
