"""Ingredient cards and their short text notation.

=============  ===========  ==========================================
what           notation     meaning
=============  ===========  ==========================================
a card         ``g5``       a green card of sweet value 5
with coins     ``g5/3``     the same, showing 3 chocolate coins
several        ``b4 b5 r6`` cards separated by spaces, in laying order
=============  ===========  ==========================================

The sheet names no ingredients, only that each has its own colour, so the
engine calls them by colour. Letters: r red, y yellow, g green, b blue,
p purple. Coins matter only for bids; a combination reads the sweet values
and colours and ignores them.
"""
from __future__ import annotations

import enum
import re
from dataclasses import dataclass, replace
from typing import Iterable

from .errors import NotationError

_CARD = re.compile(r"^([a-z])(\d+)(?:/(\d+))?$")


class Ingredient(enum.Enum):
    """The five ingredients, named by their colour; enum order is canonical."""

    RED = "red"
    YELLOW = "yellow"
    GREEN = "green"
    BLUE = "blue"
    PURPLE = "purple"

    @property
    def letter(self) -> str:
        return self.value[0]

    @classmethod
    def from_letter(cls, letter: str) -> Ingredient:
        for ingredient in cls:
            if ingredient.letter == letter:
                return ingredient
        raise NotationError(f"unknown ingredient letter {letter!r} (use r y g b p)")

    @classmethod
    def from_name(cls, name: object) -> Ingredient:
        """Read an ingredient's name as the JSON contract writes it.

        >>> Ingredient.from_name("blue")
        <Ingredient.BLUE: 'blue'>
        """
        if isinstance(name, str):
            for ingredient in cls:
                if ingredient.value == name:
                    return ingredient
        names = ", ".join(i.value for i in cls)
        raise NotationError(f"unknown ingredient {name!r} (one of {names})")

    def __repr__(self) -> str:
        return f"<Ingredient.{self.name}: {self.value!r}>"


INGREDIENTS: tuple[Ingredient, ...] = tuple(Ingredient)


@dataclass(frozen=True, slots=True)
class Card:
    """One ingredient card: its colour, its printed sweet value and, when
    known, its chocolate coins.

    >>> Card.from_notation("g5/3")
    Card.from_notation('g5/3')
    >>> Card.from_notation("g5").describe()
    'green 5'
    """

    ingredient: Ingredient
    value: int
    coins: int | None = None

    @property
    def notation(self) -> str:
        coins = "" if self.coins is None else f"/{self.coins}"
        return f"{self.ingredient.letter}{self.value}{coins}"

    @classmethod
    def from_notation(cls, text: str) -> Card:
        match = _CARD.match(text)
        if not match:
            raise NotationError(f"{text!r} is not a card (like g5, or g5/3 with its coins)")
        coins = None if match.group(3) is None else int(match.group(3))
        return cls(Ingredient.from_letter(match.group(1)), int(match.group(2)), coins)

    def with_value(self, value: int) -> Card:
        return replace(self, value=value)

    def with_ingredient(self, ingredient: Ingredient) -> Card:
        return replace(self, ingredient=ingredient)

    def describe(self) -> str:
        """Words for a player: ``green 5``."""
        return f"{self.ingredient.value} {self.value}"

    def __repr__(self) -> str:
        return f"Card.from_notation({self.notation!r})"

    def __str__(self) -> str:
        return self.notation


def parse_cards(text: str) -> tuple[Card, ...]:
    """Cards separated by spaces.

    >>> [c.value for c in parse_cards("b4 b5 r6")]
    [4, 5, 6]
    """
    return tuple(Card.from_notation(token) for token in text.split())


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(card.notation for card in cards)
