"""Simple players that make legal phase-1 turns and sensible phase-2
decisions, so whole games can be simulated.

>>> game = simulate([Color.GREEN, Color.RED], seed=3)
>>> game.phase, len(game.summaries)
(<Phase.OVER: 'over'>, 3)
"""
from __future__ import annotations

import random
from typing import Callable, Protocol, Sequence

from .cards import Card
from .edition import CLASSIC_RULES, Deck, Ruleset
from .evaluation import Decision, PendingOrder
from .game import Game, Phase, Player, Source, Turn
from .ingredients import Ingredients
from .pizzas import Recipe
from .vocabulary import Color


class Bot(Protocol):
    def turn(self, game: Game, player: Player) -> Turn: ...

    def decide(self, game: Game, pending: PendingOrder) -> Decision: ...


class RandomBot:
    """Plays a random number of one random kind it holds, sometimes an order,
    and refills from a random source; adds hand cards whenever it can."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def turn(self, game: Game, player: Player) -> Turn:
        ingredients = Ingredients()
        held = player.hand.cards()
        if held and (game.rules.must_play_ingredient or self.rng.random() < 0.9):
            kind = self.rng.choice(held).ingredient
            same = [c for c in held if c.ingredient is kind]
            ingredients = Ingredients.from_cards(self.rng.sample(same, self.rng.randint(1, len(same))))
        order = None
        may_order = ingredients or not game.rules.must_play_ingredient
        if player.orders and may_order and self.rng.random() < 0.5:
            order = self.rng.choice(player.orders)
        source = Source.WAITER if player.waiter and self.rng.random() < 0.3 else Source.SUPPLY
        return Turn(ingredients, order, source)

    def decide(self, game: Game, pending: PendingOrder) -> Decision:
        return _add_if_possible(game, pending)


class ThriftyBot:
    """Feeds the pile what its orders in hand need, plays an order once it has
    contributed, and refills from its waiter pile when it holds no order."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def turn(self, game: Game, player: Player) -> Turn:
        held = player.hand.cards()
        ingredients = Ingredients()
        if held:
            wanted = {i for o in player.orders if isinstance(o.pizza, Recipe) for i, _ in o.pizza.need.items()}
            kinds = [c.ingredient for c in held if c.ingredient in wanted] or [c.ingredient for c in held]
            kind = max(set(kinds), key=lambda k: (kinds.count(k), -k.index))
            ingredients = Ingredients.from_cards(c for c in held if c.ingredient is kind)
        order = None
        if player.orders and (ingredients or not game.rules.must_play_ingredient):
            order = player.orders[0]
        has_order_left = len(player.orders) > (1 if order else 0)
        source = Source.WAITER if player.waiter and not has_order_left else Source.SUPPLY
        return Turn(ingredients, order, source)

    def decide(self, game: Game, pending: PendingOrder) -> Decision:
        return _add_if_possible(game, pending)


def _add_if_possible(game: Game, pending: PendingOrder) -> Decision:
    hand = game.player(pending.order.color).hand
    option = pending.best(hand)
    cover = hand.cover(option.needed)
    if cover is None:
        return Decision.decline(option.choice)
    return Decision.accept(option.choice, cover if option.needed else None)


BotFactory = Callable[[random.Random], Bot]


def table_of_bots(colors: Sequence[Color], rng: random.Random, bot: BotFactory | None = None) -> dict[Color, Bot]:
    """One bot per colour: ``bot`` for all, or random and thrifty bots alternating."""
    factories = [bot] if bot else [RandomBot, ThriftyBot]
    return {c: factories[i % len(factories)](random.Random(rng.randrange(2**32))) for i, c in enumerate(colors)}


def play_phase_one(game: Game, bots: dict[Color, Bot]) -> list[Card]:
    """Play turns until the round's oven pile is complete; returns the pile, first revealed first."""
    while game.phase is Phase.PLAYING:
        player = game.current_player
        game.play(bots[player.color].turn(game, player))
    return list(game.oven)


def play_out(game: Game, bots: dict[Color, Bot]) -> Game:
    """Play ``game`` to its end with ``bots``."""
    while game.phase is not Phase.OVER:
        if game.phase is Phase.PLAYING:
            play_phase_one(game, bots)
            continue
        while game.unrevealed:
            reveal = game.reveal_next()
            if reveal.pending is not None:
                game.decide(bots[reveal.pending.order.color].decide(game, reveal.pending))
        game.finish_round()
    return game


def simulate(colors: Sequence[Color], seed: int | None = None, doubles: bool = False,
             rules: Ruleset = CLASSIC_RULES, bot: BotFactory | None = None) -> Game:
    """A whole game between bots (alternating random and thrifty by default)."""
    rng = random.Random(seed)
    game = Game(colors, Deck.for_players(len(colors), doubles), rules, seed=rng.randrange(2**32))
    return play_out(game, table_of_bots(colors, rng, bot))


__all__ = ["Bot", "RandomBot", "ThriftyBot", "table_of_bots", "play_phase_one", "play_out", "simulate"]
