"""A three-round game as the table app sees it, rebuilt from a log of events.

The app does not follow phase 1 (the players do that with real cards); it
follows each round end: the oven pile revealed card by card, the owners'
decisions, leftovers carried on, and after round 3 the hand-card counts that
break ties. Every change is an event (:mod:`.tablelog`); the state is the
replay of the log.

>>> from companion.engine.tablelog import CardRevealed, GameCreated, OrderDecided, Seat, Undo
>>> game = TableGame(GameCreated((Seat("Ann", Color.GREEN), Seat("Bob", Color.RED))))
>>> for event in [*map(CardRevealed, parse_pile("P 2S 3A 4M g:4A+P")), OrderDecided(True)]:
...     game.apply(event)
>>> game.table.notation, [o.notation for o in game.delivered_in(1)[Color.GREEN]]
('2S 4M', ['g:4A+P'])
>>> game.apply(Undo()); game.pending is not None
True
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Sequence

from .cards import Card, Order
from .edition import Deck
from .errors import (
    ColorNotAtTable, IllegalHandCards, IllegalSetup, NoPendingOrder, OrderPending, RulesError, WrongPhase,
)
from .evaluation import Decision, Evaluation, OrderOutcome, PendingOrder
from .game import Standing, rank
from .ingredients import Ingredients
from .legality import NextCard
from .pizzas import Option
from .tablelog import (
    CardRevealed, Event, GameCreated, HandsCounted, OrderDecided, RoundEnded, Seat, Undo, in_effect,
)
from .vocabulary import Color


class NothingToUndo(RulesError):
    """An undo with no action left to take back."""


# the game ------------------------------------------------------------------------------


class TablePhase(enum.Enum):
    EVALUATING = "evaluating"  # a round's oven pile is being revealed
    COUNTING = "counting"      # round 3 is over: hand-card counts break ties
    OVER = "over"


@dataclass(frozen=True)
class RoundRecord:
    """One finished round, for the history and the scores."""

    round: int
    leftovers_in: Ingredients
    pile: tuple[Card, ...]
    outcomes: tuple[OrderOutcome, ...]
    leftovers_out: Ingredients

    def orders(self, color: Color, fulfilled: bool) -> list[Order]:
        return [o.order for o in self.outcomes if o.order.color is color and o.fulfilled is fulfilled]


class TableGame:
    """The state of one table game; change it only with :meth:`apply`.

    Each action is checked before anything changes: a refused event raises a
    :class:`RulesError` and leaves the game as it was.
    """

    def __init__(self, created: GameCreated) -> None:
        self._start(created)

    @classmethod
    def replay(cls, events: Sequence[Event]) -> TableGame:
        """The game a whole log describes (undo events included)."""
        if not events or not isinstance(events[0], GameCreated):
            raise WrongPhase("a game's log starts with its creation")
        kept = in_effect(events)
        game = cls(events[kept[0]])  # type: ignore[arg-type]
        for index in kept[1:]:
            game.apply(events[index])
        return game

    def _start(self, created: GameCreated) -> None:
        self.deck = Deck.for_players(len(created.seats), created.doubled)  # the player count first
        _check_seats(created.seats)
        self.created = created
        self.seats = created.seats
        self.colors = tuple(s.color for s in created.seats)
        self.round = 1
        self.phase = TablePhase.EVALUATING
        self.history: list[RoundRecord] = []
        self.evaluation: Evaluation | None = Evaluation(self.deck, self.colors)
        self.leftovers_in = Ingredients()
        self.final_table = Ingredients()
        self.hand_counts: dict[Color, int] | None = None
        self.events: list[Event] = [created]  # the events in effect

    # reading ----------------------------------------------------------------------------

    @property
    def rounds(self) -> int:
        return self.deck.edition.rounds

    @property
    def table(self) -> Ingredients:
        """The face-up ingredients now."""
        return self.evaluation.table if self.evaluation else self.final_table

    @property
    def pending(self) -> PendingOrder | None:
        return self.evaluation.pending if self.evaluation else None

    @property
    def can_undo(self) -> bool:
        return len(self.events) > 1

    def seat(self, color: Color) -> Seat:
        return next(s for s in self.seats if s.color is color)

    def delivered_in(self, round_: int) -> dict[Color, list[Order]]:
        """Orders delivered per colour in a round (so far, for the current one)."""
        if round_ <= len(self.history):
            record = self.history[round_ - 1]
            return {c: record.orders(c, True) for c in self.colors}
        if round_ == self.round and self.evaluation is not None:
            return self.evaluation.delivered
        return {c: [] for c in self.colors}

    def delivered(self, color: Color) -> list[Order]:
        return [o for r in range(1, self.rounds + 1) for o in self.delivered_in(r)[color]]

    def remaining(self, color: Color) -> list[Order]:
        """The colour's orders not delivered: hand and waiter pile together."""
        done = set(self.delivered(color))
        return [o for o in self.deck.orders(color) if o not in done]

    def revealable(self, color: Color) -> list[Order]:
        """Orders that may still turn up in this round's pile."""
        upcoming = self.next_card
        return [o for o in self.remaining(color) if upcoming is None or upcoming.can_be(o)]

    @property
    def next_card(self) -> NextCard | None:
        """What the next card of this round's pile can be (``None`` once the rounds are over)."""
        return self.evaluation.next_card if self.evaluation else None

    def ranking(self) -> list[Standing] | None:
        """Once hands are counted: most delivered first, ties to more hand cards."""
        if self.hand_counts is None:
            return None
        return rank({c: (len(self.delivered(c)), self.hand_counts[c]) for c in self.colors})

    # changing ---------------------------------------------------------------------------

    def apply(self, event: Event) -> None:
        """Check and apply one event; :class:`Undo` takes back the last one."""
        if isinstance(event, Undo):
            self._undo()
            return
        if isinstance(event, GameCreated):
            raise WrongPhase("this game is already set up")
        step = {CardRevealed: self._reveal, OrderDecided: self._decide,
                RoundEnded: self._end_round, HandsCounted: self._count_hands}[type(event)]
        step(event)  # type: ignore[operator]
        self.events.append(event)

    def _undo(self) -> None:
        if not self.can_undo:
            raise NothingToUndo("nothing to undo: the game has only just been set up")
        kept = self.events[1:-1]
        self._start(self.created)
        for event in kept:
            self.apply(event)

    def _reveal(self, event: CardRevealed) -> None:
        self._require_round().reveal(event.card)

    def _decide(self, event: OrderDecided) -> None:
        evaluation = self._require_round()
        if evaluation.pending is None:
            raise NoPendingOrder("no order is waiting for a decision")
        evaluation.decide(Decision.accept(event.choice) if event.accept else Decision.decline(event.choice))

    def _end_round(self, event: RoundEnded) -> None:
        evaluation = self._require_round()
        if evaluation.pending is not None:
            raise OrderPending(f"{evaluation.pending.order.describe()} still waits for its owner's "
                               "decision: decide before ending the round")
        self.history.append(RoundRecord(self.round, self.leftovers_in, tuple(evaluation.revealed),
                                        tuple(evaluation.outcomes), evaluation.table))
        self.leftovers_in = evaluation.table
        if self.round == self.rounds:
            self.phase, self.evaluation, self.final_table = TablePhase.COUNTING, None, evaluation.table
            return
        self.round += 1
        delivered = [o for c in self.colors for o in self.delivered(c)]
        self.evaluation = Evaluation(self.deck, self.colors, evaluation.table, delivered)

    def _count_hands(self, event: HandsCounted) -> None:
        if self.phase is not TablePhase.COUNTING:
            when = "after round 3" if self.phase is TablePhase.EVALUATING else "once"
            raise WrongPhase(f"hand cards are counted {when}")
        counts = dict(event.counts)
        for color, n in counts.items():
            if color not in self.colors:
                raise ColorNotAtTable(f"{color.value} is not at this table ({_names(self.colors)})")
            if n > self.deck.edition.hand_size:
                raise IllegalHandCards(f"{self.seat(color).name} ({color.value}) cannot hold {n} cards: "
                                       f"a hand has at most {self.deck.edition.hand_size}")
        missing = [c for c in self.colors if c not in counts]
        if missing:
            raise IllegalHandCards(f"hand count missing for {_names(missing)}")
        self.hand_counts = {c: counts[c] for c in self.colors}
        self.phase = TablePhase.OVER

    def _require_round(self) -> Evaluation:
        if self.evaluation is None:
            raise WrongPhase(f"all {self.rounds} rounds are over"
                             + (": enter the hand-card counts" if self.phase is TablePhase.COUNTING else ""))
        return self.evaluation


def cheapest_first(options: Sequence[Option]) -> list[Option]:
    """A pending order's options, fewest hand cards first; ties in the
    canonical ingredient order (what the owner is offered first)."""
    return sorted(options, key=lambda o: (o.needed.total, o.choice.index if o.choice else -1))


def _check_seats(seats: Sequence[Seat]) -> None:
    colors = [s.color for s in seats]
    if len(set(colors)) != len(colors):
        raise IllegalSetup("each player needs an order colour of their own")
    names = [s.name.casefold() for s in seats]
    if len(set(names)) != len(names):
        raise IllegalSetup("each player needs a name of their own")


def _names(colors: Sequence[Color]) -> str:
    return ", ".join(c.value for c in colors)
