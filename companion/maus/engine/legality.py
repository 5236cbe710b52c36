"""Named legality layers for a combination, checked in this order.

1. :func:`check_cards`      each card exists in the deck (input, not play)
2. :func:`check_count`      three cards, or four with Amélie
3. :func:`check_hand_left`  at least one card stays in hand
4. :func:`check_shape`      the values as laid are consecutive (a run) or equal (a set)
5. :func:`check_colours`    the colours make a one-colour or a mixed combination

Layer 1 raises :class:`IllegalCard` (no such card: the request is wrong);
the others raise subclasses of :class:`IllegalCombination` (the cards exist
but may not be laid like this).
"""
from __future__ import annotations

import enum
from typing import Sequence

from .cards import Card
from .deck import Deck
from .errors import NoCardLeft, NotRunOrSet, WrongCardCount
from .helpers import Helper
from .rules import Colouring, MausRules


class Kind(enum.Enum):
    RUN = "run"
    SET = "set"


def check_cards(cards: Sequence[Card], deck: Deck) -> None:
    for card in cards:
        deck.check_card(card)


def check_count(cards: Sequence[Card], helper: Helper | None) -> None:
    if len(cards) == 3 or (len(cards) == 4 and helper is Helper.AMELIE):
        return
    if len(cards) == 4:
        raise WrongCardCount("four cards make a combination only with Amélie")
    most = 4 if helper is Helper.AMELIE else 3
    raise WrongCardCount(f"a combination is three cards{' or four' if most == 4 else ''}, not {len(cards)}")


def check_hand_left(hand_after: int | None) -> None:
    """``hand_after``: the cards the player would hold after laying (``None``: unknown)."""
    if hand_after is not None and hand_after < 1:
        raise NoCardLeft("at least one card must stay in hand after laying a combination")


def check_shape(laid: Sequence[Card]) -> Kind:
    values = sorted(card.value for card in laid)
    if len(set(values)) == 1:
        return Kind.SET
    if all(b == a + 1 for a, b in zip(values, values[1:])):
        return Kind.RUN
    shown = "-".join(map(str, values))
    raise NotRunOrSet(f"{shown} is neither a run (consecutive values) nor a set (equal values)")


def check_colours(laid: Sequence[Card], rules: MausRules) -> Colouring:
    return rules.colours.colouring([card.ingredient for card in laid])
