"""The app's card recognition: the deck store, the scanner comparing with
the active deck, and switching that deck while the app runs.

The store is made on first use from the instance folder (``decks/``) and
``DECK_DIR`` (a deck folder given to the server, then the active deck).
Making a deck active loads its recogniser first, while cameras go on with
the old one; only then is the choice kept on disk and the recogniser
swapped in, so a deck that cannot be loaded changes nothing.
"""
from __future__ import annotations

import os

from flask import current_app

from ..decks.games import MAMMA_MIA
from ..decks.store import Deck, DeckStore, Incomplete
from .maus_decks import refresh_maus_deck, use_maus_deck
from .scanning import Scanner, SessionStore

DECKS_FOLDER = "decks"


def deck_store() -> DeckStore:
    """The app's decks, made on first use."""
    found = current_app.extensions.get("mamma_mia_decks")
    if found is None:
        root = os.path.join(current_app.instance_path, DECKS_FOLDER)
        found = current_app.extensions.setdefault("mamma_mia_decks",
                                                  DeckStore(root, current_app.config.get("DECK_DIR")))
    return found


def scanner() -> Scanner:
    """The app's scanner for the active deck, made on first use (the deck loads on the first frame)."""
    found = current_app.extensions.get("mamma_mia_scanner")
    if found is None:
        store = SessionStore(max_fps=int(current_app.config.get("CAMERA_MAX_FPS", 20)))
        found = current_app.extensions.setdefault("mamma_mia_scanner", Scanner(deck_store().active().folder, store))
    return found


def activate(deck_id: str) -> Deck:
    """Make ``deck_id`` its game's camera deck (Incomplete, UnknownDeck,
    DeckError: nothing changes)."""
    store = deck_store()
    with store.lock:
        deck = store.get(deck_id)
        if not deck.complete:
            missing = len(deck.missing)
            raise Incomplete(f"{deck.name} still lacks {missing} of its {len(deck.cards)} faces; "
                             f"teach them before using it", missing)
        if deck.game.id != MAMMA_MIA:
            use_maus_deck(store, deck)
            return deck
        recogniser = Scanner.load(deck.folder)
        store.set_active(deck.id)
        scanner().use(deck.folder, recogniser)
    return deck


def refresh(deck: Deck) -> None:
    """After a face of ``deck`` changed: when it is the camera's deck and
    complete, the camera compares with its faces as they are now. An
    incomplete active deck (a face removed to be retaken) keeps the faces
    loaded until it is complete again."""
    store = deck_store()
    with store.lock:
        if not store.is_active(deck) or not deck.complete:
            return
        if deck.game.id != MAMMA_MIA:
            refresh_maus_deck(store, deck)
            return
        try:
            recogniser = Scanner.load(deck.folder)
        except ValueError:  # DeckError: the faces were just written, so a disk fault; keep the old ones
            current_app.logger.exception("the active deck %s could not be loaded again", deck.id)
            return
        scanner().use(deck.folder, recogniser)
