"""Mamma Mia! as one of the table app's games (see :mod:`companion.web.kinds`).

>>> from companion.engine.tablelog import GameCreated, Seat
>>> game = KIND.replay([GameCreated((Seat("Ann", Color.GREEN), Seat("Bob", Color.RED)))])
>>> KIND.summary(game)["players"][0]
{'name': 'Ann', 'color': 'green', 'delivered': 0}
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

from flask import Blueprint

from ...engine.errors import IllegalChoice, RulesError
from ...engine.table import TableGame
from ...engine.tablelog import EVENT_TYPES, GameCreated, Undo, event_from_json
from ...engine.vocabulary import Color
from ..kinds import JSON, GameKind
from .view import table_view

# the order colours of the cards, as in static/table.css
FILL = {"red": "#a8432c", "yellow": "#e0b400", "brown": "#7a4b24", "green": "#3f8a3a", "purple": "#6e3f92"}


class MammaMiaKind(GameKind):
    name = "mamma-mia"
    title_key = "game.mamma_mia"
    page_template = "mamma_mia/game.html"
    scores_template = "mamma_mia/scores.html"
    line_template = "mamma_mia/line.html"
    start_template = "mamma_mia/start.html"
    refusals = (RulesError,)
    actions = frozenset({"reveal", "decide", "end-round", "hands"})
    csv_columns = ["game", "player", "color", "round", "delivered", "delivered_orders", "returned_orders",
                   "hand_cards", "place"]

    def starts(self, event: Any) -> bool:
        return isinstance(event, GameCreated)

    def owns(self, event: Any) -> bool:
        return type(event) in EVENT_TYPES.values() and not isinstance(event, Undo)

    def event_from_json(self, type_: str, payload: Mapping[str, Any]) -> Any:
        return event_from_json(type_, payload)

    def replay(self, events: Sequence[Any]) -> TableGame:
        return TableGame.replay(list(events))

    def apply(self, game: TableGame, event: Any) -> None:
        game.apply(event)

    def summary(self, game: TableGame) -> JSON:
        return {"phase": game.phase.value, "round": game.round,
                "players": [{"name": s.name, "color": s.color.value, "delivered": len(game.delivered(s.color))}
                            for s in game.seats]}

    def state(self, game: TableGame) -> JSON:
        return table_view(game)

    def refusal_text(self, refused: Exception) -> str:
        from .words import rules_refusal

        return rules_refusal(refused)  # type: ignore[arg-type]

    def refusal_field(self, refused: Exception, field: str | None) -> str | None:
        return "choice" if isinstance(refused, IllegalChoice) else field

    def csv_rows(self, game_id: int, game: TableGame) -> Iterable[Mapping[str, Any]]:
        """One row per player and round, then a ``total`` row per player with
        the hand cards and place once the game is over."""
        places = {s.color: s.place for s in game.ranking() or []}
        for seat in game.seats:
            base = {"game": game_id, "player": seat.name, "color": seat.color.value}
            for round_ in range(1, min(game.round, game.rounds) + 1):
                delivered = game.delivered_in(round_)[seat.color]
                returned = game.history[round_ - 1].orders(seat.color, False) if round_ <= len(game.history) else []
                yield {**base, "round": round_, "delivered": len(delivered),
                       "delivered_orders": " ".join(o.notation for o in delivered),
                       "returned_orders": " ".join(o.notation for o in returned)}
            yield {**base, "round": "total", "delivered": len(game.delivered(seat.color)),
                   "hand_cards": (game.hand_counts or {}).get(seat.color, ""), "place": places.get(seat.color, "")}

    def chart(self, state: JSON) -> JSON:
        """Orders delivered in each round."""
        return {"players": [{"name": p["name"], "color": p["color"], "fill": FILL[p["color"]],
                             "values": p["delivered_per_round"]} for p in state["players"]], "line": None}

    def blueprints(self) -> list[Blueprint]:
        from . import api, pages

        return [api.bp, pages.bp]


KIND = MammaMiaKind()
__all__ = ["KIND", "Color"]
