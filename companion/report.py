"""Plain-text reports for people at the table (the CLI's non-JSON output)."""
from __future__ import annotations

from typing import Any, Mapping

from .engine import card_from_json
from .engine.game import Game


def counted(number: int, noun: str) -> str:
    """``number`` of ``noun`` in English, as the command line speaks it.

    >>> counted(1, "card"), counted(7, "card"), counted(0, "image")
    ('1 card', '7 cards', '0 images')
    """
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def format_evaluation(result: Mapping[str, Any]) -> str:
    """The ``evaluate`` contract's result as lines a player reads."""
    lines = [format_order(o) for o in result["orders"]] or ["No order in the pile."]
    lines.append("Face up afterwards: " + format_units(result["table_after"]))
    lines.append("Delivered: " + ", ".join(f"{c} {n}" for c, n in result["delivered"].items()))
    return "\n".join(lines)


def format_order(order: Mapping[str, Any]) -> str:
    name = card_from_json(order["card"]).describe()
    if order.get("choice"):
        name += f" with {order['choice']}"
    needed = format_units(order["needed"]) if order["needed"] else ""
    if order["fulfilled"]:
        verdict = f"DELIVERED, {needed} added from hand" if needed else "DELIVERED from the table"
    elif order.get("reason") == "no eligible ingredient":
        verdict = "NOT DELIVERED: no ingredient is eligible"
    else:
        verdict = f"NOT DELIVERED: missing {needed}"
    return f"#{order['index']:<3} {name}: {verdict}"


def format_units(units: Mapping[str, int]) -> str:
    parts = [f"{n} {'of any ingredient' if name == 'any' else name}" for name, n in units.items() if n]
    return ", ".join(parts) or "nothing"


def format_game(game: Game) -> str:
    """Deliveries per round and the final ranking."""
    lines = []
    for summary in game.summaries:
        counts = ", ".join(f"{c.value} {len(o)}" for c, o in summary.delivered.items())
        lines.append(f"Round {summary.round}: {len(summary.pile)} cards revealed; delivered {counts}; "
                     f"left face up: {summary.leftovers.notation}")
    for standing in game.ranking():
        lines.append(f"{standing.place}. {standing.color.value}: {standing.delivered} delivered, "
                     f"{standing.hand_cards} ingredient cards in hand")
    return "\n".join(lines)
