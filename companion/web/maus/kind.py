"""Maus au Chocolat as one of the table app's games (see :mod:`companion.web.kinds`).

>>> from companion.maus.engine import GameStarted, Helper, HelperSeating
>>> seating = HelperSeating.from_held([Helper.MATHIEU, Helper.LILLY], oldest=1)
>>> game = KIND.replay([GameStarted(("Ann", "Bob"), seating)])
>>> KIND.summary(game)
{'phase': 'bidding', 'round': 1, 'target': 30, 'players': [{'name': 'Ann', 'points': 0}, {'name': 'Bob', 'points': 0}]}
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

from flask import Blueprint

from ...maus.engine import EVENT_TYPES, GameStarted, MausError, MausGame, Phase, event_from_json
from ..kinds import JSON, GameKind, Undo
from .view import maus_view

# a colour per seat for the chart, apart from the five ingredient colours the cards show
SEAT_FILLS = ("#5b4636", "#c07a2c", "#2f6f8f", "#8c3b6e", "#6b8e23", "#444444")


class MausKind(GameKind):
    name = "maus"
    title_key = "game.maus"
    page_template = "maus/game.html"
    scores_template = "maus/scores.html"
    line_template = "maus/line.html"
    start_template = "maus/start.html"
    refusals = (MausError,)
    actions = frozenset({"bids", "combination", "skip", "judge", "read"})
    csv_columns = ["game", "player", "round", "helper", "coins", "laid", "kept", "points", "total", "place"]

    def starts(self, event: Any) -> bool:
        return isinstance(event, GameStarted)

    def owns(self, event: Any) -> bool:
        return type(event) in EVENT_TYPES.values() and not isinstance(event, GameStarted)

    def event_from_json(self, type_: str, payload: Mapping[str, Any]) -> Any:
        return Undo() if type_ == Undo.type else event_from_json(type_, payload)

    def replay(self, events: Sequence[Any]) -> MausGame:
        return MausGame.replay(list(events))

    def apply(self, game: MausGame, event: Any) -> None:
        game.apply(event)

    def summary(self, game: MausGame) -> JSON:
        return {"phase": game.phase.value, "round": game.round, "target": game.deck.target,
                "players": [{"name": name, "points": points} for name, points in zip(game.players, game.scores)]}

    def state(self, game: MausGame) -> JSON:
        return maus_view(game)

    def refusal_text(self, refused: Exception) -> str:
        from .words import refusal_text

        return refusal_text(refused)

    def csv_rows(self, game_id: int, game: MausGame) -> Iterable[Mapping[str, Any]]:
        """One row per player and round played (their bid, the cards laid,
        kept and their points), then a ``total`` row with the place once the game is over."""
        places = {s.seat: s.place for s in game.ranking()} if game.phase is Phase.OVER else {}
        for seat, name in enumerate(game.players):
            for record in game.history:
                pick = next(p for p in record.picks if p.seat == seat)
                scoring = dict(record.laid)[seat]
                yield {"game": game_id, "player": name, "round": record.round, "helper": record.held[seat].value,
                       "coins": pick.coins, "laid": " ".join(c.notation for c in scoring.cards) if scoring else "",
                       "kept": " ".join(c.notation for c in scoring.kept) if scoring else "",
                       "points": scoring.points if scoring else 0, "total": record.scores[seat]}
            yield {"game": game_id, "player": name, "round": "total", "total": game.scores[seat],
                   "place": places.get(seat, "")}

    def chart(self, state: JSON) -> JSON:
        """The running score after each round, and the line at 30."""
        return {"players": [{"name": p["name"], "fill": SEAT_FILLS[p["seat"] % len(SEAT_FILLS)],
                             "values": p["points_per_round"]} for p in state["players"]],
                "line": state["target"]}

    def blueprints(self) -> list[Blueprint]:
        from . import api, pages

        return [api.bp, pages.bp]


KIND = MausKind()
