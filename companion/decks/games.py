"""The games whose printed decks a table can teach, each as data: its faces
in the pad's order, how a manifest names them, and its stand-in deck.

* Mamma Mia!: 51 faces (46 without the Doubled Ingredients), named in the
  evaluate contract's JSON form or notation (``"g:4A+P"``);
* Maus au Chocolat: every distinct ingredient x value x coins face of the
  deck (70 for the stand-in spread), named in Maus notation with the coins
  (``"g5/3"``): faces differing only in their coins look alike but in the
  corners, and a face never taught is read as the nearest one that was.

A deck folder says which game it is for in its ``manifest.json``
(``"game": "maus"``); a manifest without it is Mamma Mia!'s, as every deck
was before there were two games.

>>> GAMES["maus"].total(), GAMES["mamma-mia"].total(), GAMES["mamma-mia"].total(doubles=False)
(70, 51, 46)
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Hashable, Iterable

from companion.assets import DEFAULT_DECK_DIR, MAUS_DECK_DIR
from companion.engine import IngredientCard, card_from_json, card_to_json, describe_card
from companion.maus.engine import Card as MausCard
from companion.maus.engine import Deck as MausPrinting
from vision.catalog import distinct_faces, face_slug
from vision.recognize.decks import MANIFEST, DeckError, deck_folder

MAMMA_MIA = "mamma-mia"
MAUS = "maus"


class NotAFace(ValueError):
    """A card written correctly that the game's deck does not have."""


@dataclass(frozen=True, eq=False)
class DeckGame:
    """What teaching a deck needs to know of one game."""

    id: str
    faces: tuple[Hashable, ...]           # every face, in the pad's order
    standin_id: str                       # the bundled stand-in deck's id in the deck store
    standin: Path
    read: Callable[[Any], Hashable]       # a manifest's or request's card; ValueError if not a face
    card_json: Callable[[Any], Any]       # a face as a manifest names it
    slug: Callable[[Any], str]            # a face's file name, without the suffix
    describe: Callable[[Any], str]        # a face in words, for a player
    optional: Callable[[Any], bool] = lambda card: False  # left out of a deck "without the doubles"

    def cards(self, doubles: bool = True) -> tuple[Hashable, ...]:
        """The faces a deck of this game must show."""
        return tuple(card for card in self.faces if doubles or not self.optional(card))

    def total(self, doubles: bool = True) -> int:
        return len(self.cards(doubles))

    def manifest_json(self, faces: Iterable[tuple[str, Any]]) -> dict[str, Any]:
        """A ``manifest.json`` listing each (image file name, face)."""
        listed = [{"image": image, "card": self.card_json(card)} for image, card in faces]
        return {"cards": listed} if self.id == MAMMA_MIA else {"game": self.id, "cards": listed}

    def named(self, text: str) -> Hashable:
        """A face from its slug (as in its image's address) or its notation; ValueError otherwise."""
        for card in self.faces:
            if self.slug(card) == text:
                return card
        return self.read(text)


def _mamma_mia_card(value: Any) -> Hashable:
    try:
        card = card_from_json(value)
    except TypeError as error:
        raise ValueError(str(error)) from None
    if card not in MAMMA_MIA_FACES:
        raise NotAFace(f"{card.notation} is not a card of the game")
    return card


def _double(card: Any) -> bool:
    return isinstance(card, IngredientCard) and card.double


MAMMA_MIA_FACES = tuple(distinct_faces())
MAUS_PRINTING = MausPrinting.load()
MAUS_FACES = tuple(MAUS_PRINTING.faces())  # by colour, then value, then coins


def _maus_card(value: Any) -> Hashable:
    if not isinstance(value, str):
        raise ValueError(f"expected a Maus card in notation with its coins, like \"g5/3\", not {value!r}")
    try:
        card = MausCard.from_notation(value.strip())
    except ValueError as error:
        raise ValueError(str(error)) from None
    if card.coins is None:
        raise ValueError(f"{value!r} lacks its coins: write it like \"{value.strip()}/3\"")
    if card not in MAUS_FACES:
        raise NotAFace(f"{card.notation} is not a card of the game "
                         f"(its deck has no {card.describe()} with {card.coins} coins)")
    return card


def _maus_slug(card: MausCard) -> str:
    return f"maus-{card.ingredient.letter}{card.value}-{card.coins}"


def _maus_words(card: MausCard) -> str:
    return f"{card.describe()} with {card.coins} coins"


GAMES: dict[str, DeckGame] = {
    MAMMA_MIA: DeckGame(MAMMA_MIA, MAMMA_MIA_FACES, "standin", DEFAULT_DECK_DIR, _mamma_mia_card, card_to_json,
                        face_slug, describe_card, _double),
    MAUS: DeckGame(MAUS, MAUS_FACES, "maus-standin", MAUS_DECK_DIR, _maus_card, lambda card: card.notation,
                   _maus_slug, _maus_words),
}


def game_named(name: object) -> DeckGame:
    """The game called ``name``; ValueError naming the games otherwise."""
    if isinstance(name, str) and name in GAMES:
        return GAMES[name]
    raise ValueError(f"game must be one of {', '.join(GAMES)}, not {name!r}")


def manifest_game(folder: str | Path) -> DeckGame:
    """The game a deck folder's manifest says it is for (Mamma Mia! when it
    says none); ValueError for a game unknown. An unreadable manifest is
    Mamma Mia!'s: reading its cards then says what is wrong with it."""
    try:
        data = json.loads((Path(folder) / MANIFEST).read_text("utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return GAMES[MAMMA_MIA]
    if not isinstance(data, dict) or "game" not in data:
        return GAMES[MAMMA_MIA]
    return game_named(data["game"])


def folder_game(folder: str | Path) -> DeckGame:
    """The game of the deck in ``folder`` (its enrolled faces when present); DeckError for a game unknown."""
    source = deck_folder(folder)
    try:
        return manifest_game(source)
    except ValueError as error:
        raise DeckError(f"{source / MANIFEST}: {error}") from None
