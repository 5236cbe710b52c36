"""Oven piles as the engine's bots build them, and card sequences for flip
videos cut from them.

Real piles are the right test material: turns of "3 salami" give runs of
identical cards, and orders arrive where players actually play them.
"""
from __future__ import annotations

import random
from typing import Sequence

from companion.engine import Card, Color, Deck, IngredientCard
from companion.engine.bots import play_phase_one, table_of_bots
from companion.engine.game import Game


def simulated_pile(seed: int, players: int = 3, doubles: bool = False) -> list[Card]:
    """The first round's oven pile of a bot game, first revealed first."""
    colors = list(Color)[:players]
    rng = random.Random(seed)
    game = Game(colors, Deck.for_players(players, doubles), seed=rng.randrange(2**32))
    return play_phase_one(game, table_of_bots(colors, rng))


def longest_run(cards: Sequence[Card]) -> int:
    """Length of the longest stretch of identical consecutive ingredient cards."""
    best = run = 0
    previous = None
    for card in cards:
        run = run + 1 if isinstance(card, IngredientCard) and card == previous else 1 if isinstance(card, IngredientCard) else 0
        previous = card
        best = max(best, run)
    return best


def flip_sequence(length: int, rng: random.Random, min_run: int = 3) -> list[Card]:
    """``length`` consecutive cards of a simulated pile containing a run of at
    least ``min_run`` identical ingredient cards (when ``length`` allows)."""
    need = min(min_run, length)
    for _ in range(200):
        pile: list[Card] = []
        while len(pile) < length:
            pile += simulated_pile(rng.randrange(2**32), rng.randint(2, 5), rng.random() < 0.5)
        starts = list(range(len(pile) - length + 1))
        rng.shuffle(starts)
        for start in starts:
            window = pile[start:start + length]
            if longest_run(window) >= need:
                return window
    raise RuntimeError(f"no simulated pile gave {length} cards with a run of {need}")
