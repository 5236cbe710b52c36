"""What is printed on an order card, and what it asks of the face-up table.

Each kind of pizza is a small strategy object: given the face-up ingredients it
lists its :class:`Option` s (one for an ordinary pizza, one per allowed joker
for Monotoni, one per eligible tied ingredient for Minimale, possibly none).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from .ingredients import Ingredients, Need
from .vocabulary import INGREDIENTS, Ingredient


@dataclass(frozen=True, slots=True)
class Option:
    """One way to make an order: the owner's ``choice`` (joker or Minimale
    ingredient, ``None`` for other pizzas), what it asks for and what the
    table is missing for it."""

    choice: Ingredient | None
    requirement: Need
    needed: Need


def _option(choice: Ingredient | None, requirement: Need, table: Ingredients) -> Option:
    return Option(choice, requirement, requirement.shortfall(table))


@dataclass(frozen=True, slots=True)
class Recipe:
    """An ordinary pizza: fixed amounts, e.g. 4 pineapple + 1 pepper."""

    need: Need

    def options(self, table: Ingredients) -> tuple[Option, ...]:
        return (_option(None, self.need, table),)

    @property
    def ingredients(self) -> tuple[Ingredient, ...]:
        return tuple(i for i, _ in self.need.items())

    @property
    def notation(self) -> str:
        return "+".join(f"{n if n > 1 else ''}{i.letter}" for i, n in self.need.items())


@dataclass(frozen=True, slots=True)
class Bombastica:
    """Pizza Bombastica: at least ``minimum`` face-up ingredients of any kind;
    on success every face-up ingredient is used."""

    minimum: int = 15

    def options(self, table: Ingredients) -> tuple[Option, ...]:
        return (_option(None, Need(any=self.minimum), table),)

    @property
    def notation(self) -> str:
        return f"{self.minimum}+"


@dataclass(frozen=True, slots=True)
class Monotoni:
    """Pizza Monotoni: 1 ``fixed`` + exactly ``count`` of one other ingredient,
    the joker (J), chosen by the owner when the order is revealed."""

    fixed: Ingredient
    count: int = 6

    def options(self, table: Ingredients) -> tuple[Option, ...]:
        return tuple(
            _option(joker, Need.of({self.fixed: 1, joker: self.count}), table)
            for joker in INGREDIENTS
            if joker is not self.fixed
        )

    @property
    def notation(self) -> str:
        return f"{self.fixed.letter}+{self.count}J"


@dataclass(frozen=True, slots=True)
class Minimale:
    """Pizza Minimale: 1 ``fixed`` + ``count`` of the ingredient with the
    fewest face-up units (the "?").

    Neither the fixed ingredient nor a kind with nothing face up takes part in
    "fewest" (the Czech sheet's reading: both "do not count"); ties are the
    owner's choice; with no candidate the order cannot succeed.
    """

    fixed: Ingredient
    count: int = 3

    def eligible(self, table: Ingredients) -> tuple[Ingredient, ...]:
        candidates = [i for i in INGREDIENTS if i is not self.fixed and table.units(i) > 0]
        if not candidates:
            return ()
        fewest = min(table.units(i) for i in candidates)
        return tuple(i for i in candidates if table.units(i) == fewest)

    def options(self, table: Ingredients) -> tuple[Option, ...]:
        return tuple(
            _option(m, Need.of({self.fixed: 1, m: self.count}), table)
            for m in self.eligible(table)
        )

    @property
    def notation(self) -> str:
        return f"{self.fixed.letter}+{self.count}?"


Pizza = Union[Recipe, Bombastica, Monotoni, Minimale]
SPECIAL_NAMES: dict[type, str] = {Bombastica: "bombastica", Monotoni: "monotoni", Minimale: "minimale"}
