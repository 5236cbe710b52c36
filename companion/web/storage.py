"""Games kept as append-only event logs in SQLite. All of the app's SQL is here.

A game's state is never stored: it is the replay of its log through the rules
engine (:class:`TableGame`). An action is checked against that state and, only
if the engine accepts it, appended in the same transaction that checked it.

Two things derived from the log are kept beside it, in the same transaction
as each event, so neither a write nor the list of games reads a whole
history: the sequence numbers of the events still in effect (``live``: what
undo has not taken back, the only events a replay needs) and a
:class:`GameSummary` for the list. Either is rebuilt from the log when
missing (a database from before they were kept).

Concurrency is optimistic: every write names the ``version`` (the number of
events) the client last saw; if another device wrote in between, the write is
refused with :class:`StaleWrite` and nothing changes.

Undo appends an ``undo`` event that takes back the last event still in effect;
history is never rewritten, and deleted only with its whole game (triggers in
``schema.sql`` refuse anything else). A game can be archived instead: it
leaves the list and comes back unchanged. A demo game is replaced by the next
demo, so trying the demo again leaves one game behind, not one per try.
"""
from __future__ import annotations

import json
import sqlite3
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Iterator

from ..engine.table import TableGame
from ..engine.tablelog import Event, GameCreated, Undo, event_from_json, in_effect


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
    demo: bool = False


@dataclass(frozen=True)
class PlayerSummary:
    name: str
    color: str
    delivered: int


@dataclass(frozen=True)
class GameSummary:
    """What the list of games shows of one game.

    >>> summary = GameSummary("evaluating", 1, (PlayerSummary("Ann", "green", 2),))
    >>> GameSummary.from_payload(summary.payload()) == summary
    True
    """

    phase: str
    round: int
    players: tuple[PlayerSummary, ...]

    @classmethod
    def of(cls, game: TableGame) -> GameSummary:
        return cls(game.phase.value, game.round,
                   tuple(PlayerSummary(s.name, s.color.value, len(game.delivered(s.color))) for s in game.seats))

    def payload(self) -> dict[str, Any]:
        return {"phase": self.phase, "round": self.round,
                "players": [{"name": p.name, "color": p.color, "delivered": p.delivered} for p in self.players]}

    @classmethod
    def from_payload(cls, data: dict[str, Any]) -> GameSummary:
        return cls(data["phase"], data["round"], tuple(PlayerSummary(**p) for p in data["players"]))


@dataclass(frozen=True)
class ListedGame:
    """A line of the list of games: no replay needed."""

    id: int
    version: int
    created_at: str
    updated_at: str
    summary: GameSummary
    demo: bool = False
    archived_at: str | None = None


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
    with _transaction(db):
        return _insert_game(db, created, game, demo=False)


def replace_demo(db: sqlite3.Connection, created: GameCreated) -> StoredGame:
    """Start a demo game in place of the demo games there were (one transaction)."""
    game = TableGame(created)
    with _transaction(db):
        for row in db.execute("SELECT id FROM games WHERE demo = 1").fetchall():
            _delete(db, row["id"])
        return _insert_game(db, created, game, demo=True)


def delete_game(db: sqlite3.Connection, game_id: int) -> None:
    """Remove a game and its whole log (raises :class:`GameNotFound`)."""
    with _transaction(db):
        _game_row(db, game_id)
        _delete(db, game_id)


def set_archived(db: sqlite3.Connection, game_id: int, archived: bool) -> None:
    """Take a game off the list (``archived``) or bring it back; its log is untouched."""
    with _transaction(db):
        _game_row(db, game_id)
        db.execute("UPDATE games SET archived_at = ? WHERE id = ?", (_now() if archived else None, game_id))


def undo_target(db: sqlite3.Connection, game_id: int) -> tuple[int, Event | None]:
    """The game's version and the event an undo at that version would take
    back (None: nothing to take back)."""
    row = _game_row(db, game_id)
    live = json.loads(row["live"]) if row["live"] is not None else [
        e.seq for e in _read_log(db, game_id) if e.in_effect]
    if len(live) < 2:  # the game's creation is never taken back
        return row["version"], None
    found = db.execute("SELECT type, payload FROM events WHERE game_id = ? AND seq = ?",
                       (game_id, live[-1])).fetchone()
    return row["version"], event_from_json(found["type"], json.loads(found["payload"]))


