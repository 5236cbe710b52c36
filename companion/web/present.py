"""Stored games as the API sends them: state, list entries and exports."""
from __future__ import annotations

import csv
import io
from typing import Any

from .view import table_view
from .storage import ListedGame, LoggedEvent, StoredGame

JSON = dict[str, Any]

CSV_COLUMNS = ["game", "player", "color", "round", "delivered", "delivered_orders", "returned_orders",
               "hand_cards", "place"]


def game_json(stored: StoredGame) -> JSON:
    """The full state of a game; ``version`` goes back with the next write."""
    return {"id": stored.id, "version": stored.version, "created_at": stored.created_at,
            "updated_at": stored.updated_at, "demo": stored.demo, **table_view(stored.game)}


def summary_json(listed: ListedGame) -> JSON:
    """One line of the list of games."""
    return {"id": listed.id, "version": listed.version, "created_at": listed.created_at,
            "updated_at": listed.updated_at, "demo": listed.demo, "archived_at": listed.archived_at,
            **listed.summary.payload()}


def export_json(stored: StoredGame, log: list[LoggedEvent]) -> JSON:
    """The game and its whole log (undone events marked): enough to audit or replay it."""
    return {
        "game": game_json(stored),
        "events": [{"seq": e.seq, "type": e.event.type, "payload": e.event.payload(),
                    "created_at": e.created_at, "in_effect": e.in_effect} for e in log],
    }


def export_csv(stored: StoredGame) -> str:
    """One row per player and round, then a ``total`` row per player with the
    hand cards and place once the game is over."""
    game, out = stored.game, io.StringIO()
    writer = csv.DictWriter(out, CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    places = {s.color: s.place for s in game.ranking() or []}
    for seat in game.seats:
        base = {"game": stored.id, "player": seat.name, "color": seat.color.value}
        for round_ in range(1, min(game.round, game.rounds) + 1):
            delivered = game.delivered_in(round_)[seat.color]
            returned = game.history[round_ - 1].orders(seat.color, False) if round_ <= len(game.history) else []
            writer.writerow({**base, "round": round_, "delivered": len(delivered),
                             "delivered_orders": " ".join(o.notation for o in delivered),
                             "returned_orders": " ".join(o.notation for o in returned)})
        writer.writerow({**base, "round": "total", "delivered": len(game.delivered(seat.color)),
                         "hand_cards": (game.hand_counts or {}).get(seat.color, ""),
                         "place": places.get(seat.color, "")})
    return out.getvalue()
