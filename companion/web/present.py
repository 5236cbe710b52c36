"""Stored games as the API sends them: state, list entries and exports,
for every game alike (each game's own parts come from its kind)."""
from __future__ import annotations

import csv
import io
from typing import Any

from .storage import ListedGame, LoggedEvent, StoredGame

JSON = dict[str, Any]


def game_json(stored: StoredGame) -> JSON:
    """The full state of a game; ``version`` goes back with the next write."""
    return {"id": stored.id, "version": stored.version, "created_at": stored.created_at,
            "updated_at": stored.updated_at, "demo": stored.demo, "kind": stored.kind,
            **stored.game_kind.state(stored.game), "can_undo": stored.undoable}


def summary_json(listed: ListedGame) -> JSON:
    """One line of the list of games."""
    return {"id": listed.id, "version": listed.version, "created_at": listed.created_at,
            "updated_at": listed.updated_at, "demo": listed.demo, "archived_at": listed.archived_at,
            "kind": listed.kind, **listed.summary}


def export_json(stored: StoredGame, log: list[LoggedEvent]) -> JSON:
    """The game and its whole log (undone events marked): enough to audit or replay it."""
    return {
        "game": game_json(stored),
        "events": [{"seq": e.seq, "type": e.event.type, "payload": e.event.payload(),
                    "created_at": e.created_at, "in_effect": e.in_effect} for e in log],
    }


def export_csv(stored: StoredGame) -> str:
    """The game's rows as its kind writes them (one per player and round, then totals)."""
    game_kind, out = stored.game_kind, io.StringIO()
    writer = csv.DictWriter(out, game_kind.csv_columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows(game_kind.csv_rows(stored.id, stored.game))
    return out.getvalue()


def export_name(stored: StoredGame, extension: str) -> str:
    """``mamma-mia-game-3.csv``, ``maus-game-4.json``: the game's kind names the file."""
    return f"{stored.kind}-game-{stored.id}.{extension}"
