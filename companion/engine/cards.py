"""Cards and their short text notation.

===========  ===================  =======================================
card         notation             meaning
===========  ===================  =======================================
ingredient   ``S`` ``A2``         salami; a double pineapple
order        ``g:4A+P``           green: 4 pineapple + 1 pepper
             ``g:S+A+M+P+O``      green: one of each
             ``g:15+``            green Pizza Bombastica
             ``g:P+6J``           green Pizza Monotoni (pepper + 6 joker)
             ``g:P+3?``           green Pizza Minimale (pepper + 3 fewest)
Mamma Mia!   ``!``
===========  ===================  =======================================

Ingredient letters: S salami, A pineapple (ananas), M mushroom, P pepper,
O olive. Colour letters: r red, y yellow, b brown, g green, p purple.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Union

from .errors import NotationError
from .ingredients import Need
from .pizzas import SPECIAL_NAMES, Bombastica, Minimale, Monotoni, Pizza, Recipe
from .vocabulary import Color, Ingredient, IngredientCard

_BOMBASTICA = re.compile(r"^(\d+)\+$")
_SPECIAL = re.compile(r"^([SAMPO])\+(\d+)([J?])$")
_PART = re.compile(r"^(\d+)?([SAMPO])$")


@dataclass(frozen=True, slots=True)
class Order:
    """An order card: the owner's colour and the pizza printed on it.

    >>> Order.from_notation("g:4A+P").pizza.need[Ingredient.PINEAPPLE]
    4
    """

    color: Color
    pizza: Pizza

    @property
    def notation(self) -> str:
        return f"{self.color.letter}:{self.pizza.notation}"

    @property
    def special(self) -> str | None:
        """``"bombastica"``, ``"monotoni"``, ``"minimale"`` or ``None``."""
        return SPECIAL_NAMES.get(type(self.pizza))

    def describe(self) -> str:
        """Words for a player: ``green order 4 pineapple + 1 pepper``."""
        if self.special:
            return f"{self.color.value} Pizza {self.special.capitalize()}"
        recipe = " + ".join(f"{n} {i.value}" for i, n in self.pizza.need.items())
        return f"{self.color.value} order {recipe}"

    @classmethod
    def from_notation(cls, text: str) -> Order:
        color_part, sep, body = text.partition(":")
        if not sep or len(color_part) != 1:
            raise NotationError(f"{text!r} is not an order (like g:4A+P)")
        return cls(Color.from_letter(color_part), _parse_pizza(body, text))

    def __repr__(self) -> str:
        return f"Order.from_notation({self.notation!r})"

    def __str__(self) -> str:
        return self.notation


def _parse_pizza(body: str, text: str) -> Pizza:
    if match := _BOMBASTICA.match(body):
        return Bombastica(int(match.group(1)))
    if match := _SPECIAL.match(body):
        fixed, count = Ingredient.from_letter(match.group(1)), int(match.group(2))
        return Monotoni(fixed, count) if match.group(3) == "J" else Minimale(fixed, count)
    amounts: dict[Ingredient, int] = {}
    for part in body.split("+"):
        match = _PART.match(part)
        if not match:
            raise NotationError(f"{text!r}: cannot read {part!r} in the recipe")
        ingredient = Ingredient.from_letter(match.group(2))
        if ingredient in amounts:
            raise NotationError(f"{text!r}: {ingredient.value} appears twice in the recipe")
        amounts[ingredient] = int(match.group(1) or 1)
    if any(n <= 0 for n in amounts.values()):
        raise NotationError(f"{text!r}: amounts must be at least 1")
    return Recipe(Need.of(amounts))


@dataclass(frozen=True, slots=True)
class MammaMiaCard:
    """The Mamma Mia! card: decides who reveals the pile; never part of it."""

    notation = "!"

    def __repr__(self) -> str:
        return "MammaMiaCard()"

    def __str__(self) -> str:
        return "!"


MAMMA_MIA = MammaMiaCard()

Card = Union[IngredientCard, Order, MammaMiaCard]


def parse_card(token: str) -> Card:
    """Any card from its notation.

    >>> parse_card("g:P+6J").special
    'monotoni'
    """
    if token == "!":
        return MAMMA_MIA
    if ":" in token:
        return Order.from_notation(token)
    return IngredientCard.from_notation(token)


def one_of_a_kind(card: Card) -> bool:
    """Whether the game holds a single copy of ``card``: each colour's orders
    are its own, and there is one Mamma Mia! card; ingredients come in many.

    >>> one_of_a_kind(Order.from_notation("g:4A+P")), one_of_a_kind(IngredientCard.from_notation("A2"))
    (True, False)
    """
    return isinstance(card, (Order, MammaMiaCard))


def describe_card(card: Card) -> str:
    """Words for a player, used in messages."""
    if isinstance(card, Order):
        return card.describe()
    if isinstance(card, IngredientCard):
        return ("double " if card.double else "") + card.ingredient.value
    return "the Mamma Mia! card"
