"""A whole game as the table app follows it: rounds of bids, combinations
in helper order and helpers moving on, until someone reaches 30.

The app does not see the cards in hands, only what is laid; it follows hand
sizes (5 dealt, +1 a round, -3 or -4 a combination, the limit of 8) so that
"at least one card left" is checked.

>>> from companion.maus.engine import Helper, HelperSeating, parse_cards
>>> seating = HelperSeating.from_held([Helper.MATHIEU, Helper.LILLY, Helper.CLAUDE], oldest=0)
>>> game = MausGame(GameStarted(("Ann", "Bob", "Cy"), seating))
>>> [p.seat for p in game.apply(BidsRevealed((4, 2, 4)))]
[2, 0, 1]
>>> game.next_to_lay, game.lay(2, parse_cards("b4 b5 r6"), game.judge(2, parse_cards("b4 b5 r6")).best.use).points
(2, 6)
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Sequence

from .bidding import Pick, picking_order
from .cards import Card
from .combination import HelperUse, Judgement, Scoring, judge, lay
from .deck import Deck
from .errors import IllegalSetup, OutOfTurn, WrongPhase
from .events import BidsRevealed, CombinationLaid, CombinationSkipped, Event, GameStarted
from .helpers import Helper
from .rules import HandLimitCheck, TieBreakHelpers


class Phase(enum.Enum):
    BIDDING = "bidding"
    LAYING = "laying"   # combinations, in helper order
    OVER = "over"


@dataclass(frozen=True)
class RoundRecord:
    """One finished round."""

    round: int
    held: tuple[Helper, ...]                       # the helpers during the round, per seat
    picks: tuple[Pick, ...]                        # picking order
    laid: tuple[tuple[int, Scoring | None], ...]   # (seat, combination or None), in helper order
    limit_discards: tuple[int, ...]                # cards each seat discarded to the hand limit
    scores: tuple[int, ...]                        # after the round


@dataclass(frozen=True)
class Standing:
    place: int
    seat: int
    name: str
    points: int
    helper: Helper   # the helper that breaks a tie


class MausGame:
    """The state of one game; change it only through checked actions (or
    :meth:`apply`). A refused action raises a :class:`MausError` and leaves
    the game as it was."""

    def __init__(self, started: GameStarted, deck: Deck | None = None) -> None:
        if len(started.players) != len(started.seating.held):
            raise IllegalSetup(f"{len(started.players)} players but {len(started.seating.held)} helpers held")
        if len(set(started.players)) != len(started.players):
            raise IllegalSetup("each player needs a name of their own")
        self.deck = deck or Deck.load()
        self.rules = started.rules
        self.players = started.players
        self.numbers = started.numbers or self.deck.helper_numbers
        self.seating = started.seating
        self.round = 1
        self.phase = Phase.BIDDING
        self.hands = [self.deck.deal] * len(self.players)
        self.scored: list[list[Card]] = [[] for _ in self.players]
        self.history: list[RoundRecord] = []
        self.picks: tuple[Pick, ...] = ()
        self.laid: list[tuple[int, Scoring | None]] = []
        self.limit_discards = [0] * len(self.players)
        self.final_helpers: tuple[Helper, ...] | None = None

    @classmethod
    def replay(cls, events: Sequence[Event], deck: Deck | None = None) -> MausGame:
        if not events or not isinstance(events[0], GameStarted):
            raise WrongPhase("a game's events start with its set-up")
        game = cls(events[0], deck)
        for event in events[1:]:
            game.apply(event)
        return game

    def apply(self, event: Event) -> object:
        if isinstance(event, BidsRevealed):
            return self.bid(event.coins)
        if isinstance(event, CombinationLaid):
            return self.lay(event.seat, event.cards, event.change)
        if isinstance(event, CombinationSkipped):
            return self.skip(event.seat)
        raise WrongPhase("the game has already started")

    # reading ------------------------------------------------------------------------

    @property
    def scores(self) -> list[int]:
        return [sum(card.value for card in cards) for cards in self.scored]

    @property
    def helper_order(self) -> list[int]:
        """Seats by their helper's order number, highest first: the order of combinations."""
        return sorted(range(len(self.players)), key=lambda s: self.numbers[self.seating.held[s]], reverse=True)

    @property
    def next_to_lay(self) -> int | None:
        if self.phase is not Phase.LAYING:
            return None
        done = {seat for seat, _ in self.laid}
        return next(s for s in self.helper_order if s not in done)

    def judge(self, seat: int, cards: Sequence[Card]) -> Judgement:
        """The verdict on cards this seat might lay now, with its helper and hand."""
        return judge(cards, self.seating.held[seat], self.hands[seat] - len(cards), self.rules, self.deck)

    def ranking(self) -> list[Standing]:
        """Most points first; a tie goes to the higher helper (see :class:`TieBreakHelpers`)."""
        held = self.final_helpers or self.seating.held
        scores = self.scores
        order = sorted(range(len(self.players)), key=lambda s: (scores[s], self.numbers[held[s]]), reverse=True)
        return [Standing(place, s, self.players[s], scores[s], held[s]) for place, s in enumerate(order, 1)]

    # actions ------------------------------------------------------------------------

    def bid(self, coins: Sequence[int]) -> tuple[Pick, ...]:
        """The bids are turned up: the picking order; each hand grows by one."""
        self._expect(Phase.BIDDING, "bids")
        picks = picking_order(tuple(coins), self.seating.held, self.numbers)
        self.picks = picks
        self.hands = [n + 1 for n in self.hands]  # a bid card out, two cards in
        if self.rules.hand_limit is HandLimitCheck.WHEN_HAND_GROWS:
            self._apply_hand_limit()
        self.phase = Phase.LAYING
        return picks

    def lay(self, seat: int, cards: Sequence[Card], change: HelperUse | None = None) -> Scoring:
        """``seat`` lays ``cards``; its helper's ``change`` as chosen (``None``: no card changed)."""
        self._expect_turn(seat)
        scoring = lay(cards, self.seating.held[seat], change, self.hands[seat] - len(cards), self.rules, self.deck)
        self.hands[seat] -= len(scoring.cards)
        self.scored[seat].extend(scoring.kept)
        self._done(seat, scoring)
        return scoring

    def skip(self, seat: int) -> None:
        """``seat`` lays no combination this round."""
        self._expect_turn(seat)
        self._done(seat, None)

    # internals ------------------------------------------------------------------------

    def _expect(self, phase: Phase, what: str) -> None:
        if self.phase is not phase:
            raise WrongPhase(f"{what} belong to the {phase.value} phase; the game is {self.phase.value}")

    def _expect_turn(self, seat: int) -> None:
        self._expect(Phase.LAYING, "combinations")
        if not 0 <= seat < len(self.players):
            raise OutOfTurn(f"there is no seat {seat}")
        turn = self.next_to_lay
        if seat != turn:
            helper = self.seating.held[turn]  # type: ignore[index]
            raise OutOfTurn(f"{self.players[turn]} ({helper.title}) lays before {self.players[seat]}")  # type: ignore[index]

    def _apply_hand_limit(self) -> None:
        for seat, n in enumerate(self.hands):
            if n > self.deck.hand_limit:
                self.limit_discards[seat] += n - self.deck.hand_limit
                self.hands[seat] = self.deck.hand_limit

    def _done(self, seat: int, scoring: Scoring | None) -> None:
        self.laid.append((seat, scoring))
        if len(self.laid) == len(self.players):
            self._end_round()

    def _end_round(self) -> None:
        if self.rules.hand_limit is HandLimitCheck.AT_ROUND_END:
            self._apply_hand_limit()
        self.history.append(RoundRecord(self.round, self.seating.held, self.picks, tuple(self.laid),
                                        tuple(self.limit_discards), tuple(self.scores)))
        self.picks, self.laid, self.limit_discards = (), [], [0] * len(self.players)
        passed = self.seating.passed_on()
        if max(self.scores) >= self.deck.target:
            self.phase = Phase.OVER
            last = self.rules.tie_break is TieBreakHelpers.LAST_ROUND_HELPERS
            self.final_helpers = self.seating.held if last else passed.held
            return
        self.seating = passed
        self.round += 1
        self.phase = Phase.BIDDING
