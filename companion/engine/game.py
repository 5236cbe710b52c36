"""A whole game: set-up, phase-1 turns, evaluation with hands tracked, three
rounds with leftovers, and the final ranking.

>>> game = Game([Color.GREEN, Color.RED], seed=7)
>>> len(game.player(Color.GREEN).waiter), game.phase
(7, <Phase.PLAYING: 'playing'>)
"""
from __future__ import annotations

import enum
import random
from dataclasses import dataclass, field
from typing import Mapping, Sequence

from .cards import MAMMA_MIA, Card, Order
from .edition import CLASSIC_RULES, Deck, Ruleset
from .errors import IllegalHandCards, IllegalSetup, IllegalTurn, PileExhausted, WrongPhase
from .evaluation import Decision, Evaluation, OrderOutcome, Reveal
from .ingredients import Ingredients
from .notation import parse_pile
from .vocabulary import Color, IngredientCard


class Phase(enum.Enum):
    PLAYING = "playing"
    EVALUATING = "evaluating"
    OVER = "over"


class Source(enum.Enum):
    """Where a player refills their hand from: one source per turn."""

    SUPPLY = "supply"
    WAITER = "waiter"


@dataclass(frozen=True)
class Turn:
    """One phase-1 turn: ingredient cards of one kind, at most one order, and
    the pile to refill from.

    >>> Turn.parse("3S g:4S+P", Source.WAITER).ingredients.notation
    '3S'
    """

    ingredients: Ingredients = Ingredients()
    order: Order | None = None
    draw_from: Source = Source.SUPPLY

    @classmethod
    def parse(cls, text: str, draw_from: Source = Source.SUPPLY) -> Turn:
        cards = parse_pile(text)
        orders = [c for c in cards if isinstance(c, Order)]
        if len(orders) > 1:
            raise IllegalTurn("at most one order card per turn")
        ingredients = Ingredients.from_cards(c for c in cards if isinstance(c, IngredientCard))
        return cls(ingredients, orders[0] if orders else None, draw_from)


@dataclass
class Player:
    """One seat: hand (ingredient cards and order cards), waiter pile (top
    first) and delivered orders with the round of delivery."""

    color: Color
    hand: Ingredients = field(default_factory=Ingredients)
    orders: list[Order] = field(default_factory=list)
    waiter: list[Order] = field(default_factory=list)
    delivered: list[tuple[int, Order]] = field(default_factory=list)

    @property
    def hand_size(self) -> int:
        return self.hand.card_count + len(self.orders)


@dataclass(frozen=True)
class Standing:
    place: int
    color: Color
    delivered: int
    hand_cards: int


@dataclass(frozen=True)
class RoundSummary:
    round: int
    pile: tuple[Card, ...]
    delivered: dict[Color, list[Order]]
    returned: dict[Color, list[Order]]
    leftovers: Ingredients


