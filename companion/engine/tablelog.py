"""The event log of a table game: small frozen events with a JSON form.

Each event is one accepted action at the table; cards travel in notation
(``"g:4A+P"``). :class:`companion.engine.table.TableGame` is the replay of a log.

>>> event_from_json("order_decided", {"accept": True, "choice": "olive"})
OrderDecided(accept=True, choice=<Ingredient.OLIVE: 'olive'>)

Undo is an event too: it takes back the last event still in effect (an undo
after an undo takes back the one before), so the log only ever grows.
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any, ClassVar, Mapping, Sequence, Union

from .cards import Card, parse_card
from .errors import NotationError
from .vocabulary import Color, Ingredient

MAX_NAME_LENGTH = 40


class BadPayload(NotationError):
    """An event payload that cannot be read; ``field`` names the culprit."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


# events ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Seat:
    """A player at the table: a name and the colour of their order cards."""

    name: str
    color: Color


@dataclass(frozen=True)
class GameCreated:
    """The first event of every game: who plays which colour, and the variant."""

    seats: tuple[Seat, ...]
    doubled: bool = False
    type: ClassVar[str] = "game_created"

    def payload(self) -> dict[str, Any]:
        return {"players": [{"name": s.name, "color": s.color.value} for s in self.seats],
                "doubled": self.doubled}

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> GameCreated:
        players = payload.get("players")
        if not isinstance(players, list):
            raise BadPayload("players", "players must be a list like [{\"name\": \"Ann\", \"color\": \"green\"}]")
        doubled = payload.get("doubled", False)
        if not isinstance(doubled, bool):
            raise BadPayload("doubled", f"doubled must be true or false, not {doubled!r}")
        return cls(tuple(_seat(i, p) for i, p in enumerate(players)), doubled)


SEAT_FIELDS = frozenset({"name", "color"})
# embeddings, overrides and isolates reorder the text around a name on every screen it is shown
TEXT_DIRECTION_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _seat(index: int, data: Any) -> Seat:
    field = f"players[{index}]"
    if not isinstance(data, Mapping):
        raise BadPayload(field, f"{field} must be an object with a name and a color")
    unknown = sorted(set(data) - SEAT_FIELDS)
    if unknown:
        raise BadPayload(f"{field}.{unknown[0]}", f"{field}: unknown field {unknown[0]!r} (a player has a name and a color)")
    name, color = data.get("name"), data.get("color")
    if not isinstance(name, str) or not name.strip():
        raise BadPayload(f"{field}.name", f"{field} needs a name")
    if any(unicodedata.category(ch) == "Cc" or ch in TEXT_DIRECTION_CONTROLS for ch in name):
        raise BadPayload(f"{field}.name", f"{field}: a name may not hold control characters")
    if len(name.strip()) > MAX_NAME_LENGTH:
        raise BadPayload(f"{field}.name", f"{field}: a name has at most {MAX_NAME_LENGTH} characters")
    if not isinstance(color, str):
        raise BadPayload(f"{field}.color", f"{field} needs an order colour (red, yellow, brown, green, purple)")
    try:
        return Seat(name.strip(), Color.from_name(color))
    except NotationError as error:
        raise BadPayload(f"{field}.color", f"{field}: {error}") from None


@dataclass(frozen=True)
class CardRevealed:
    """The next card of the oven pile turned face up."""

    card: Card
    type: ClassVar[str] = "card_revealed"

    @classmethod
    def of(cls, notation: str) -> CardRevealed:
        return cls(parse_card(notation))

    def payload(self) -> dict[str, Any]:
        return {"card": self.card.notation}

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> CardRevealed:
        card = payload.get("card")
        if not isinstance(card, str) or not card.strip():
            raise BadPayload("card", "card must be card notation such as \"S\", \"S2\" or \"g:4A+P\"")
        try:
            return cls(parse_card(card.strip()))
        except NotationError as error:
            raise BadPayload("card", str(error)) from None


@dataclass(frozen=True)
class OrderDecided:
    """The owner of the pending order adds from hand (``accept``) or can't / won't.

    ``choice``: the Monotoni joker or Minimale ingredient; ``None`` takes the
    option needing the fewest hand cards.
    """

    accept: bool
    choice: Ingredient | None = None
    type: ClassVar[str] = "order_decided"

    def payload(self) -> dict[str, Any]:
        return {"accept": self.accept, "choice": self.choice.value if self.choice else None}

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> OrderDecided:
        accept, choice = payload.get("accept"), payload.get("choice")
        if not isinstance(accept, bool):
            raise BadPayload("accept", "accept must be true (added from hand) or false (can't / won't)")
        if choice is None:
            return cls(accept)
        if not isinstance(choice, str):
            raise BadPayload("choice", f"choice must be an ingredient name, not {choice!r}")
        try:
            return cls(accept, Ingredient.from_name(choice))
        except NotationError as error:
            raise BadPayload("choice", str(error)) from None


class _Bare:
    """An event that carries nothing but its type."""

    def payload(self) -> dict[str, Any]:
        return {}

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> Any:
        return cls()


@dataclass(frozen=True)
class RoundEnded(_Bare):
    """The whole oven pile is revealed: the round is over."""

    type: ClassVar[str] = "round_ended"


@dataclass(frozen=True)
class HandsCounted:
    """After round 3: how many ingredient cards each player still holds."""

    counts: tuple[tuple[Color, int], ...]
    type: ClassVar[str] = "hands_counted"

    def payload(self) -> dict[str, Any]:
        return {"counts": {c.value: n for c, n in self.counts}}

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> HandsCounted:
        counts = payload.get("counts")
        if not isinstance(counts, Mapping):
            raise BadPayload("counts", "counts must map colours to numbers, like {\"green\": 3}")
        pairs = []
        for name, n in counts.items():
            try:
                color = Color.from_name(name)
            except NotationError as error:
                raise BadPayload("counts", str(error)) from None
            if not isinstance(n, int) or isinstance(n, bool) or n < 0:
                raise BadPayload("counts", f"{name}'s hand count must be a whole number ≥ 0, not {n!r}")
            pairs.append((color, n))
        return cls(tuple(pairs))


@dataclass(frozen=True)
class Undo(_Bare):
    """Takes back the last event still in effect."""

    type: ClassVar[str] = "undo"


Event = Union[GameCreated, CardRevealed, OrderDecided, RoundEnded, HandsCounted, Undo]
EVENT_TYPES: dict[str, Any] = {
    e.type: e for e in (GameCreated, CardRevealed, OrderDecided, RoundEnded, HandsCounted, Undo)
}


def event_from_json(type_: str, payload: Mapping[str, Any]) -> Event:
    """Read an event back from its type and JSON payload.

    >>> event_from_json("card_revealed", {"card": "g:P+6J"}).card.special
    'monotoni'
    """
    try:
        kind = EVENT_TYPES[type_]
    except KeyError:
        raise BadPayload("type", f"unknown event type {type_!r}") from None
    return kind.from_payload(payload)


def in_effect(events: Sequence[Event]) -> list[int]:
    """Indices of the events an undo has not taken back, in order; the first
    event (the game's creation) is never taken back.

    >>> in_effect([RoundEnded(), RoundEnded(), Undo(), RoundEnded(), Undo(), Undo()])
    [0]
    """
    kept: list[int] = []
    for index, event in enumerate(events):
        if isinstance(event, Undo):
            if len(kept) > 1:
                kept.pop()
        else:
            kept.append(index)
    return kept
