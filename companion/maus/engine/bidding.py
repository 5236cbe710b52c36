"""Bids: who picks first from the middle.

>>> from companion.maus.engine.deck import Deck
>>> from companion.maus.engine.helpers import HelperSeating
>>> numbers = Deck.load().helper_numbers
>>> seating = HelperSeating.from_held([Helper.ETIENNE, Helper.MATHIEU, Helper.LILLY, Helper.CLAUDE], 0)
>>> [p.seat for p in picking_order([3, 5, 5, 7], seating.held, numbers)]
[3, 1, 2, 0]
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from .errors import IllegalBids
from .helpers import Helper, HelperNumbers

HENRI_BONUS = 2


@dataclass(frozen=True)
class Pick:
    """One player's place in the picking order."""

    seat: int
    coins: int       # on the bid card
    bonus: int       # Henri's +2, or 0
    helper: Helper

    @property
    def total(self) -> int:
        return self.coins + self.bonus


def picking_order(coins: Sequence[int], held: Sequence[Helper], numbers: HelperNumbers) -> tuple[Pick, ...]:
    """Seats in picking order: most coins first (Henri adds 2 to his
    holder's), ties to the higher helper order number. The last pick takes
    the two cards left and leaves its bid card in the middle."""
    check_bids(coins, len(held))
    picks = [Pick(seat, n, HENRI_BONUS if held[seat] is Helper.HENRI else 0, held[seat])
             for seat, n in enumerate(coins)]
    return tuple(sorted(picks, key=lambda p: (p.total, numbers[p.helper]), reverse=True))


def check_bids(coins: Sequence[int], players: int) -> None:
    if len(coins) != players:
        raise IllegalBids(f"one bid per player: {players} bids, not {len(coins)}")
    for seat, n in enumerate(coins):
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise IllegalBids(f"seat {seat + 1}'s bid must be a number of coins (0 or more), not {n!r}")
