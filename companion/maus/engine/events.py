"""The actions of a Maus au Chocolat game at the table, as small frozen
events with a JSON form for a stored event log.

A :class:`~companion.maus.engine.game.MausGame` is the replay of a list of
them: the first is :class:`GameStarted`, then each round's
:class:`BidsRevealed` and one :class:`CombinationLaid` or
:class:`CombinationSkipped` per player, in helper order. Cards travel in
notation (``"g5"``).

>>> event_from_json("combination_laid", {"seat": 0, "cards": ["g3", "g4", "g6"],
...                 "change": {"helper": "mathieu", "card": 2, "laid_as": "g5"}}).change
HelperUse.from_notation('mathieu g6>g5')
>>> BidsRevealed((3, 5)).payload()
{'coins': [3, 5]}
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Mapping, TypeVar, Union

from .cards import Card
from .combination import HelperUse
from .errors import MausError, NotationError
from .helpers import Helper, HelperNumbers, HelperSeating
from .jsonform import card_from_json, use_to_json
from .rules import STANDARD_RULES, MausRules

T = TypeVar("T")


class BadPayload(NotationError):
    """An event payload that cannot be read; ``field`` names the culprit."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field


@dataclass(frozen=True)
class GameStarted:
    """Who plays (names in clockwise seating order), who is oldest, who holds
    which helper and the spare row, the helper order numbers the table
    confirmed (``None``: the deck's), and the table's reading of the sheet."""

    players: tuple[str, ...]
    seating: HelperSeating
    numbers: HelperNumbers | None = None
    rules: MausRules = STANDARD_RULES
    type: ClassVar[str] = "game_started"

    def payload(self) -> dict[str, Any]:
        return {"players": list(self.players), "oldest": self.seating.oldest,
                "held": [h.value for h in self.seating.held], "spare": [h.value for h in self.seating.spare],
                "numbers": self.numbers.as_dict() if self.numbers else None, "rules": self.rules.as_dict()}

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> GameStarted:
        players = _field(payload, "players", list)
        if not all(isinstance(p, str) and p.strip() for p in players):
            raise BadPayload("players", "each player needs a name")
        held = [_read("held", Helper.from_name, h) for h in _field(payload, "held", list)]
        spare = [_read("spare", Helper.from_name, h) for h in _field(payload, "spare", list)]
        seating = _read("held", HelperSeating.from_held, held, _field(payload, "oldest", int), spare)
        numbers = payload.get("numbers")
        if numbers is not None:
            numbers = _read("numbers", HelperNumbers.from_dict, _field(payload, "numbers", dict))
        rules = STANDARD_RULES
        if payload.get("rules") is not None:
            rules = _read("rules", MausRules.from_dict, _field(payload, "rules", dict))
        return cls(tuple(p.strip() for p in players), seating, numbers, rules)


@dataclass(frozen=True)
class BidsRevealed:
    """The coins on each seat's bid card, in seating order (without Henri's bonus)."""

    coins: tuple[int, ...]
    type: ClassVar[str] = "bids_revealed"

    def payload(self) -> dict[str, Any]:
        return {"coins": list(self.coins)}

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> BidsRevealed:
        coins = _field(payload, "coins", list)
        if not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in coins):
            raise BadPayload("coins", "each bid is a number of coins, 0 or more")
        return cls(tuple(coins))


@dataclass(frozen=True)
class CombinationLaid:
    """A seat lays cards; ``change`` is how its helper changed a card (``None``: none)."""

    seat: int
    cards: tuple[Card, ...]
    change: HelperUse | None = None
    type: ClassVar[str] = "combination_laid"

    def payload(self) -> dict[str, Any]:
        change = use_to_json(self.change)
        if change and self.change and self.change.laid:
            change["laid_as"] = self.change.laid.notation
        return {"seat": self.seat, "cards": [c.notation for c in self.cards], "change": change}

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> CombinationLaid:
        cards = tuple(_read("cards", card_from_json, c) for c in _field(payload, "cards", list))
        change = payload.get("change")
        return cls(_field(payload, "seat", int), cards, None if change is None else _change(change, cards))


@dataclass(frozen=True)
class CombinationSkipped:
    """A seat lays no combination this round."""

    seat: int
    type: ClassVar[str] = "combination_skipped"

    def payload(self) -> dict[str, Any]:
        return {"seat": self.seat}

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> CombinationSkipped:
        return cls(_field(payload, "seat", int))


Event = Union[GameStarted, BidsRevealed, CombinationLaid, CombinationSkipped]
EVENT_TYPES: dict[str, Any] = {e.type: e for e in (GameStarted, BidsRevealed, CombinationLaid, CombinationSkipped)}


def event_from_json(type_: str, payload: Mapping[str, Any]) -> Event:
    """Read an event back from its type and JSON payload."""
    if type_ not in EVENT_TYPES:
        raise BadPayload("type", f"unknown event type {type_!r}")
    if not isinstance(payload, Mapping):
        raise BadPayload("payload", "an event's payload is a JSON object")
    return EVENT_TYPES[type_].from_payload(payload)


def _change(data: Any, cards: tuple[Card, ...]) -> HelperUse:
    if not isinstance(data, Mapping):
        raise BadPayload("change", "a change is {\"helper\": ..., \"card\": INDEX, \"laid_as\": CARD}")
    helper = _read("change.helper", Helper.from_name, data.get("helper"))
    index = data.get("card")
    if index is None:
        return HelperUse(helper)
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(cards):
        raise BadPayload("change.card", f"no laid card at index {index!r}")
    return HelperUse(helper, index, _read("change.laid_as", card_from_json, data.get("laid_as")), cards[index])


def _field(payload: Mapping[str, Any], name: str, kind: type) -> Any:
    value = payload.get(name)
    if not isinstance(value, kind) or isinstance(value, bool) or (kind is int and value < 0):
        raise BadPayload(name, f"missing, or not a {'whole number ≥ 0' if kind is int else kind.__name__}")
    return value


def _read(field: str, function: Callable[..., T], *args: Any) -> T:
    try:
        return function(*args)
    except MausError as error:
        raise BadPayload(field, str(error)) from None
