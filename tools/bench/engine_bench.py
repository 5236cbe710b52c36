"""Engine benchmark: evaluating a 60-card oven pile, and whole simulated games.

    python -m tools.bench.engine_bench [--repeats 7] [--quick]

Prints medians (and the spread) over several repeats and writes
tools/bench/results/engine.json. Not a test: figures depend on the machine.
"""
from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import time
from pathlib import Path

from companion.engine import Card, Color, Decision, Deck, Evaluation, format_pile
from companion.engine.bots import simulate

PLAYERS = list(Color)


def sixty_card_pile(seed: int) -> list[Card]:
    """A legal 5-player pile: 48 ingredient cards and 12 orders, shuffled."""
    rng = random.Random(seed)
    deck = Deck.for_players(5, doubles=seed % 2 == 1)
    ingredients = rng.sample(deck.ingredient_stock().cards(), 48)
    orders = rng.sample([o for c in PLAYERS for o in deck.orders(c)], 12)
    pile: list[Card] = ingredients + orders
    rng.shuffle(pile)
    return pile


def evaluate(pile: list[Card], doubles: bool) -> int:
    evaluation = Evaluation(Deck.for_players(5, doubles), PLAYERS)
    outcomes = evaluation.run(pile, lambda pending: Decision.accept(pending.best().choice))
    return len(outcomes)


def rate(work, count: int, repeats: int) -> dict[str, float]:
    """Runs ``work`` ``count`` times per repeat; returns per-second rates."""
    rates = []
    for _ in range(repeats):
        start = time.perf_counter()
        for i in range(count):
            work(i)
        rates.append(count / (time.perf_counter() - start))
    return {"median_per_s": statistics.median(rates), "min_per_s": min(rates), "max_per_s": max(rates),
            "repeats": repeats, "per_repeat": count}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--quick", action="store_true", help="fewer iterations, for a smoke run")
    args = parser.parse_args()
    piles = [sixty_card_pile(seed) for seed in range(200)]
    assert all(len(p) == 60 for p in piles)
    n_piles, n_games = (50, 10) if args.quick else (500, 100)

    pile_rate = rate(lambda i: evaluate(piles[i % 200], (i % 200) % 2 == 1), n_piles, args.repeats)
    game_rate = rate(lambda i: simulate(PLAYERS[: 2 + i % 4], seed=i, doubles=i % 3 == 0), n_games, args.repeats)
    result = {
        "machine": {"python": platform.python_version(), "processor": platform.machine()},
        "evaluate_60_card_pile": pile_rate,
        "whole_games_2_to_5_players": game_rate,
        "example_pile": format_pile(piles[0]),
    }
    print(f"{'benchmark':<34}{'median/s':>12}{'min/s':>12}{'max/s':>12}")
    for name in ("evaluate_60_card_pile", "whole_games_2_to_5_players"):
        r = result[name]
        print(f"{name:<34}{r['median_per_s']:>12.0f}{r['min_per_s']:>12.0f}{r['max_per_s']:>12.0f}")
    print(f"(a 60-card pile evaluates in {1000 / pile_rate['median_per_s']:.2f} ms; "
          f"a whole game simulates in {1000 / game_rate['median_per_s']:.1f} ms)")
    out = Path(__file__).parent / "results" / "engine.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(result, indent=2))
    print(f"written {out}")


if __name__ == "__main__":
    main()
