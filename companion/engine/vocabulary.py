"""The words of the game: ingredients, order colours and ingredient cards.

Enum order is meaningful: it is the canonical order used for sorting, for
notation and for breaking ties (salami, pineapple, mushroom, pepper, olive).
"""
from __future__ import annotations

import enum
from dataclasses import dataclass

from .errors import NotationError


class Ingredient(enum.Enum):
    SALAMI = "salami"
    PINEAPPLE = "pineapple"
    MUSHROOM = "mushroom"
    PEPPER = "pepper"
    OLIVE = "olive"

    @property
    def letter(self) -> str:
        """One capital letter in card notation (A for pineapple: *ananas*)."""
        return _INGREDIENT_LETTERS[self]

    @property
    def index(self) -> int:
        return _INGREDIENT_INDEX[self]

    @classmethod
    def from_letter(cls, letter: str) -> Ingredient:
        try:
            return _LETTER_INGREDIENTS[letter]
        except KeyError:
            raise NotationError(f"unknown ingredient letter {letter!r} (use S A M P O)") from None

    @classmethod
    def from_name(cls, name: str) -> Ingredient:
        """Read the JSON name of an ingredient.

        >>> Ingredient.from_name("olive")
        <Ingredient.OLIVE: 'olive'>
        """
        try:
            return cls(name)
        except ValueError:
            names = ", ".join(i.value for i in cls)
            raise NotationError(f"unknown ingredient {name!r} (one of {names})") from None

    def __repr__(self) -> str:
        return f"<Ingredient.{self.name}: {self.value!r}>"


_INGREDIENT_LETTERS = {
    Ingredient.SALAMI: "S",
    Ingredient.PINEAPPLE: "A",
    Ingredient.MUSHROOM: "M",
    Ingredient.PEPPER: "P",
    Ingredient.OLIVE: "O",
}
_LETTER_INGREDIENTS = {v: k for k, v in _INGREDIENT_LETTERS.items()}
_INGREDIENT_INDEX = {ingredient: i for i, ingredient in enumerate(Ingredient)}
INGREDIENTS: tuple[Ingredient, ...] = tuple(Ingredient)


class Color(enum.Enum):
    """A player's order colour (the back of their eight order cards)."""

    RED = "red"
    YELLOW = "yellow"
    BROWN = "brown"
    GREEN = "green"
    PURPLE = "purple"

    @property
    def letter(self) -> str:
        """One small letter in card notation: r y b g p."""
        return self.value[0]

    @classmethod
    def from_letter(cls, letter: str) -> Color:
        for color in cls:
            if color.letter == letter:
                return color
        raise NotationError(f"unknown colour letter {letter!r} (use r y b g p)")

    @classmethod
    def from_name(cls, name: str) -> Color:
        try:
            return cls(name)
        except ValueError:
            names = ", ".join(c.value for c in cls)
            raise NotationError(f"unknown colour {name!r} (one of {names})") from None


@dataclass(frozen=True, slots=True)
class IngredientCard:
    """One ingredient card; a double card counts as two of its ingredient.

    >>> IngredientCard.from_notation("M2").units
    2
    """

    ingredient: Ingredient
    double: bool = False

    @property
    def units(self) -> int:
        return 2 if self.double else 1

    @property
    def notation(self) -> str:
        return self.ingredient.letter + ("2" if self.double else "")

    @classmethod
    def from_notation(cls, text: str) -> IngredientCard:
        if len(text) == 2 and text[1] == "2":
            return cls(Ingredient.from_letter(text[0]), True)
        if len(text) == 1:
            return cls(Ingredient.from_letter(text))
        raise NotationError(f"{text!r} is not an ingredient card (like S, or S2 for a double)")

    def __repr__(self) -> str:
        return f"IngredientCard.from_notation({self.notation!r})"

    def __str__(self) -> str:
        return self.notation
