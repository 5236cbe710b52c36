"""Simulate whole games between simple bots that play legal turns.

Useful to see the rules at work, to produce realistic oven piles, and for the
benchmarks. With --json, prints each round's pile in card notation with its
deliveries, and the final ranking.
"""
from __future__ import annotations

import argparse
import json

NAME = "simulate"
HELP = "simulate whole games between bots and print the rounds and the ranking"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", default="green,red,yellow",
                        help="comma-separated colours, 2 to 5 of red, yellow, brown, green, purple")
    parser.add_argument("--seed", type=int, default=1, help="random seed (the same seed plays the same game)")
    parser.add_argument("--games", type=int, default=1, help="how many games (seeds SEED, SEED+1, ...)")
    parser.add_argument("--doubles", action="store_true", help="play with the Doubled Ingredients variant")
    parser.add_argument("--spanish", action="store_true",
                        help="Spanish sheet's turn rules: at least one ingredient per turn when holding any")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")


def run(args: argparse.Namespace) -> int:
    import sys

    from ..engine import CLASSIC_RULES, SPANISH_RULES, Color, RulesError, format_pile
    from ..engine.bots import simulate
    from ..report import format_game

    try:
        colors = [Color.from_name(name.strip()) for name in args.players.split(",")]
        rules = SPANISH_RULES if args.spanish else CLASSIC_RULES
        games = [simulate(colors, seed=args.seed + i, doubles=args.doubles, rules=rules) for i in range(args.games)]
    except RulesError as error:
        print(f"simulate: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps([
            {"seed": args.seed + i,
             "rounds": [{"pile": format_pile(s.pile, compress=False),
                         "delivered": {c.value: [o.notation for o in os] for c, os in s.delivered.items()},
                         "leftovers": s.leftovers.notation} for s in game.summaries],
             "ranking": [{"place": s.place, "color": s.color.value, "delivered": s.delivered,
                          "hand_cards": s.hand_cards} for s in game.ranking()]}
            for i, game in enumerate(games)], indent=1))
    else:
        for i, game in enumerate(games):
            print(f"Game {i + 1} (seed {args.seed + i})")
            print(format_game(game))
    return 0
