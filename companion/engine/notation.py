"""Notation for piles: card tokens separated by spaces, in reveal order.

An ingredient token may carry a repeat count: ``3S g:4S+P`` is three salami
then green's 4 salami + 1 pepper. Table contents use the same tokens as a
multiset (:meth:`Ingredients.from_notation`).
"""
from __future__ import annotations

from typing import Iterable

from .cards import Card, parse_card
from .ingredients import parse_ingredient_run
from .vocabulary import IngredientCard


def parse_pile(text: str) -> list[Card]:
    """Read a pile, first card first.

    >>> [str(c) for c in parse_pile("2S g:4S+P")]
    ['S', 'S', 'g:4S+P']
    """
    cards: list[Card] = []
    for token in text.split():
        if token[0].isdigit() and ":" not in token and not token.endswith("+"):
            card, count = parse_ingredient_run(token)
            cards.extend([card] * count)
        else:
            cards.append(parse_card(token))
    return cards


def format_pile(cards: Iterable[Card], compress: bool = True) -> str:
    """Tokens in order; runs of the same ingredient card become ``3S``."""
    tokens: list[str] = []
    run_card: Card | None = None
    run = 0

    def flush() -> None:
        if run_card is not None:
            prefix = str(run) if run > 1 else ""
            tokens.append(prefix + run_card.notation)

    for card in cards:
        if compress and isinstance(card, IngredientCard) and card == run_card:
            run += 1
            continue
        flush()
        if isinstance(card, IngredientCard) and compress:
            run_card, run = card, 1
        else:
            run_card, run = None, 0
            tokens.append(card.notation)
    flush()
    return " ".join(tokens)

