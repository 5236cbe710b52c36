"""Named legality layers for cards met in the evaluation phase.

Each layer checks one thing and raises a specific :class:`RulesError`; the
evaluation runs them in order before it changes anything.

1. :func:`check_exists`    the card exists at this table (deck, variant, colours)
2. :func:`check_supply`    no more copies of an ingredient than the deck holds
3. :func:`check_unique`    an order card is met once and was not delivered before
"""
from __future__ import annotations

from typing import Collection

from .cards import Card, MammaMiaCard, Order, describe_card
from .edition import Deck
from .errors import ColorNotAtTable, DuplicateOrder, IllegalCard, MammaMiaInPile, TooManyIngredients
from .ingredients import Ingredients
from .vocabulary import Color, IngredientCard


def ordinal(n: int) -> str:
    """English ordinal for messages.

    >>> ordinal(14)
    '14th'
    """
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def an_ordinal(n: int) -> str:
    """The English ordinal with its article, as it is said: "eleventh" and
    "eighth" begin with a vowel sound.

    >>> [an_ordinal(n) for n in (9, 11, 14, 18, 8, 80, 101)]
    ['a 9th', 'an 11th', 'a 14th', 'an 18th', 'an 8th', 'an 80th', 'a 101st']
    """
    lead = n
    while lead >= 1000:  # said by its leading group: "eleven thousand…"
        lead //= 1000
    vowel = str(lead).startswith("8") or lead in (11, 18)
    return f"{'an' if vowel else 'a'} {ordinal(n)}"


def check_exists(card: Card, deck: Deck, colors: Collection[Color]) -> None:
    if isinstance(card, MammaMiaCard):
        raise MammaMiaInPile("the Mamma Mia! card is never part of the oven pile")
    if isinstance(card, IngredientCard):
        if card.double and not deck.doubles:
            raise IllegalCard(
                f"a double {card.ingredient.value} card ({card.notation}) is only used "
                "with the Doubled Ingredients variant"
            )
        return
    if card.color not in colors:
        playing = ", ".join(c.value for c in colors)
        raise ColorNotAtTable(f"{card.describe()} ({card.notation}): {card.color.value} is not at this table ({playing})")
    if card not in deck.orders(card.color):
        raise IllegalCard(f"{card.notation} is not one of {card.color.value}'s eight order cards")


def check_supply(card: IngredientCard, seen: Ingredients, deck: Deck, copies: int = 1) -> None:
    """``seen`` holds the copies already met; ``copies`` more are about to be."""
    limit = deck.count(card)
    total = seen.count(card) + copies
    if total > limit:
        kind = describe_card(card)
        raise TooManyIngredients(
            f"{an_ordinal(total)} {kind} card ({card.notation}): a {deck.player_count}-player game "
            f"has only {limit} {kind} card{'s' if limit != 1 else ''}",
            card=card, nth=total, limit=limit, players=deck.player_count,
        )


def check_unique(order: Order, seen: Collection[Order], delivered: Collection[Order]) -> None:
    if order in delivered:
        raise DuplicateOrder(f"{order.describe()} ({order.notation}) was already delivered")
    if order in seen:
        raise DuplicateOrder(f"{order.describe()} ({order.notation}) appears twice; each order card exists once")


def check_ingredients(cards: Ingredients, deck: Deck, already: Ingredients = Ingredients()) -> None:
    """Layers 1 and 2 for a whole multiset (a table or a hand's cards)."""
    for card in set(cards.cards()):
        check_exists(card, deck, ())
        check_supply(card, already, deck, cards.count(card))
