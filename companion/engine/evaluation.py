"""Phase 2: revealing the oven pile, one card at a time.

>>> ev = Evaluation(Deck.for_players(2), [Color.GREEN, Color.RED],
...                 table=Ingredients.from_notation("P 2S 3A 4M"))
>>> ev.reveal(parse_card("g:4A+P")).pending.options[0].needed.describe()
'1 pineapple'
>>> ev.decide(Decision.accept()).fulfilled, ev.table.notation
(True, '2S 4M')

Revealing an ingredient adds it to the table. Revealing an order either
settles it at once (everything is face up and there is nothing to choose, or
a Minimale with no eligible ingredient) or leaves it *pending* until the
owner's :class:`Decision`. Nothing changes when a check fails.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Collection, Iterable

from .cards import Card, Order
from .edition import Deck
from .errors import IllegalChoice, IllegalHandCards, NoPendingOrder, OrderPending
from .ingredients import Ingredients, Need
from .legality import NextCard, check_ingredients
from .pizzas import Minimale, Monotoni, Option
from .vocabulary import Color, Ingredient, IngredientCard


@dataclass(frozen=True)
class Decision:
    """The owner's answer to a pending order.

    ``choice``: the Monotoni joker or Minimale ingredient (``None``: the
    cheapest option). ``hand``: the exact cards added, when hands are tracked;
    ``None`` means the owner says they add what is missing.
    """

    add_from_hand: bool = True
    choice: Ingredient | None = None
    hand: Ingredients | None = None

    @classmethod
    def accept(cls, choice: Ingredient | None = None, hand: Ingredients | None = None) -> Decision:
        return cls(True, choice, hand)

    @classmethod
    def decline(cls, choice: Ingredient | None = None) -> Decision:
        return cls(False, choice)


def covers(hand: Ingredients, need: Need) -> bool:
    """Whether ``hand`` makes up ``need`` (doubles count two)."""
    spare = 0
    for have, wanted in zip(hand.unit_counts, need.units):
        if have < wanted:
            return False
        spare += have - wanted
    return spare >= need.any


def best_option(options: Iterable[Option], hand: Ingredients | None = None) -> Option | None:
    """The option needing the fewest hand units that ``hand`` can cover
    (any option when the hand is unknown); if none can be covered, the one
    needing the fewest. Ties go to the canonical ingredient order."""
    options = list(options)
    coverable = [o for o in options if hand is None or hand.cover(o.needed) is not None]
    pool = coverable or options
    return min(pool, key=lambda o: o.needed.total, default=None)


@dataclass(frozen=True)
class PendingOrder:
    """An order revealed whose owner must decide (add from hand, or choose)."""

    index: int
    order: Order
    table: Ingredients
    options: tuple[Option, ...]

    def option(self, choice: Ingredient | None) -> Option:
        if choice is None:
            return best_option(self.options)  # type: ignore[return-value]
        for option in self.options:
            if option.choice is choice:
                return option
        raise IllegalChoice(self._why_not(choice))

    def best(self, hand: Ingredients | None = None) -> Option:
        return best_option(self.options, hand)  # type: ignore[return-value]

    def _why_not(self, choice: Ingredient) -> str:
        order, pizza = self.order, self.order.pizza
        if isinstance(pizza, Monotoni):
            return (f"{order.describe()}: the joker may not be {choice.value}, "
                    f"{order.color.value}'s own ingredient")
        if isinstance(pizza, Minimale):
            allowed = " or ".join(o.choice.value for o in self.options if o.choice)
            return (f"{order.describe()}: {choice.value} is not among the fewest face-up "
                    f"ingredients; choose {allowed}")
        return f"{order.describe()} has no ingredient to choose"


@dataclass(frozen=True)
class OrderOutcome:
    """What became of one revealed order."""

    index: int
    order: Order
    fulfilled: bool
    choice: Ingredient | None
    needed: Need
    options: tuple[Option, ...]
    used_from_table: Ingredients
    added_from_hand: Ingredients | None
    reason: str | None = None


@dataclass(frozen=True)
class Reveal:
    """What one revealed card did."""

    index: int
    card: Card
    table: Ingredients
    pending: PendingOrder | None = None
    outcome: OrderOutcome | None = None


@dataclass
class Evaluation:
    """The evaluation phase of one round, step by step.

    ``table``: face-up leftovers from the last round. ``delivered``: orders
    delivered in earlier rounds (they cannot turn up again).
    """

    deck: Deck
    colors: Collection[Color]
    table: Ingredients = field(default_factory=Ingredients)
    delivered_before: Collection[Order] = ()
    revealed: list[Card] = field(default_factory=list, init=False)
    outcomes: list[OrderOutcome] = field(default_factory=list, init=False)
    used: Ingredients = field(default_factory=Ingredients, init=False)
    pending: PendingOrder | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        self.colors = tuple(self.colors)
        check_ingredients(self.table, self.deck)
        self._seen = self.table

    # the two steps -------------------------------------------------------------

    def reveal(self, card: Card) -> Reveal:
        """Turn over the next card of the pile."""
        if self.pending is not None:
            raise OrderPending(f"{self.pending.order.describe()} still waits for its owner's decision")
        self.next_card.check(card)
        index = len(self.revealed)
        if isinstance(card, IngredientCard):
            self._seen = self._seen.add(card)
            self.revealed.append(card)
            self.table = self.table.add(card)
            return Reveal(index, card, self.table)
        assert isinstance(card, Order)
        self.revealed.append(card)
        pending = PendingOrder(index, card, self.table, card.pizza.options(self.table))
        if not pending.options:
            return Reveal(index, card, self.table, outcome=self._settle(pending, None, False, None))
        if len(pending.options) == 1 and not pending.options[0].needed:
            return Reveal(index, card, self.table, outcome=self._settle(pending, pending.options[0], True, None))
        self.pending = pending
        return Reveal(index, card, self.table, pending=pending)

    def decide(self, decision: Decision) -> OrderOutcome:
        """Apply the owner's decision to the pending order."""
        pending = self.pending
        if pending is None:
            raise NoPendingOrder("no order is waiting for a decision")
        option = pending.option(decision.choice)
        hand = decision.hand if decision.add_from_hand and option.needed else None
        if hand is not None:
            self._check_hand(pending, option, hand)
        fulfilled = not option.needed or decision.add_from_hand
        self.pending = None
        return self._settle(pending, option, fulfilled, hand)

    # whole-pile use ---------------------------------------------------------------

    def run(self, cards: Iterable[Card], decide: Callable[[PendingOrder], Decision]) -> list[OrderOutcome]:
        """Reveal ``cards`` in order, asking ``decide`` at each pending order."""
        for card in cards:
            if self.reveal(card).pending is not None:
                self.decide(decide(self.pending))  # type: ignore[arg-type]
        return self.outcomes

    @property
    def next_card(self) -> NextCard:
        """What the next card revealed can be, and why another cannot."""
        return NextCard(self.deck, self.colors, self._seen, frozenset(self._orders_seen()),  # type: ignore[arg-type]
                        frozenset(self.delivered_before))

    @property
    def delivered(self) -> dict[Color, list[Order]]:
        return self._by_color(True)

    @property
    def returned(self) -> dict[Color, list[Order]]:
        """Failed orders per colour, in reveal order: they go under the waiter pile."""
        return self._by_color(False)

    # internals -----------------------------------------------------------------------

    def _by_color(self, fulfilled: bool) -> dict[Color, list[Order]]:
        result: dict[Color, list[Order]] = {c: [] for c in self.colors}
        for outcome in self.outcomes:
            if outcome.fulfilled == fulfilled:
                result[outcome.order.color].append(outcome.order)
        return result

    def _orders_seen(self) -> list[Order]:
        return [c for c in self.revealed if isinstance(c, Order)]

    def _check_hand(self, pending: PendingOrder, option: Option, hand: Ingredients) -> None:
        who = pending.order.describe()
        if not covers(hand, option.needed):
            raise IllegalHandCards(f"{who} misses {option.needed.describe()}; {hand.notation} does not cover it")
        for card in set(hand.cards()):
            if covers(hand - Ingredients.from_cards([card]), option.needed):
                raise IllegalHandCards(f"{who} misses {option.needed.describe()}; {card.notation} is not needed")
        check_ingredients(hand, self.deck, self._seen)

    def _settle(self, pending: PendingOrder, option: Option | None, fulfilled: bool,
                hand: Ingredients | None) -> OrderOutcome:
        used = Ingredients()
        if fulfilled and option is not None:
            used = self.table.take_for(option.requirement)
            self.table = self.table - used
            self.used = self.used + used + (hand or Ingredients())
            if hand is not None:
                self._seen = self._seen + hand
        reason = None
        if not fulfilled:
            reason = "no eligible ingredient" if option is None else "not added from hand"
        outcome = OrderOutcome(
            index=pending.index,
            order=pending.order,
            fulfilled=fulfilled,
            choice=option.choice if option else None,
            needed=option.needed if option else Need(),
            options=pending.options,
            used_from_table=used,
            added_from_hand=hand,
            reason=reason,
        )
        self.outcomes.append(outcome)
        return outcome
