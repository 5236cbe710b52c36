"""Named legality layers for cards met in the evaluation phase.

Each layer checks one thing and raises a specific :class:`RulesError`; the
evaluation runs them in order before it changes anything.

1. :func:`check_exists`    the card exists at this table (deck, variant, colours)
2. :func:`check_supply`    no more copies of an ingredient than the deck holds
3. :func:`check_unique`    an order card is met once and was not delivered before

:class:`NextCard` runs the three on any card, to say which cards the next
one of a pile can still be, and why another cannot.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
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


@dataclass(frozen=True)
class NextCard:
    """What the next card revealed in a round can be, from what the round has
    met so far: ``seen``, the ingredient cards met (the leftovers the round
    began with, those revealed and those added from hands); ``orders``, the
    orders revealed this round; ``delivered``, those delivered before it.

    >>> upcoming = NextCard(Deck.for_players(2), (Color.GREEN, Color.RED))
    >>> len(upcoming.possible())  # five ingredients, and the two colours' eight orders each
    21
    >>> upcoming.why_not(parse_card("y:4A+P"))
    ColorNotAtTable('yellow order 4 pineapple + 1 pepper (y:4A+P): yellow is not at this table (green, red)')
    >>> upcoming.after(parse_card("g:4A+P")).why_not(parse_card("g:4A+P"))
    DuplicateOrder('green order 4 pineapple + 1 pepper (g:4A+P) appears twice; each order card exists once')

    Whatever the owner decides for an order waiting for a decision, the
    cards that can come next are the same.
    """

    deck: Deck
    colors: tuple[Color, ...]
    seen: Ingredients = Ingredients()
    orders: frozenset[Order] = frozenset()
    delivered: frozenset[Order] = frozenset()

    def check(self, card: Card) -> None:
        """The three layers for ``card``; raises the first one's refusal."""
        check_exists(card, self.deck, self.colors)
        if isinstance(card, IngredientCard):
            check_supply(card, self.seen, self.deck)
        else:
            check_unique(card, self.orders, self.delivered)  # type: ignore[arg-type]

    def why_not(self, card: Card) -> IllegalCard | None:
        """Why ``card`` cannot come next (``None``: it can)."""
        try:
            self.check(card)
        except IllegalCard as refused:
            return refused
        return None

    def can_be(self, card: Card) -> bool:
        return self.why_not(card) is None

    def possible(self) -> tuple[Card, ...]:
        """Every face that can come next, in the edition's order."""
        return tuple(card for card in self.deck.edition.faces() if self.can_be(card))

    def after(self, card: Card) -> NextCard:
        """What the card after ``card`` can be, once ``card`` is revealed (checked)."""
        self.check(card)
        if isinstance(card, IngredientCard):
            return replace(self, seen=self.seen.add(card))
        return replace(self, orders=self.orders | {card})  # type: ignore[operator]

    def __repr__(self) -> str:
        colors = "".join(c.letter for c in self.colors)
        return f"<NextCard {colors}, seen {self.seen.notation}, {len(self.orders)} orders revealed>"
