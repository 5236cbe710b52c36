"""The Maus au Chocolat camera's deck: a reader of the active Maus deck,
and switching that deck while the app runs.

As for Mamma Mia! (:mod:`.recognition`), a deck made active is loaded
first, so one that cannot be loaded changes nothing; a face of the active
deck removed to be retaken leaves the faces loaded until the deck is
complete again. In a request, ``maus_reader().read_bytes(jpeg)`` reads a
photo of laid cards with the deck the table chose.
"""
from __future__ import annotations

import threading

from flask import current_app

from vision.maus import MausReader, load_maus_deck

from ..decks.games import GAMES, MAUS
from ..decks.store import Deck, DeckStore

EXTENSION = "mamma_mia_maus_reader"
_LOCK = threading.Lock()


def maus_reader() -> MausReader:
    """The reader of the deck the Maus camera uses (the stand-in until a
    table makes its own deck active), made on first use."""
    from .recognition import deck_store

    found = current_app.extensions.get(EXTENSION)
    if found is None:
        with _LOCK:
            found = current_app.extensions.get(EXTENSION)
            if found is None:
                found = current_app.extensions[EXTENSION] = load_reader(deck_store().active(GAMES[MAUS]))
    return found


def load_reader(deck: Deck) -> MausReader:
    """A reader of ``deck``'s faces (DeckError when they cannot be used)."""
    return MausReader(load_maus_deck(deck.folder))


def use_maus_deck(store: DeckStore, deck: Deck) -> None:
    """Make the complete ``deck`` the Maus camera's: loaded, then kept on disk, then swapped in."""
    reader = load_reader(deck)
    store.set_active(deck.id)
    current_app.extensions[EXTENSION] = reader


def refresh_maus_deck(store: DeckStore, deck: Deck) -> None:
    """After a face of the complete, active ``deck`` changed: read with its faces as they are now."""
    try:
        reader = load_reader(deck)
    except ValueError:  # DeckError: the faces were just written, so a disk fault; keep the old ones
        current_app.logger.exception("the active Maus deck %s could not be loaded again", deck.id)
        return
    current_app.extensions[EXTENSION] = reader
