"""The decks the app knows, and which one the camera uses.

Each deck is for one game (:mod:`.games`: Mamma Mia! or Maus au Chocolat):

* ``standin`` and ``maus-standin``: the bundled stand-in decks, read-only;
* a deck folder the server was given (``serve --deck DIR`` or ``DECK_DIR``),
  read-only, its id made from the folder's name;
* the decks taught in the app, one folder each in ``<instance>/decks/<id>/``.

A taught deck's folder is a deck folder as :mod:`vision.recognize.decks`
reads it (``manifest.json`` and one upright face per card, ``SLUG.png``),
plus ``deck.json`` (name, game, doubles, created) and ``captures/`` (each
face's picture as it was sent). A deck with no face yet has no manifest.
Every file is replaced atomically (:mod:`.files`), and a face's image is
written before the manifest that lists it, so a server stopped at any moment
leaves the deck as it was before the change or after it.

Each game has its active deck (the one its camera uses), kept in
``<instance>/decks/active.json``: ``{"active": ID, "maus": ID}`` (the first
is Mamma Mia!'s, named so since it was the only one).
"""
from __future__ import annotations

import datetime
import os
import re
import threading
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Hashable, Iterator

from vision.recognize.decks import MANIFEST, deck_folder, read_manifest

from .files import read_json, write_atomic, write_json_atomic
from .games import GAMES, MAMMA_MIA, MAUS, DeckGame, NotAFace, folder_game, game_named

Card = Hashable  # a face of the deck's game: a Mamma Mia! card, or a Maus card with its coins
CATALOGUE = GAMES[MAMMA_MIA].faces  # Mamma Mia!'s faces in the pad's order
STANDIN = GAMES[MAMMA_MIA].standin_id
STANDIN_NAME = "Stand-in deck"
STANDIN_NAMES = {MAMMA_MIA: STANDIN_NAME, MAUS: "Maus au Chocolat stand-in deck"}
ACTIVE_KEYS = {MAMMA_MIA: "active"}  # a game's key in active.json: its own id, but for the first game
DECK_FILE = "deck.json"
ACTIVE_FILE = "active.json"
CAPTURES = "captures"
MAX_NAME = 40
DECK_ID = re.compile(r"^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$")


class DeckStoreError(Exception):
    """A change refused; the message says why, for a player."""


class UnknownDeck(DeckStoreError):
    pass


class ReadOnlyDeck(DeckStoreError):
    pass


class NotInDeck(DeckStoreError):
    """A card that is not in the game, or a double in a deck without the doubles."""


class AlreadyTaught(DeckStoreError):
    pass


class NotTaught(DeckStoreError):
    pass


class Incomplete(DeckStoreError):
    def __init__(self, message: str, missing: int) -> None:
        super().__init__(message)
        self.missing = missing


class BadName(DeckStoreError):
    pass


class BadGame(DeckStoreError):
    pass


def cards_of(doubles: bool, game: DeckGame = GAMES[MAMMA_MIA]) -> tuple[Card, ...]:
    """A deck's faces in the pad's order: Mamma Mia!'s 51 with the doubles, else 46; Maus's 70."""
    return game.cards(doubles)


@dataclass(frozen=True)
class Deck:
    """One deck as it is on disk now. ``folder`` holds its manifest and faces."""

    id: str
    name: str
    folder: Path
    builtin: bool
    editable: bool
    doubles: bool
    created: str | None
    faces: dict[Card, Path] = field(default_factory=dict)  # in the pad's order
    game: DeckGame = GAMES[MAMMA_MIA]

    @property
    def cards(self) -> tuple[Card, ...]:
        return self.game.cards(self.doubles)

    @property
    def missing(self) -> list[Card]:
        return [card for card in self.cards if card not in self.faces]

    @property
    def complete(self) -> bool:
        return not self.missing


def parse_card(value: object, game: DeckGame = GAMES[MAMMA_MIA]) -> Card:
    """A face of ``game`` from its notation (or JSON form); NotInDeck otherwise."""
    try:
        return game.read(value)
    except NotAFace as error:
        raise NotInDeck(str(error)) from None
    except (ValueError, TypeError) as error:
        raise NotInDeck(f"not a card: {error}") from None


def card_named(text: str, game: DeckGame = GAMES[MAMMA_MIA]) -> Card:
    """A face of ``game`` from its notation or its slug (as in its image's address)."""
    try:
        return game.named(text)
    except NotAFace as error:
        raise NotInDeck(str(error)) from None
    except (ValueError, TypeError) as error:
        raise NotInDeck(f"not a card: {error}") from None


