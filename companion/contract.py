"""The ``evaluate --json`` contract: a whole oven pile in, every order's verdict out.

Other tools depend on this shape; see the README. Input in short::

    {"players": ["green", "red"], "doubles": false, "table": {"salami": 2},
     "pile": [CARD, ...], "hands": {...}, "choices": {"12": "mushroom"}, "declines": [7]}

A CARD may also be given in notation (``"g:4A+P"``), the table or a hand as a
notation string (``"2S A2"``) or per ingredient as units (single cards) or
``{"single": n, "double": m}``.
"""
from __future__ import annotations

from typing import Any, Mapping

from .engine import (
    Card, Color, Decision, Deck, Evaluation, Ingredient, Ingredients, Need, Order, OrderOutcome,
    PendingOrder, RulesError, card_from_json, card_to_json,
)
from .engine.legality import check_ingredients
from .engine.pizzas import Minimale, Monotoni
from .jsonrequest import ContractError

FIELDS = {"players", "doubles", "table", "pile", "hands", "choices", "declines"}


def evaluate_request(data: Any) -> dict[str, Any]:
    """Evaluate a request; raises :class:`ContractError` for bad input.

    >>> evaluate_request({"players": ["green", "red"], "table": "P 2S 3A 4M",
    ...                   "pile": ["g:4A+P"]})["orders"][0]["needed"]
    {'pineapple': 1}
    """
    request = _Request.parse(data)
    evaluation = _guard("table", Evaluation, request.deck, request.colors, request.table)
    hands = dict(request.hands) if request.hands is not None else None
    for index, card in enumerate(request.pile):
        reveal = _guard(f"pile[{index}]", evaluation.reveal, card)
        if reveal.pending is not None:
            decision = request.decision(reveal.pending, hands)
            _guard(f"pile[{index}]", evaluation.decide, decision)
        elif reveal.outcome is not None and index in request.choices:
            request.check_choice(index, reveal.outcome.options)
    return {
        "orders": [_order_json(o) for o in evaluation.outcomes],
        "table_after": {i.value: n for i, n in evaluation.table.unit_map().items()},
        "delivered": {c.value: len(orders) for c, orders in evaluation.delivered.items()},
    }


def _order_json(outcome: OrderOutcome) -> dict[str, Any]:
    result: dict[str, Any] = {
        "index": outcome.index,
        "color": outcome.order.color.value,
        "card": card_to_json(outcome.order),
        "needed": outcome.needed.as_dict(),
    }
    if isinstance(outcome.order.pizza, (Monotoni, Minimale)):
        result["choice"] = outcome.choice.value if outcome.choice else None
        options = sorted(outcome.options, key=lambda o: o.needed.total)
        result["options"] = [{"choice": o.choice.value, "needed": o.needed.as_dict()} for o in options if o.choice]
    result["fulfilled"] = outcome.fulfilled
    if outcome.reason:
        result["reason"] = outcome.reason
    return result


