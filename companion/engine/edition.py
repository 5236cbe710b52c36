"""The deck as data: a printed edition, the Doubled Ingredients variant, and
the cards in play at a table of a given size.

A different printed edition is a different JSON file in ``data/`` (or a dict
given to :meth:`Edition.from_dict`), not different code.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any, Mapping

from .cards import MAMMA_MIA, Card, Order
from .errors import IllegalSetup
from .ingredients import Ingredients
from .vocabulary import Color, Ingredient, IngredientCard


@dataclass(frozen=True)
class Edition:
    """A printed edition: how many cards of what, and the 8 orders per colour."""

    name: str
    ingredient_cards_per_kind: int
    removed_per_kind: Mapping[int, int]
    personal: Mapping[Color, Ingredient]
    orders: Mapping[Color, tuple[Order, ...]]
    deal: int = 6
    hand_size: int = 7
    rounds: int = 3

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Edition:
        orders = {
            Color.from_name(color): tuple(Order.from_notation(f"{Color.from_name(color).letter}:{body}") for body in bodies)
            for color, bodies in data["orders"].items()
        }
        return cls(
            name=data["name"],
            ingredient_cards_per_kind=int(data["ingredient_cards_per_kind"]),
            removed_per_kind={int(k): int(v) for k, v in data["removed_per_kind"].items()},
            personal={Color.from_name(c): Ingredient.from_name(i) for c, i in data["personal"].items()},
            orders=orders,
            deal=int(data.get("deal", 6)),
            hand_size=int(data.get("hand_size", 7)),
            rounds=int(data.get("rounds", 3)),
        )

    @classmethod
    def load(cls, name: str = "classic") -> Edition:
        return _load_edition(name)

    @property
    def player_counts(self) -> tuple[int, ...]:
        return tuple(sorted(self.removed_per_kind))

    def faces(self) -> tuple[Card, ...]:
        """Every distinct face printed, the Doubled Ingredients expansion's
        included: ingredients, doubles, each colour's orders, then the Mamma
        Mia! card.

        >>> len(Edition.load().faces())
        51
        """
        ingredients = [IngredientCard(i, double) for double in (False, True) for i in Ingredient]
        orders = [order for color in Color for order in self.orders[color]]
        return (*ingredients, *orders, MAMMA_MIA)

    def __repr__(self) -> str:
        return f"<Edition {self.name!r}>"


@cache
def _load_edition(name: str) -> Edition:
    text = resources.files("companion.engine").joinpath("data", f"{name}.json").read_text("utf-8")
    return Edition.from_dict(json.loads(text))


@dataclass(frozen=True)
class Variant:
    """A way of changing the deck after the player-count removal.

    The Doubled Ingredients expansion replaces ``doubles_per_kind`` single
    cards of each ingredient by as many double cards.
    """

    name: str
    doubles_per_kind: int = 0

    def __repr__(self) -> str:
        return f"<Variant {self.name!r}>"


BASE_GAME = Variant("base game")
DOUBLED_INGREDIENTS = Variant("Doubled Ingredients", doubles_per_kind=2)


@dataclass(frozen=True)
class Ruleset:
    """Where the rule sheets read differently, as data.

    ``classic`` follows the Dutch, French and Czech sheets: any number of
    ingredient cards per turn (zero too), and the Mamma Mia! card shuffled in
    before dealing. ``spanish`` follows the Spanish sheet: a player holding
    ingredients must play at least one, a player holding none plays nothing
    (not even an order), and the Mamma Mia! card is shuffled in after dealing.
    """

    name: str
    must_play_ingredient: bool = False
    mamma_mia_in_deal: bool = True


CLASSIC_RULES = Ruleset("classic")
SPANISH_RULES = Ruleset("spanish", must_play_ingredient=True, mamma_mia_in_deal=False)


@dataclass(frozen=True)
class Deck:
    """The cards in play at one table: edition, player count and variant.

    >>> Deck.for_players(2).count(IngredientCard(Ingredient.SALAMI))
    8
    """

    player_count: int
    edition: Edition = field(default_factory=Edition.load)
    variant: Variant = BASE_GAME

    def __post_init__(self) -> None:
        if self.player_count not in self.edition.removed_per_kind:
            counts = ", ".join(map(str, self.edition.player_counts))
            raise IllegalSetup(f"Mamma Mia! is played by {counts} players, not {self.player_count}")
        if self.singles_per_kind < 0:
            raise IllegalSetup(f"{self.variant.name} needs more cards than the deck has")

    @classmethod
    def for_players(cls, player_count: int, doubles: bool = False, edition: Edition | None = None) -> Deck:
        return cls(player_count, edition or Edition.load(), DOUBLED_INGREDIENTS if doubles else BASE_GAME)

    @property
    def doubles(self) -> bool:
        return self.variant.doubles_per_kind > 0

    @property
    def removed_per_kind(self) -> int:
        return self.edition.removed_per_kind[self.player_count]

    @property
    def singles_per_kind(self) -> int:
        return self.edition.ingredient_cards_per_kind - self.removed_per_kind - self.variant.doubles_per_kind

    def count(self, card: IngredientCard) -> int:
        """How many copies of this ingredient card are in play."""
        return self.variant.doubles_per_kind if card.double else self.singles_per_kind

    def ingredient_stock(self) -> Ingredients:
        """Every ingredient card in play."""
        s, d = self.singles_per_kind, self.variant.doubles_per_kind
        return Ingredients((s,) * 5, (d,) * 5)

    def box(self) -> Ingredients:
        """The single cards put back in the box for this player count and variant."""
        return Ingredients((self.removed_per_kind + self.variant.doubles_per_kind,) * 5)

    def orders(self, color: Color) -> tuple[Order, ...]:
        return self.edition.orders[color]

    def personal(self, color: Color) -> Ingredient:
        return self.edition.personal[color]

    def __repr__(self) -> str:
        return f"<Deck {self.player_count} players, {self.variant.name}, {self.edition.name!r}>"


__all__ = [
    "Edition", "Variant", "Ruleset", "Deck", "BASE_GAME", "DOUBLED_INGREDIENTS",
    "CLASSIC_RULES", "SPANISH_RULES",
]
