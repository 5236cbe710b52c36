"""Words and JSON for tracked cards, and the engine's verdict at each order.

The camera sees the pile, not the hands: at an order that needs cards from
its owner's hand, :class:`LiveEvaluation` says what the owner must add and
then assumes the owner adds it (the cheapest option, as the engine's
``Decision.accept()`` does), so the evaluation can go on to the next card.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

from companion.engine import Card, Color, Deck, Decision, Evaluation, RulesError, card_to_json, describe_card

from ..recognize.types import Match
from .types import Landing


def event_json(landing: Landing, sure: bool) -> dict[str, Any]:
    """One card of the ``scan --sequence --json`` contract."""
    match = landing.match
    return {
        "frame": landing.frame,
        "time": None if landing.time is None else round(landing.time, 3),
        "card": card_to_json(match.card),
        "confidence": round(float(match.confidence), 3),
        "runner_up": None if match.runner_up is None else {
            "card": card_to_json(match.runner_up), "confidence": round(float(match.runner_up_confidence), 3)},
        "sure": sure,
    }


def sequence_json(landings: Sequence[Landing], is_sure: Callable[[Match], bool]) -> dict[str, Any]:
    """The ``scan --sequence --json`` contract."""
    return {"sequence": [card_to_json(e.card) for e in landings],
            "events": [event_json(e, is_sure(e.match)) for e in landings]}


def describe_event(landing: Landing, number: int, sure: bool) -> str:
    """``#3 frame 31 (2.07 s): double pepper 0.98``, with the runner-up when unsure."""
    match = landing.match
    when = f"frame {landing.frame}" + ("" if landing.time is None else f" ({landing.time:.2f} s)")
    text = f"#{number} {when}: {describe_card(match.card)} {match.confidence:.2f}"
    if not sure and match.runner_up is not None:
        text += f" (unsure; perhaps {describe_card(match.runner_up)} {match.runner_up_confidence:.2f})"
    return text


def parse_players(text: str) -> list[Color]:
    """``green,red`` as colours; ValueError naming the bad or repeated one."""
    colors = []
    for name in (part.strip() for part in text.split(",")):
        try:
            color = Color.from_name(name)
        except Exception:
            raise ValueError(f"unknown colour {name!r} (use red, yellow, brown, green, purple)") from None
        if color in colors:
            raise ValueError(f"{name} is given twice")
        colors.append(color)
    return colors


class LiveEvaluation:
    """The engine's evaluation phase, fed one tracked card at a time."""

    def __init__(self, colors: Sequence[Color], doubles: bool = False) -> None:
        self.evaluation = Evaluation(Deck.for_players(len(colors), doubles), colors)

    def reveal(self, card: Card) -> list[str]:
        """What the engine says about ``card``: nothing for an ingredient, a
        verdict for an order, or why the card cannot be part of this pile."""
        try:
            reveal = self.evaluation.reveal(card)
        except RulesError as error:
            return [f"  engine: {error} (card left out: check it)"]
        if reveal.outcome is not None:
            outcome = reveal.outcome
            verdict = "fulfilled from the table" if outcome.fulfilled else "cannot be made: no eligible ingredient"
            return [f"  {outcome.order.describe()}: {verdict}"]
        if reveal.pending is None:
            return []
        pending = reveal.pending
        option = pending.best()
        choice = f" (choosing {option.choice.value})" if option.choice is not None else ""
        owner = pending.order.color.value
        outcome = self.evaluation.decide(Decision.accept(option.choice))
        assert outcome.fulfilled
        return [f"  {pending.order.describe()}{choice}: {owner} must add {option.needed.describe()} from hand"
                f" (assumed added)"]