class _Request:
    """The request, read and checked field by field."""

    def __init__(self) -> None:
        self.colors: list[Color] = []
        self.deck: Deck
        self.table = Ingredients()
        self.pile: list[Card] = []
        self.hands: dict[Color, Ingredients] | None = None
        self.choices: dict[int, Ingredient] = {}
        self.declines: set[int] = set()

    @classmethod
    def parse(cls, data: Any) -> _Request:
        if not isinstance(data, Mapping):
            raise ContractError("input", "must be a JSON object")
        unknown = sorted(set(data) - FIELDS)
        if unknown:
            raise ContractError(unknown[0], f"unknown field (expected {', '.join(sorted(FIELDS))})")
        request = cls()
        request._read_players(data.get("players"), data.get("doubles", False))
        request.table = _read_ingredients("table", data.get("table", {}))
        request._read_pile(data.get("pile"))
        if data.get("hands") is not None:
            request._read_hands(data["hands"])
        request._read_choices(data.get("choices", {}))
        request._read_declines(data.get("declines", []))
        return request

    def _read_players(self, players: Any, doubles: Any) -> None:
        if not isinstance(players, list) or not players:
            raise ContractError("players", "a list of colours is required, e.g. [\"green\", \"red\"]")
        self.colors = [_guard(f"players[{i}]", Color.from_name, p) for i, p in enumerate(players)]
        if len(set(self.colors)) != len(self.colors):
            raise ContractError("players", "each colour may appear only once")
        if not isinstance(doubles, bool):
            raise ContractError("doubles", "must be true or false")
        self.deck = _guard("players", Deck.for_players, len(self.colors), doubles)

    def _read_pile(self, pile: Any) -> None:
        if not isinstance(pile, list):
            raise ContractError("pile", "a list of cards in reveal order is required")
        self.pile = [_guard(f"pile[{i}]", card_from_json, card) for i, card in enumerate(pile)]

    def _read_hands(self, hands: Any) -> None:
        if not isinstance(hands, Mapping):
            raise ContractError("hands", "must map colours to ingredients")
        self.hands = {}
        for name, value in hands.items():
            color = _guard(f"hands.{name}", Color.from_name, name)
            if color not in self.colors:
                raise ContractError(f"hands.{name}", f"{name} is not at this table")
            hand = _read_ingredients(f"hands.{name}", value)
            _guard(f"hands.{name}", check_ingredients, hand, self.deck)
            self.hands[color] = hand

    def _read_choices(self, choices: Any) -> None:
        if not isinstance(choices, Mapping):
            raise ContractError("choices", "must map pile indices to ingredients")
        for key, name in choices.items():
            where = f"choices[{key!r}]"
            index = self._order_index(where, key)
            if not isinstance(self.pile[index].pizza, (Monotoni, Minimale)):  # type: ignore[union-attr]
                raise ContractError(where, f"{self.pile[index].describe()} has no ingredient to choose")  # type: ignore[union-attr]
            self.choices[index] = _guard(where, Ingredient.from_name, name)

    def _read_declines(self, declines: Any) -> None:
        if not isinstance(declines, list):
            raise ContractError("declines", "must be a list of pile indices")
        self.declines = {self._order_index(f"declines[{i}]", d) for i, d in enumerate(declines)}

    def _order_index(self, where: str, key: Any) -> int:
        # a whole number, or its digits as a JSON object key: 1.5 or 1e400 name no card
        if isinstance(key, bool) or not isinstance(key, (int, str)) or \
                (isinstance(key, str) and not key.strip().lstrip("-").isdigit()):
            raise ContractError(where, f"{key!r} is not a pile index")
        index = int(key)
        if not 0 <= index < len(self.pile):
            raise ContractError(where, f"no card at pile index {key!r}")
        if not isinstance(self.pile[index], Order):
            raise ContractError(where, f"pile[{index}] is not an order")
        return index

    def check_choice(self, index: int, options: Any) -> None:
        pending = PendingOrder(index, self.pile[index], Ingredients(), tuple(options))  # type: ignore[arg-type]
        _guard(f"choices[{str(index)!r}]", pending.option, self.choices[index])

    def decision(self, pending: PendingOrder, hands: dict[Color, Ingredients] | None) -> Decision:
        where = f"choices[{str(pending.index)!r}]"
        choice = self.choices.get(pending.index)
        if choice is not None:
            _guard(where, pending.option, choice)
        if pending.index in self.declines:
            return Decision.decline(choice)
        if hands is None:
            return Decision.accept(choice)
        hand = hands.get(pending.order.color, Ingredients())
        option = pending.option(choice) if choice else pending.best(hand)
        cover = hand.cover(option.needed)
        if cover is None:
            return Decision.decline(option.choice)
        hands[pending.order.color] = hand - cover
        return Decision.accept(option.choice)


def _guard(where: str, function: Any, *args: Any) -> Any:
    try:
        return function(*args)
    except RulesError as error:
        raise ContractError(where, str(error)) from None


def _read_ingredients(where: str, value: Any) -> Ingredients:
    if isinstance(value, str):
        return _guard(where, Ingredients.from_notation, value)
    if not isinstance(value, Mapping):
        raise ContractError(where, "must map ingredients to counts, or be notation like \"2S A2\"")
    singles: dict[Ingredient, int] = {}
    doubles: dict[Ingredient, int] = {}
    for name, amount in value.items():
        ingredient = _guard(f"{where}.{name}", Ingredient.from_name, name)
        if isinstance(amount, Mapping) and set(amount) <= {"single", "double"}:
            singles[ingredient] = _count(f"{where}.{name}.single", amount.get("single", 0))
            doubles[ingredient] = _count(f"{where}.{name}.double", amount.get("double", 0))
        else:
            singles[ingredient] = _count(f"{where}.{name}", amount)
    return Ingredients(Need.of(singles).units, Need.of(doubles).units)


def _count(where: str, amount: Any) -> int:
    if not isinstance(amount, int) or isinstance(amount, bool) or amount < 0:
        raise ContractError(where, f"must be a whole number ≥ 0, not {amount!r}")
    return amount