def load_game(db: sqlite3.Connection, game_id: int) -> StoredGame:
    row = _game_row(db, game_id)
    return _stored(row, _replay_live(db, row)[0])


def game_version(db: sqlite3.Connection, game_id: int) -> int | None:
    """The game's version without replaying it; None when there is no such game."""
    row = db.execute("SELECT version FROM games WHERE id = ?", (game_id,)).fetchone()
    return None if row is None else int(row["version"])


def list_games(db: sqlite3.Connection) -> list[ListedGame]:
    """Every game, newest first, from the summaries kept with each write;
    the archived ones too (``archived_at`` says which)."""
    rows = db.execute("SELECT * FROM games ORDER BY id DESC").fetchall()
    if any(row["summary"] is None for row in rows):
        _keep_derived(db, [row for row in rows if row["summary"] is None])
        rows = db.execute("SELECT * FROM games ORDER BY id DESC").fetchall()
    return [ListedGame(row["id"], row["version"], row["created_at"], row["updated_at"],
                       GameSummary.from_payload(json.loads(row["summary"])), bool(row["demo"]), row["archived_at"])
            for row in rows]


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
        game, live = _replay_live(db, row)
        game.apply(event)
        version = row["version"] + 1
        live = live[:-1] if isinstance(event, Undo) else [*live, version]  # undo takes back the last in effect
        _insert_event(db, game_id, version, event, now)
        updated = db.execute("UPDATE games SET version = ?, updated_at = ?, live = ?, summary = ? "
                             "WHERE id = ? AND version = ?",
                             (version, now, json.dumps(live), _summary_text(game), game_id, seen_version))
        assert updated.rowcount == 1  # the immediate transaction holds the write lock
    return StoredGame(game_id, version, row["created_at"], now, game, bool(row["demo"]))


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


def _insert_game(db: sqlite3.Connection, created: GameCreated, game: TableGame, demo: bool) -> StoredGame:
    now = _now()
    cursor = db.execute("INSERT INTO games (created_at, updated_at, version, live, summary, demo) "
                        "VALUES (?, ?, 1, '[1]', ?, ?)", (now, now, _summary_text(game), int(demo)))
    game_id = int(cursor.lastrowid)  # type: ignore[arg-type]
    _insert_event(db, game_id, 1, created, now)
    return StoredGame(game_id, 1, now, now, game, demo)


def _delete(db: sqlite3.Connection, game_id: int) -> None:
    """The game's row first: the trigger lets its events go only once it is
    gone, and the foreign key is checked at the commit, when both are."""
    db.execute("PRAGMA defer_foreign_keys = ON")
    db.execute("DELETE FROM games WHERE id = ?", (game_id,))
    db.execute("DELETE FROM events WHERE game_id = ?", (game_id,))


def _game_row(db: sqlite3.Connection, game_id: int) -> sqlite3.Row:
    row = db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
    if row is None:
        raise GameNotFound(game_id)
    return row


def _replay_live(db: sqlite3.Connection, row: sqlite3.Row) -> tuple[TableGame, list[int]]:
    """The game replayed from its events in effect, and their sequence numbers."""
    if row["live"] is None:
        log = _read_log(db, row["id"])
        live = [e.seq for e in log if e.in_effect]
        return TableGame.replay([e.event for e in log if e.in_effect]), live
    live = json.loads(row["live"])
    rows = db.execute("SELECT type, payload FROM events WHERE game_id = ? "
                      "AND seq IN (SELECT value FROM json_each(?)) ORDER BY seq", (row["id"], row["live"]))
    return TableGame.replay([event_from_json(r["type"], json.loads(r["payload"])) for r in rows]), live


def _keep_derived(db: sqlite3.Connection, rows: list[sqlite3.Row]) -> None:
    """Rebuild and keep what is derived from the logs of ``rows``; a game
    written meanwhile keeps what its write stored."""
    with _transaction(db):
        for row in rows:
            game, live = _replay_live(db, row)
            db.execute("UPDATE games SET live = ?, summary = ? WHERE id = ? AND version = ?",
                       (json.dumps(live), _summary_text(game), row["id"], row["version"]))


def _summary_text(game: TableGame) -> str:
    return json.dumps(GameSummary.of(game).payload())


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
    return StoredGame(row["id"], row["version"], row["created_at"], row["updated_at"], game, bool(row["demo"]))


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")
