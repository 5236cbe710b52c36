"""The ``mamma-mia maus`` JSON contracts: judge one combination; list the
ingredients, sweet values, deck and helpers the engine uses.

A combination request::

    {"cards": [{"ingredient": "green", "value": 5}, ...], "helper": "lilly", "hand_after": 2}

and its answer, legal or not (both are answers, not errors)::

    {"legal": true, "kind": "run", "single_colour": true, "points": 7,
     "kept": [CARD, ...], "discarded": [CARD, ...], "helper_use": {...} | null, "options": [...]}
    {"legal": false, "reason": "..."}

Anything that is not such a request raises :class:`ContractError` naming the field.
"""
from __future__ import annotations

from typing import Any, Mapping

from ..jsonrequest import ContractError
from .engine import HELPERS, INGREDIENTS, Deck, Helper, MausError, judge
from .engine.jsonform import card_from_json, scoring_to_json

FIELDS = ("cards", "helper", "hand_after")


def combination_request(data: Any, deck: Deck | None = None) -> dict[str, Any]:
    """Judge the combination a request describes.

    >>> combination_request({"cards": ["b4", "b5", "r6"], "helper": "lilly"})["points"]
    6
    >>> combination_request({"cards": ["b4", "b5"]})
    {'legal': False, 'reason': 'a combination is three cards, not 2'}
    """
    deck = deck or Deck.load()
    if not isinstance(data, Mapping):
        raise ContractError("input", "must be a JSON object like {\"cards\": [...], \"helper\": null}")
    unknown = sorted(set(data) - set(FIELDS))
    if unknown:
        raise ContractError(unknown[0], f"unknown field (expected {', '.join(FIELDS)})")
    cards = _cards(data.get("cards"), deck)
    helper = None if data.get("helper") is None else _guard("helper", Helper.from_name, data["helper"])
    judgement = judge(cards, helper, _hand_after(data.get("hand_after")), deck=deck)
    if not judgement.legal:
        return {"legal": False, "reason": judgement.reason}
    options = [scoring_to_json(way) for way in judgement.options]
    return {"legal": True, **options[0], "options": options}


def ingredients_listing(deck: Deck | None = None) -> dict[str, Any]:
    """The names the contract uses, and the deck behind them."""
    deck = deck or Deck.load()
    return {
        "ingredients": [{"name": i.value, "letter": i.letter} for i in INGREDIENTS],
        "values": list(deck.values),
        "deck": {
            "name": deck.name,
            "stand_in": deck.stand_in,
            "cards": len(deck.cards()),
            "cards_per_ingredient": deck.cards_per_ingredient,
            "coins_per_value": {str(v): list(deck.coins_per_value[v]) for v in deck.values},
            "distinct_faces": len(deck.faces()),
        },
        "helpers": [{"name": h.value, "title": h.title, "animal": h.animal, "order": deck.helper_numbers[h],
                     "order_from_sheet": h in deck.numbers_from_sheet} for h in HELPERS],
    }


def _cards(cards: Any, deck: Deck) -> list[Any]:
    if not isinstance(cards, list):
        raise ContractError("cards", "a list of the laid cards is required, "
                                     "e.g. [{\"ingredient\": \"green\", \"value\": 5}, ...]")
    read = [_guard(f"cards[{i}]", card_from_json, card) for i, card in enumerate(cards)]
    for i, card in enumerate(read):
        _guard(f"cards[{i}]", deck.check_card, card)
    return read


def _hand_after(value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ContractError("hand_after", f"must be a whole number ≥ 0 (or null), not {value!r}")
    return value


def _guard(where: str, function: Any, *args: Any) -> Any:
    try:
        return function(*args)
    except MausError as error:
        raise ContractError(where, str(error)) from None