class DeckStore:
    """The decks under ``root`` (``<instance>/decks``), the stand-in deck,
    and ``folder``: a deck folder given to the server, which is then active."""

    def __init__(self, root: str | os.PathLike[str], folder: str | os.PathLike[str] | None = None) -> None:
        self.root = Path(root)
        self.lock = threading.RLock()  # one change at a time: each reads the manifest it rewrites
        self.fixed: dict[str, Path] = {game.standin_id: game.standin for game in GAMES.values()}
        self.active_ids = self._restored()
        if folder is not None:
            given = self._fixed_id(Path(folder))
            self.fixed[given] = Path(folder)
            deck = self._fixed_deck(given)  # an unusable folder is said at once (DeckError)
            self.active_ids[deck.game.id] = given

    @property
    def active_id(self) -> str:
        """Mamma Mia!'s active deck."""
        return self.active_ids[MAMMA_MIA]

    # reading ---------------------------------------------------------------------------------

    def decks(self, game: DeckGame | None = None) -> list[Deck]:
        """The stand-in decks, the given folder, then the taught decks, oldest
        first; only ``game``'s when given."""
        taught = [self._taught(p.name) for p in self._taught_folders()]
        found = [self._fixed_deck(i) for i in self.fixed] + sorted(taught, key=lambda d: d.created or "")
        return [deck for deck in found if game is None or deck.game is game]

    def get(self, deck_id: str) -> Deck:
        if deck_id in self.fixed:
            return self._fixed_deck(deck_id)
        if DECK_ID.match(deck_id) and (self.root / deck_id / DECK_FILE).is_file():
            return self._taught(deck_id)
        raise UnknownDeck(f"no deck {deck_id!r}")

    def active(self, game: DeckGame = GAMES[MAMMA_MIA]) -> Deck:
        """The deck ``game``'s camera uses."""
        return self.get(self.active_ids[game.id])

    def is_active(self, deck: Deck) -> bool:
        return self.active_ids.get(deck.game.id) == deck.id

    def editable(self, deck_id: str) -> Deck:
        deck = self.get(deck_id)
        if not deck.editable:
            raise ReadOnlyDeck(f"{deck.name} is read-only: create a deck to teach your own cards")
        return deck

    def check_new_face(self, deck: Deck, card: Card) -> None:
        """Whether ``card`` may be added to ``deck`` now (NotInDeck, AlreadyTaught)."""
        if card not in deck.game.faces:
            raise NotInDeck(f"{card.notation} is not a card of {deck.name}'s game")
        if card not in deck.cards:
            raise NotInDeck(f"{card.notation} is a double ingredient, and {deck.name} is a deck "
                            f"without the doubles")
        if card in deck.faces:
            raise AlreadyTaught(f"{card.notation} is already taught; remove it first to retake it")

    # changing --------------------------------------------------------------------------------

    def create(self, name: object, doubles: bool, game: object = MAMMA_MIA) -> Deck:
        """A new, empty deck for ``game`` (a Maus deck has no doubles to leave out)."""
        name = _checked_name(name)
        try:
            chosen = game_named(game)
        except ValueError as error:
            raise BadGame(str(error)) from None
        info: dict[str, Any] = {"name": name, "doubles": doubles if chosen.id == MAMMA_MIA else True,
                                "created": _now()}
        if chosen.id != MAMMA_MIA:
            info["game"] = chosen.id
        self.root.mkdir(parents=True, exist_ok=True)
        with self.lock:
            folder = self._new_folder(_slug(name))
            write_json_atomic(folder / DECK_FILE, info)
            return self._taught(folder.name)

    def add_face(self, deck_id: str, card: Card, face_png: bytes, original: bytes, suffix: str) -> Deck:
        """Teach ``card``'s face (PNG bytes), keeping the picture it came from."""
        with self.lock:
            deck = self.editable(deck_id)
            self.check_new_face(deck, card)
            image = deck.folder / f"{deck.game.slug(card)}.png"
            kept = deck.folder / CAPTURES / f"{deck.game.slug(card)}{suffix}"
            kept.parent.mkdir(exist_ok=True)
            try:
                write_atomic(image, face_png)
                write_atomic(kept, original)
                self._write_manifest(deck, {**deck.faces, card: image})
            except BaseException:
                image.unlink(missing_ok=True)  # not listed: the deck is as it was
                kept.unlink(missing_ok=True)
                raise
            return self._taught(deck_id)

    def remove_face(self, deck_id: str, card: Card) -> Deck:
        with self.lock:
            deck = self.editable(deck_id)
            if card not in deck.faces:
                raise NotTaught(f"{card.notation} is not taught in {deck.name}")
            self._write_manifest(deck, {c: p for c, p in deck.faces.items() if c != card})
            deck.faces[card].unlink(missing_ok=True)
            for kept in (deck.folder / CAPTURES).glob(f"{deck.game.slug(card)}.*"):
                kept.unlink(missing_ok=True)
            return self._taught(deck_id)

    def set_active(self, deck_id: str) -> None:
        """Make ``deck_id`` its game's camera deck."""
        with self.lock:
            deck = self.get(deck_id)
            chosen = {**self.active_ids, deck.game.id: deck_id}
            self.root.mkdir(parents=True, exist_ok=True)
            # Mamma Mia!'s always; another game's once it is not its stand-in (so a table
            # that never taught a Maus deck keeps the file it had)
            kept = {_active_key(g): i for g, i in chosen.items() if g == MAMMA_MIA or i != GAMES[g].standin_id}
            write_json_atomic(self.root / ACTIVE_FILE, kept)
            self.active_ids = chosen

    # files -----------------------------------------------------------------------------------

    def _write_manifest(self, deck: Deck, faces: dict[Card, Path]) -> None:
        path = deck.folder / MANIFEST
        if not faces:
            path.unlink(missing_ok=True)  # a deck with no face has no manifest (one must list a card)
            return
        listed = [(faces[card].name, card) for card in deck.game.faces if card in faces]
        write_json_atomic(path, deck.game.manifest_json(listed))

    def _taught_folders(self) -> list[Path]:
        if not self.root.is_dir():
            return []
        return [p for p in self.root.iterdir()
                if DECK_ID.match(p.name) and p.name not in self.fixed and (p / DECK_FILE).is_file()]

    def _taught(self, deck_id: str) -> Deck:
        folder = self.root / deck_id
        info = read_json(folder / DECK_FILE)
        if not isinstance(info, dict) or not isinstance(info.get("name"), str):
            raise UnknownDeck(f"no deck {deck_id!r} ({folder / DECK_FILE} cannot be read)")
        try:
            game = game_named(info.get("game", MAMMA_MIA))
        except ValueError as error:
            raise UnknownDeck(f"no deck {deck_id!r} ({folder / DECK_FILE}: {error})") from None
        faces = _listed_faces(folder, game) if (folder / MANIFEST).is_file() else {}
        return Deck(deck_id, info["name"], folder, False, True, bool(info.get("doubles")),
                    info.get("created"), faces, game)

    def _fixed_deck(self, deck_id: str) -> Deck:
        folder = self.fixed[deck_id]
        standin = next((g for g in GAMES.values() if g.standin_id == deck_id), None)
        if standin is not None:
            faces = _listed_faces(deck_folder(folder), standin)
            return Deck(deck_id, STANDIN_NAMES[standin.id], folder, True, False, True, None, faces, standin)
        game = folder_game(folder)
        faces = _listed_faces(deck_folder(folder), game)
        info = read_json(folder / DECK_FILE)
        info = info if isinstance(info, dict) else {}
        doubles = any(game.optional(c) for c in faces) or not any(map(game.optional, game.faces))
        name = info.get("name") if isinstance(info.get("name"), str) else folder.resolve().name
        return Deck(deck_id, name, folder, False, False, doubles, info.get("created"), faces, game)

    def _fixed_id(self, folder: Path) -> str:
        """An id from the folder's name, unlike the other decks'."""
        base = _slug(folder.resolve().name)
        taken = set(self.fixed) | {p.name for p in self._taught_folders()}
        return next(i for i in _numbered(base) if i not in taken)

    def _new_folder(self, base: str) -> Path:
        """A new, empty deck folder named from ``base``, claimed by creating it."""
        for deck_id in _numbered(base):
            if deck_id in self.fixed:
                continue
            try:
                (self.root / deck_id).mkdir()
            except FileExistsError:
                continue
            return self.root / deck_id
        raise AssertionError("unreachable: the numbered ids never end")

    def _restored(self) -> dict[str, str]:
        """Each game's active deck kept from the last run, if it is still
        there and for that game; else its stand-in."""
        saved = read_json(self.root / ACTIVE_FILE)
        saved = saved if isinstance(saved, dict) else {}
        active = {}
        for game in GAMES.values():
            deck_id = saved.get(_active_key(game.id))
            try:
                deck = self.get(deck_id) if isinstance(deck_id, str) else None
            except UnknownDeck:
                deck = None
            active[game.id] = deck.id if deck is not None and deck.game is game else game.standin_id
        return active


def _active_key(game_id: str) -> str:
    return ACTIVE_KEYS.get(game_id, game_id)


def _listed_faces(folder: Path, game: DeckGame) -> dict[Card, Path]:
    """The game's faces a deck folder's manifest lists (the first image of
    each), in the pad's order."""
    listed: dict[Card, Path] = {}
    for entry in read_manifest(folder, game.read):
        listed.setdefault(entry.card, entry.image)
    return {card: listed[card] for card in game.faces if card in listed}


def _checked_name(name: object) -> str:
    if not isinstance(name, str):
        raise BadName("name must be text: the deck's name, 1 to 40 characters")
    name = name.strip()
    if not 1 <= len(name) <= MAX_NAME or not name.isprintable():
        raise BadName(f"name must be 1 to {MAX_NAME} printable characters")
    return name


def _slug(name: str) -> str:
    """Lower-case letters, digits and dashes from ``name`` (accents dropped), or ``deck``."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")[:MAX_NAME - 4].strip("-")
    return slug or "deck"


def _numbered(base: str) -> Iterator[str]:
    yield base
    number = 2
    while True:
        yield f"{base}-{number}"
        number += 1


def _now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
