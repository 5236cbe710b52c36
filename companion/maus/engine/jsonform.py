"""Cards and helper uses in the JSON form of the ``maus`` contract.

>>> card_to_json(Card.from_notation("g5"))
{'ingredient': 'green', 'value': 5}
>>> card_from_json({"ingredient": "green", "value": 5, "coins": 3}).notation
'g5/3'
"""
from __future__ import annotations

from typing import Any, Mapping

from .cards import Card, Ingredient
from .combination import HelperUse, Scoring
from .errors import NotationError

CARD_FIELDS = frozenset({"ingredient", "value", "coins"})
JSONObject = dict[str, Any]


def card_to_json(card: Card) -> JSONObject:
    result: JSONObject = {"ingredient": card.ingredient.value, "value": card.value}
    if card.coins is not None:
        result["coins"] = card.coins
    return result


def card_from_json(data: Any) -> Card:
    """A card object, or its notation (``"g5"``)."""
    if isinstance(data, str):
        return Card.from_notation(data)
    if not isinstance(data, Mapping):
        raise NotationError(f"a card is an object like {{\"ingredient\": \"green\", \"value\": 5}}, not {data!r}")
    unknown = sorted(set(data) - CARD_FIELDS)
    if unknown:
        raise NotationError(f"unknown card field {unknown[0]!r} (ingredient, value, coins)")
    coins = data.get("coins")
    return Card(Ingredient.from_name(data.get("ingredient")), _whole("value", data.get("value")),
                None if coins is None else _whole("coins", coins))


def _whole(field: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise NotationError(f"a card's {field} must be a whole number, not {value!r}")
    return value


def use_to_json(use: HelperUse | None) -> JSONObject | None:
    if use is None:
        return None
    result: JSONObject = {"helper": use.helper.value}
    if use.index is not None and use.laid is not None:
        result["card"] = use.index
        result["laid_as"] = card_to_json(use.laid)
    return result


def scoring_to_json(scoring: Scoring) -> JSONObject:
    return {
        "kind": scoring.kind.value,
        "single_colour": scoring.single_colour,
        "points": scoring.points,
        "kept": [card_to_json(c) for c in scoring.kept],
        "discarded": [card_to_json(c) for c in scoring.discarded],
        "helper_use": use_to_json(scoring.use),
    }
