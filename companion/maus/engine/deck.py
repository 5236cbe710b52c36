"""The deck as data: which cards exist, with what coins, and the numbers
that shape a game (cards dealt, hand limit, points to end).

The rule sheet gives 80 ingredient cards, 16 per ingredient with sweet
values 3-7, but neither how the 16 spread over the values nor the coins on
each card. ``data/standin.json`` is a **stand-in** distribution, labelled as
such (``Deck.stand_in``); a printed deck's real spread is another data file
or a dict given to :meth:`Deck.from_dict`, not different code.

>>> deck = Deck.load()
>>> deck.stand_in, len(deck.cards()), len(deck.faces())
(True, 80, 70)
"""
from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Mapping

from .cards import INGREDIENTS, Card
from .errors import IllegalCard, IllegalSetup
from .helpers import Helper, HelperNumbers


@dataclass(frozen=True)
class Deck:
    """A printing of the game: the ingredient cards and the helper numbers."""

    name: str
    stand_in: bool
    values: tuple[int, ...]
    coins_per_value: Mapping[int, tuple[int, ...]]  # one coin count per card of each ingredient
    helper_numbers: HelperNumbers
    numbers_from_sheet: tuple[Helper, ...] = ()
    deal: int = 5
    hand_limit: int = 8
    target: int = 30

    def __post_init__(self) -> None:
        if sorted(self.coins_per_value) != sorted(self.values):
            raise IllegalSetup("every sweet value needs its cards' coins, and only those values")

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Deck:
        return cls(
            name=str(data["name"]),
            stand_in=bool(data.get("stand_in", False)),
            values=tuple(int(v) for v in data["values"]),
            coins_per_value={int(v): tuple(int(c) for c in coins) for v, coins in data["coins_per_value"].items()},
            helper_numbers=HelperNumbers.from_dict(data["helper_numbers"]),
            numbers_from_sheet=tuple(Helper.from_name(h) for h in data.get("helper_numbers_from_sheet", ())),
            deal=int(data.get("deal", 5)),
            hand_limit=int(data.get("hand_limit", 8)),
            target=int(data.get("target", 30)),
        )

    @classmethod
    def load(cls, name: str = "standin") -> Deck:
        return _load_deck(name)

    @property
    def cards_per_ingredient(self) -> int:
        return sum(len(coins) for coins in self.coins_per_value.values())

    def cards(self) -> list[Card]:
        """Every ingredient card, with its coins."""
        return [Card(ingredient, value, coins) for ingredient in INGREDIENTS
                for value in self.values for coins in self.coins_per_value[value]]

    def faces(self) -> dict[Card, int]:
        """Each distinct face (ingredient x value x coins) and how many cards show it."""
        return dict(Counter(self.cards()))

    def check_card(self, card: Card) -> None:
        """Refuse a card this deck does not have (a 9, or coins no such card shows)."""
        if card.value not in self.values:
            low, high = min(self.values), max(self.values)
            raise IllegalCard(f"{card.describe()}: sweet values run from {low} to {high}")
        if card.coins is not None and card.coins not in self.coins_per_value[card.value]:
            shown = ", ".join(map(str, sorted(set(self.coins_per_value[card.value]))))
            raise IllegalCard(f"{card.describe()} with {card.coins} coins: the {self.name} deck's "
                              f"{card.value}s show {shown} coins")

    def __repr__(self) -> str:
        label = ", stand-in" if self.stand_in else ""
        return f"<Deck {self.name!r}{label}>"


@cache
def _load_deck(name: str) -> Deck:
    text = resources.files("companion.maus.engine").joinpath("data", f"{name}.json").read_text("utf-8")
    return Deck.from_dict(json.loads(text))
