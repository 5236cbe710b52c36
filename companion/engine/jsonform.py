"""Cards in the JSON form of the ``evaluate`` and ``scan`` contracts.

>>> card_to_json(parse_card("g:P+6J"))
{'kind': 'order', 'color': 'green', 'special': 'monotoni', 'fixed': 'pepper'}
"""
from __future__ import annotations

from typing import Any, Mapping

from .cards import MAMMA_MIA, Card, MammaMiaCard, Order, parse_card
from .errors import NotationError
from .ingredients import Need
from .pizzas import Bombastica, Minimale, Monotoni, Pizza, Recipe
from .vocabulary import Color, Ingredient, IngredientCard

JSONCard = dict[str, Any]


def card_to_json(card: Card) -> JSONCard:
    if isinstance(card, IngredientCard):
        return {"kind": "ingredient", "ingredient": card.ingredient.value, "double": card.double}
    if isinstance(card, MammaMiaCard):
        return {"kind": "mamma_mia"}
    result: JSONCard = {"kind": "order", "color": card.color.value}
    pizza = card.pizza
    if isinstance(pizza, Recipe):
        result["recipe"] = {i.value: n for i, n in pizza.need.items()}
    else:
        result["special"] = card.special
        if isinstance(pizza, (Monotoni, Minimale)):
            result["fixed"] = pizza.fixed.value
    return result


def card_from_json(data: Any) -> Card:
    """Read a card; a notation string (``"g:4A+P"``) is accepted too."""
    if isinstance(data, str):
        return parse_card(data)
    if not isinstance(data, Mapping):
        raise NotationError(f"a card must be an object or a notation string, not {data!r}")
    kind = data.get("kind")
    if kind == "ingredient":
        double = data.get("double", False)
        if not isinstance(double, bool):
            raise NotationError(f"'double' must be true or false, not {double!r}")
        return IngredientCard(Ingredient.from_name(_text(data, "ingredient")), double)
    if kind == "mamma_mia":
        return MAMMA_MIA
    if kind == "order":
        return Order(Color.from_name(_text(data, "color")), _pizza_from_json(data))
    raise NotationError(f"unknown card kind {kind!r} (ingredient, order or mamma_mia)")


def _text(data: Mapping[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise NotationError(f"card field {key!r} is missing or not text")
    return value


def _pizza_from_json(data: Mapping[str, Any]) -> Pizza:
    special = data.get("special")
    if special is None:
        recipe = data.get("recipe")
        if not isinstance(recipe, Mapping) or not recipe:
            raise NotationError("an order needs a 'recipe' or a 'special'")
        amounts = {}
        for name, n in recipe.items():
            if not isinstance(n, int) or isinstance(n, bool) or n < 1:
                raise NotationError(f"recipe amount for {name!r} must be a whole number ≥ 1, not {n!r}")
            amounts[Ingredient.from_name(name)] = n
        return Recipe(Need.of(amounts))
    if special == "bombastica":
        return Bombastica()
    if special in ("monotoni", "minimale"):
        fixed = Ingredient.from_name(_text(data, "fixed"))
        return Monotoni(fixed) if special == "monotoni" else Minimale(fixed)
    raise NotationError(f"unknown special pizza {special!r} (bombastica, monotoni or minimale)")
