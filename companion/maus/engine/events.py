"""The actions of a Maus au Chocolat game at the table, as small frozen events.

A :class:`~companion.maus.engine.game.MausGame` is the replay of a list of
them: the first is :class:`GameStarted`, then each round's
:class:`BidsRevealed` and one :class:`CombinationLaid` or
:class:`CombinationSkipped` per player, in helper order.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from .cards import Card
from .combination import HelperUse
from .helpers import HelperNumbers, HelperSeating


@dataclass(frozen=True)
class GameStarted:
    """Who plays (names in clockwise seating order), who is oldest, who holds
    which helper and the spare row, and the helper order numbers the table
    confirmed (``None``: the deck's)."""

    players: tuple[str, ...]
    seating: HelperSeating
    numbers: HelperNumbers | None = None


@dataclass(frozen=True)
class BidsRevealed:
    """The coins on each seat's bid card, in seating order (without Henri's bonus)."""

    coins: tuple[int, ...]


@dataclass(frozen=True)
class CombinationLaid:
    """A seat lays cards; ``change`` is how its helper changed a card (``None``: none)."""

    seat: int
    cards: tuple[Card, ...]
    change: HelperUse | None = None


@dataclass(frozen=True)
class CombinationSkipped:
    """A seat lays no combination this round."""

    seat: int


Event = Union[GameStarted, BidsRevealed, CombinationLaid, CombinationSkipped]
