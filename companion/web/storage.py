"""Games kept as append-only event logs in SQLite. All of the app's SQL is here.

A game's state is never stored: it is the replay of its log through the rules
engine (:class:`TableGame`). An action is checked against that state and, only
if the engine accepts it, appended in the same transaction that checked it.

Concurrency is optimistic: every write names the ``version`` (the number of
events) the client last saw; if another device wrote in between, the write is
refused with :class:`StaleWrite` and nothing changes.

Undo appends an ``undo`` event that takes back the last event still in effect;
history is never deleted or rewritten (triggers in ``schema.sql`` refuse it).
"""
from __future__ import annotations

import json
import sqlite3
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Iterator

from ..engine.table import TableGame
from ..engine.tablelog import Event, GameCreated, event_from_json, in_effect


class GameNotFound(LookupError):
    """No game with that id."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"there is no game {game_id}")


class StaleWrite(RuntimeError):
    """A write based on a version of the game that is no longer current."""

    def __init__(self, game_id: int, seen: int, current: int) -> None:
        super().__init__(f"game {game_id} was changed on another device (you saw version {seen}, "
                         f"it is now at version {current}): nothing was changed; reload and try again")
        self.current = current


@dataclass(frozen=True)
class StoredGame:
    """A game as loaded: its id, its version and its replayed state."""

    id: int
    version: int
    created_at: str
    updated_at: str
    game: TableGame


@dataclass(frozen=True)
class LoggedEvent:
    """One line of a game's log; ``in_effect`` is false once undone."""

    seq: int
    event: Event
    created_at: str
    in_effect: bool


def create_game(db: sqlite3.Connection, created: GameCreated) -> StoredGame:
    """Start a game; the engine checks the set-up first (raises RulesError)."""
    game = TableGame(created)
    now = _now()
    with _transaction(db):
        cursor = db.execute("INSERT INTO games (created_at, updated_at, version) VALUES (?, ?, 1)", (now, now))
        game_id = int(cursor.lastrowid)  # type: ignore[arg-type]
        _insert_event(db, game_id, 1, created, now)
    return StoredGame(game_id, 1, now, now, game)


def load_game(db: sqlite3.Connection, game_id: int) -> StoredGame:
    row = _game_row(db, game_id)
    log = _read_log(db, game_id)
    return _stored(row, TableGame.replay([e.event for e in log]))


def list_games(db: sqlite3.Connection) -> list[StoredGame]:
    """Every game, newest first."""
    rows = db.execute("SELECT * FROM games ORDER BY id DESC").fetchall()
    logs: dict[int, list[Event]] = {row["id"]: [] for row in rows}
    for event in db.execute("SELECT game_id, type, payload FROM events ORDER BY game_id, seq"):
        logs[event["game_id"]].append(event_from_json(event["type"], json.loads(event["payload"])))
    return [_stored(row, TableGame.replay(logs[row["id"]])) for row in rows]


def event_log(db: sqlite3.Connection, game_id: int) -> list[LoggedEvent]:
    """The whole log, undone events included and marked."""
    _game_row(db, game_id)
    return _read_log(db, game_id)


def append_event(db: sqlite3.Connection, game_id: int, seen_version: int, event: Event) -> StoredGame:
    """Apply ``event`` if the game is still at ``seen_version`` and the engine
    accepts it; one transaction. Raises :class:`GameNotFound`,
    :class:`StaleWrite` or the engine's ``RulesError``; on any error nothing
    is written."""
    now = _now()
    with _transaction(db):
        row = _game_row(db, game_id)
        if row["version"] != seen_version:
            raise StaleWrite(game_id, seen_version, row["version"])
        game = TableGame.replay([e.event for e in _read_log(db, game_id)])
        game.apply(event)
        version = row["version"] + 1
        _insert_event(db, game_id, version, event, now)
        updated = db.execute("UPDATE games SET version = ?, updated_at = ? WHERE id = ? AND version = ?",
                             (version, now, game_id, seen_version))
        assert updated.rowcount == 1  # the immediate transaction holds the write lock
    return StoredGame(game_id, version, row["created_at"], now, game)


# internals --------------------------------------------------------------------------------


@contextmanager
def _transaction(db: sqlite3.Connection) -> Iterator[None]:
    """One transaction that takes the write lock at once, so the version read
    inside it cannot change before the write."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def _game_row(db: sqlite3.Connection, game_id: int) -> sqlite3.Row:
    row = db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
    if row is None:
        raise GameNotFound(game_id)
    return row


def _read_log(db: sqlite3.Connection, game_id: int) -> list[LoggedEvent]:
    rows = db.execute("SELECT seq, type, payload, created_at FROM events WHERE game_id = ? ORDER BY seq",
                      (game_id,)).fetchall()
    events = [event_from_json(r["type"], json.loads(r["payload"])) for r in rows]
    kept = set(in_effect(events))
    return [LoggedEvent(r["seq"], e, r["created_at"], i in kept) for i, (r, e) in enumerate(zip(rows, events))]


def _insert_event(db: sqlite3.Connection, game_id: int, seq: int, event: Event, now: str) -> None:
    db.execute("INSERT INTO events (game_id, seq, type, payload, created_at) VALUES (?, ?, ?, ?, ?)",
               (game_id, seq, event.type, json.dumps(event.payload()), now))


def _stored(row: sqlite3.Row, game: TableGame) -> StoredGame:
    return StoredGame(row["id"], row["version"], row["created_at"], row["updated_at"], game)


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")
