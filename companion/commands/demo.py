"""A demo round end in the terminal: three bots play a round, then the oven
pile is revealed card by card and every order is checked as it appears."""
from __future__ import annotations

import argparse

NAME = "demo"
HELP = "show a simulated round end, revealed card by card"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", type=int, default=2, help="random seed of the simulated round")


def run(args: argparse.Namespace) -> int:
    import random

    from ..engine import Color, describe_card
    from ..engine.bots import play_phase_one, table_of_bots
    from ..engine.game import Game

    colors = [Color.GREEN, Color.RED, Color.YELLOW]
    game = Game(colors, seed=args.seed)
    bots = table_of_bots(colors, random.Random(args.seed))
    play_phase_one(game, bots)
    print(f"Round 1 is over: {len(game.oven)} cards in the oven pile. Revealing them one by one.\n")
    while game.unrevealed:
        reveal = game.reveal_next()
        print(f"{reveal.index + 1:>3}. {describe_card(reveal.card)}")
        if reveal.pending:
            pending = reveal.pending
            owner = game.player(pending.order.color)
            decision = bots[owner.color].decide(game, pending)
            outcome = game.decide(decision)
        else:
            outcome = reveal.outcome
        if outcome is not None:
            print("     " + _verdict(outcome))
    print(f"\nFace up for the next round: {game.table.notation}")
    return 0


def _verdict(outcome) -> str:  # type: ignore[no-untyped-def]
    # an order that goes back was made with no joker or ingredient, whatever the engine weighed
    choice = f" (chosen: {outcome.choice.value})" if outcome.choice and outcome.fulfilled else ""
    if outcome.fulfilled and outcome.needed:
        return f"DELIVERED{choice}: {outcome.needed.describe()} added from hand"
    if outcome.fulfilled:
        return f"DELIVERED{choice} from the table"
    if outcome.reason == "no eligible ingredient":
        return "NOT DELIVERED: no ingredient is eligible for Pizza Minimale"
    return f"NOT DELIVERED{choice}: missing {outcome.needed.describe()}"