class Game:
    """The state of one game, changed only through checked actions."""

    max_turns_per_round = 2000  # far beyond any real round; stops a stalled simulation

    def __init__(self, colors: Sequence[Color], deck: Deck | None = None, rules: Ruleset = CLASSIC_RULES,
                 seed: int | None = None, start: int = 0) -> None:
        if len(set(colors)) != len(colors):
            raise IllegalSetup("each player needs a colour of their own")
        self.deck = deck or Deck.for_players(len(colors))
        if self.deck.player_count != len(colors):
            raise IllegalSetup(f"the deck is set up for {self.deck.player_count} players, not {len(colors)}")
        self.colors = tuple(colors)
        self.rules = rules
        self.rng = random.Random(seed)
        self.players = {c: Player(c) for c in self.colors}
        self.round = 1
        self.phase = Phase.PLAYING
        self.current = start % len(colors)
        self.supply: list[Card] = []  # drawn from the end
        self.oven: list[Card] = []
        self.table = Ingredients()
        self.used = Ingredients()  # the used pile once the game is over; between rounds it is the supply
        self.holder: Color | None = None
        self.evaluation: Evaluation | None = None
        self.summaries: list[RoundSummary] = []
        self.turns_this_round = 0
        self._deal()

    # set-up -------------------------------------------------------------------------

    def _deal(self) -> None:
        ingredients: list[Card] = list(self.deck.ingredient_stock().cards())
        if self.rules.mamma_mia_in_deal:
            ingredients.append(MAMMA_MIA)
        self.rng.shuffle(ingredients)
        self.supply = ingredients
        for color in self.colors:
            self._draw_supply(self.players[color], self.deck.edition.deal)
        if not self.rules.mamma_mia_in_deal:
            self.supply.append(MAMMA_MIA)
            self.rng.shuffle(self.supply)
        for color in self.colors:
            player = self.players[color]
            player.waiter = list(self.deck.orders(color))
            self.rng.shuffle(player.waiter)
            player.orders.append(player.waiter.pop(0))

    # reading ------------------------------------------------------------------------

    def player(self, color: Color) -> Player:
        return self.players[color]

    @property
    def current_player(self) -> Player:
        return self.players[self.colors[self.current]]

    def delivered_orders(self) -> list[Order]:
        return [o for p in self.players.values() for _, o in p.delivered]

    # phase 1 ------------------------------------------------------------------------

    def check_turn(self, turn: Turn) -> None:
        """The phase-1 legality layers; raises :class:`IllegalTurn`."""
        self._require(Phase.PLAYING)
        player = self.current_player
        kinds = {c.ingredient for c in turn.ingredients.cards()}
        if len(kinds) > 1:
            names = " and ".join(sorted(k.value for k in kinds))
            raise IllegalTurn(f"one kind of ingredient per turn, not {names}")
        if not player.hand.contains(turn.ingredients):
            raise IllegalTurn(f"{player.color.value} does not hold {turn.ingredients.notation} "
                              f"(holds {player.hand.notation})")
        if turn.order is not None and turn.order not in player.orders:
            raise IllegalTurn(f"{player.color.value} does not hold {turn.order.describe()}")
        if self.rules.must_play_ingredient:
            if player.hand and not turn.ingredients:
                raise IllegalTurn(f"{player.color.value} holds ingredients and must play at least one")
            if not player.hand and turn.order is not None:
                raise IllegalTurn(f"{player.color.value} holds no ingredient and must pass without playing an order")

    def play(self, turn: Turn) -> None:
        """Play ``turn`` for the current player; the round ends at once when
        the last supply card is drawn."""
        self.check_turn(turn)
        if self.turns_this_round >= self.max_turns_per_round:
            raise IllegalTurn(f"round {self.round} has lasted {self.turns_this_round} turns: nobody draws from the supply")
        player = self.current_player
        player.hand = player.hand - turn.ingredients
        self.oven.extend(turn.ingredients.cards())
        if turn.order is not None:
            player.orders.remove(turn.order)
            self.oven.append(turn.order)
        self._refill(player, turn.draw_from)
        self.turns_this_round += 1
        if not self.supply:
            self._start_evaluation()
        else:
            self.current = (self.current + 1) % len(self.colors)

    def _refill(self, player: Player, source: Source) -> None:
        missing = self.deck.edition.hand_size - player.hand_size
        if missing <= 0:
            return
        if source is Source.WAITER:
            taken, player.waiter = player.waiter[:missing], player.waiter[missing:]
            player.orders.extend(taken)
        else:
            self._draw_supply(player, missing)

    def _draw_supply(self, player: Player, count: int) -> None:
        while count > 0 and self.supply:
            card = self.supply.pop()
            if card is MAMMA_MIA:
                self.holder = player.color  # laid face up; a replacement is drawn
                continue
            assert isinstance(card, IngredientCard)
            player.hand = player.hand.add(card)
            count -= 1

    # phase 2 ------------------------------------------------------------------------

    def _start_evaluation(self) -> None:
        self.phase = Phase.EVALUATING
        self.evaluation = Evaluation(self.deck, self.colors, self.table, self.delivered_orders())

    @property
    def unrevealed(self) -> list[Card]:
        assert self.evaluation is not None
        return self.oven[len(self.evaluation.revealed):]

    def reveal_next(self) -> Reveal:
        evaluation = self._require(Phase.EVALUATING)
        if not self.unrevealed:
            raise PileExhausted("every card of the oven pile is revealed: finish the round")
        result = evaluation.reveal(self.unrevealed[0])
        self.table = evaluation.table
        return result

    def decide(self, decision: Decision) -> OrderOutcome:
        """The owner's decision; added hand cards leave the owner's hand.

        Accepting without naming cards adds the cheapest cover from the hand.
        """
        evaluation = self._require(Phase.EVALUATING)
        pending = evaluation.pending
        if pending is not None and decision.add_from_hand:
            owner = self.players[pending.order.color]
            needed = pending.option(decision.choice).needed
            hand = decision.hand if decision.hand is not None else owner.hand.cover(needed)
            if needed and (hand is None or not owner.hand.contains(hand)):
                raise IllegalHandCards(f"{owner.color.value} cannot add {needed.describe()} from hand "
                                       f"(holds {owner.hand.notation})")
            decision = Decision.accept(decision.choice, hand if needed else None)
        outcome = evaluation.decide(decision)
        if outcome.added_from_hand:
            owner = self.players[outcome.order.color]
            owner.hand = owner.hand - outcome.added_from_hand
        self.table = evaluation.table
        return outcome

    def finish_round(self) -> RoundSummary:
        evaluation = self._require(Phase.EVALUATING)
        if self.unrevealed or evaluation.pending:
            raise WrongPhase("the oven pile is not fully evaluated yet")
        summary = RoundSummary(self.round, tuple(evaluation.revealed), evaluation.delivered, evaluation.returned, evaluation.table)
        for color, orders in summary.delivered.items():
            self.players[color].delivered += [(self.round, o) for o in orders]
        for color, orders in summary.returned.items():
            self.players[color].waiter += orders
        self.summaries.append(summary)
        self.table, self.oven, self.evaluation = evaluation.table, [], None
        if self.round == self.deck.edition.rounds:
            self.phase, self.used = Phase.OVER, evaluation.used
            return summary
        self.supply = [*evaluation.used.cards(), MAMMA_MIA]
        self.rng.shuffle(self.supply)
        self.round += 1
        self.phase = Phase.PLAYING
        self.turns_this_round = 0
        if self.holder is not None:
            self.current = self.colors.index(self.holder)
        return summary

    # the end ------------------------------------------------------------------------

    def ranking(self) -> list[Standing]:
        """Most delivered orders first; ties go to more ingredient cards in hand."""
        return rank({c: (len(self.players[c].delivered), self.players[c].hand.card_count) for c in self.colors})

    # invariants ---------------------------------------------------------------------

    def ingredient_census(self) -> Ingredients:
        """Every ingredient card in play, wherever it is now."""
        total = self.table + self.used
        for player in self.players.values():
            total = total + player.hand
        cards = list(self.supply) + (self.unrevealed if self.evaluation else self.oven)
        total = total + Ingredients.from_cards(c for c in cards if isinstance(c, IngredientCard))
        if self.evaluation is not None:
            total = total + self.evaluation.used
        return total

    def order_census(self, color: Color) -> list[Order]:
        """All of a colour's order cards, wherever they are now."""
        p = self.players[color]
        in_oven = self.unrevealed if self.evaluation else self.oven
        settled = []
        if self.evaluation is not None:
            settled = [o.order for o in self.evaluation.outcomes if o.order.color is color]
            if self.evaluation.pending and self.evaluation.pending.order.color is color:
                settled.append(self.evaluation.pending.order)
        oven = [c for c in in_oven if isinstance(c, Order) and c.color is color]
        return p.orders + p.waiter + [o for _, o in p.delivered] + oven + settled

    def _require(self, phase: Phase) -> Evaluation:
        if self.phase is not phase:
            raise WrongPhase(f"not possible while the game is {self.phase.value}")
        return self.evaluation  # type: ignore[return-value]


def rank(scores: Mapping[Color, tuple[int, int]]) -> list[Standing]:
    """Standings from (delivered, hand cards) per colour; equal scores share a place.

    >>> [(s.place, s.color.value) for s in rank({Color.RED: (2, 1), Color.GREEN: (2, 4)})]
    [(1, 'green'), (2, 'red')]
    """
    ordered = sorted(scores, key=lambda c: scores[c], reverse=True)
    return [Standing(1 + sum(1 for o in scores if scores[o] > scores[c]), c, *scores[c]) for c in ordered]
