"""Games kept as append-only event logs in SQLite. All of the app's SQL is here.

A game's state is never stored: it is the replay of its log through its
game's rules engine, found by the game's kind (``games.kind``, see
:mod:`.kinds`); nothing here knows one game from another. An action is checked against that state and, only
if the engine accepts it, appended in the same transaction that checked it.

Two things derived from the log are kept beside it, in the same transaction
as each event, so neither a write nor the list of games reads a whole
history: the sequence numbers of the events still in effect (``live``: what
undo has not taken back, the only events a replay needs) and the game's
summary for the list (:meth:`.kinds.GameKind.summary`). Either is rebuilt from the log when
missing (a database from before they were kept).

Concurrency is optimistic: every write names the ``version`` (the number of
events) the client last saw; if another device wrote in between, the write is
refused with :class:`StaleWrite` and nothing changes.

Undo appends an ``undo`` event that takes back the last event still in effect
(for every game alike: the game is replayed without it);
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

from .kinds import GameKind, Undo, kind, kind_starting

Event = Any  # one game's event: its kind reads and applies it


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


class NothingToUndo(ValueError):
    """An undo with only the game's set-up in effect."""

    def __init__(self) -> None:
        super().__init__("nothing to undo: the game has only just been set up")


class WrongKind(ValueError):
    """An action of one game sent to a game of another."""

    def __init__(self, game_id: int, kind_name: str) -> None:
        super().__init__(f"game {game_id} is a game of {kind_name}: this action belongs to another game")
        self.kind = kind_name


@dataclass(frozen=True)
class StoredGame:
    """A game as loaded: its id, its version, its replayed state, its kind
    and whether an undo has anything to take back."""

    id: int
    version: int
    created_at: str
    updated_at: str
    game: Any
    demo: bool = False
    kind: str = "mamma-mia"
    undoable: bool = False

    @property
    def game_kind(self) -> GameKind:
        return kind(self.kind)


@dataclass(frozen=True)
class ListedGame:
    """A line of the list of games: no replay needed."""

    id: int
    version: int
    created_at: str
    updated_at: str
    summary: dict[str, Any]  # the kind's summary (:meth:`.kinds.GameKind.summary`)
    demo: bool = False
    archived_at: str | None = None
    kind: str = "mamma-mia"


@dataclass(frozen=True)
class LoggedEvent:
    """One line of a game's log; ``in_effect`` is false once undone."""

    seq: int
    event: Event
    created_at: str
    in_effect: bool


def create_game(db: sqlite3.Connection, created: Event) -> StoredGame:
    """Start a game of the kind ``created`` sets up; its engine checks the
    set-up first (raising one of the kind's refusals)."""
    game_kind = kind_starting(created)
    game = game_kind.replay([created])
    with _transaction(db):
        return _insert_game(db, game_kind, created, game, demo=False)


def replace_demo(db: sqlite3.Connection, created: Event) -> StoredGame:
    """Start a demo game in place of the demo games there were (one transaction)."""
    game_kind = kind_starting(created)
    game = game_kind.replay([created])
    with _transaction(db):
        for row in db.execute("SELECT id FROM games WHERE demo = 1").fetchall():
            _delete(db, row["id"])
        return _insert_game(db, game_kind, created, game, demo=True)


def latest_start(db: sqlite3.Connection, kind_name: str) -> Event | None:
    """The set-up of the newest game of a kind (None: none yet), for what a
    table confirmed once and keeps for its next games."""
    row = db.execute("SELECT e.type, e.payload FROM events e JOIN games g ON g.id = e.game_id "
                     "WHERE g.kind = ? AND e.seq = 1 ORDER BY g.id DESC LIMIT 1", (kind_name,)).fetchone()
    return None if row is None else kind(kind_name).event_from_json(row["type"], json.loads(row["payload"]))


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
    live = _live(db, row)
    if len(live) < 2:  # the game's creation is never taken back
        return row["version"], None
    found = db.execute("SELECT type, payload FROM events WHERE game_id = ? AND seq = ?",
                       (game_id, live[-1])).fetchone()
    return row["version"], _decode(kind(row["kind"]), found["type"], json.loads(found["payload"]))


def load_game(db: sqlite3.Connection, game_id: int, kind_name: str | None = None) -> StoredGame:
    """The game replayed; with ``kind_name``, a game of another kind is
    refused with :class:`WrongKind`."""
    row = _game_row(db, game_id)
    if kind_name is not None and row["kind"] != kind_name:
        raise WrongKind(game_id, row["kind"])
    game, live = _replay_live(db, row)
    return _stored(row, game, live)


def game_version(db: sqlite3.Connection, game_id: int) -> int | None:
    """The game's version without replaying it; None when there is no such game."""
    row = db.execute("SELECT version FROM games WHERE id = ?", (game_id,)).fetchone()
    return None if row is None else int(row["version"])


def kind_name(db: sqlite3.Connection, game_id: int) -> str | None:
    """Which game it is (``mamma-mia``, ``maus``), without replaying it; None when there is no such game."""
    row = db.execute("SELECT kind FROM games WHERE id = ?", (game_id,)).fetchone()
    return None if row is None else str(row["kind"])


def list_games(db: sqlite3.Connection) -> list[ListedGame]:
    """Every game, newest first, from the summaries kept with each write;
    the archived ones too (``archived_at`` says which)."""
    rows = db.execute("SELECT * FROM games ORDER BY id DESC").fetchall()
    if any(row["summary"] is None for row in rows):
        _keep_derived(db, [row for row in rows if row["summary"] is None])
        rows = db.execute("SELECT * FROM games ORDER BY id DESC").fetchall()
    return [ListedGame(row["id"], row["version"], row["created_at"], row["updated_at"],
                       json.loads(row["summary"]), bool(row["demo"]), row["archived_at"], row["kind"])
            for row in rows]


def event_log(db: sqlite3.Connection, game_id: int) -> list[LoggedEvent]:
    """The whole log, undone events included and marked."""
    _game_row(db, game_id)
    return _read_log(db, game_id)


def append_event(db: sqlite3.Connection, game_id: int, seen_version: int, event: Event) -> StoredGame:
    """Apply ``event`` if the game is still at ``seen_version`` and its
    engine accepts it; one transaction. An ``undo`` event (any game's)
    takes back the last event in effect. Raises :class:`GameNotFound`,
    :class:`StaleWrite`, :class:`WrongKind`, :class:`NothingToUndo` or one of
    the kind's refusals; on any error nothing is written."""
    now = _now()
    with _transaction(db):
        row = _game_row(db, game_id)
        if row["version"] != seen_version:
            raise StaleWrite(game_id, seen_version, row["version"])
        game_kind = kind(row["kind"])
        version = row["version"] + 1
        if event.type == Undo.type:
            live = _live(db, row)
            if len(live) < 2:  # the game's creation is never taken back
                raise NothingToUndo()
            live = live[:-1]
            game = game_kind.replay(_events(db, game_kind, game_id, live))
        elif not game_kind.owns(event):
            raise WrongKind(game_id, row["kind"])
        else:
            game, live = _replay_live(db, row)
            game_kind.apply(game, event)
            live = [*live, version]
        _insert_event(db, game_id, version, event, now)
        updated = db.execute("UPDATE games SET version = ?, updated_at = ?, live = ?, summary = ? "
                             "WHERE id = ? AND version = ?",
                             (version, now, json.dumps(live), _summary_text(game_kind, game), game_id, seen_version))
        assert updated.rowcount == 1  # the immediate transaction holds the write lock
    return StoredGame(game_id, version, row["created_at"], now, game, bool(row["demo"]), row["kind"], len(live) > 1)


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


def _insert_game(db: sqlite3.Connection, game_kind: GameKind, created: Event, game: Any, demo: bool) -> StoredGame:
    now = _now()
    cursor = db.execute("INSERT INTO games (created_at, updated_at, version, live, summary, demo, kind) "
                        "VALUES (?, ?, 1, '[1]', ?, ?, ?)",
                        (now, now, _summary_text(game_kind, game), int(demo), game_kind.name))
    game_id = int(cursor.lastrowid)  # type: ignore[arg-type]
    _insert_event(db, game_id, 1, created, now)
    return StoredGame(game_id, 1, now, now, game, demo, game_kind.name, False)


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


def _live(db: sqlite3.Connection, row: sqlite3.Row) -> list[int]:
    """The sequence numbers of the events in effect."""
    if row["live"] is not None:
        return json.loads(row["live"])
    types = [r["type"] for r in db.execute("SELECT type FROM events WHERE game_id = ? ORDER BY seq", (row["id"],))]
    return [index + 1 for index in in_effect(types)]


def _events(db: sqlite3.Connection, game_kind: GameKind, game_id: int, seqs: list[int]) -> list[Event]:
    rows = db.execute("SELECT type, payload FROM events WHERE game_id = ? "
                      "AND seq IN (SELECT value FROM json_each(?)) ORDER BY seq", (game_id, json.dumps(seqs)))
    return [_decode(game_kind, r["type"], json.loads(r["payload"])) for r in rows]


def _replay_live(db: sqlite3.Connection, row: sqlite3.Row) -> tuple[Any, list[int]]:
    """The game replayed from its events in effect, and their sequence numbers."""
    game_kind, live = kind(row["kind"]), _live(db, row)
    return game_kind.replay(_events(db, game_kind, row["id"], live)), live


def in_effect(types: list[str]) -> list[int]:
    """Indices of the events an undo has not taken back, by the events'
    types; the first (the game's set-up) is never taken back.

    >>> in_effect(["game_created", "round_ended", "round_ended", "undo", "round_ended", "undo", "undo"])
    [0]
    """
    kept: list[int] = []
    for index, type_ in enumerate(types):
        if type_ == Undo.type:
            if len(kept) > 1:
                kept.pop()
        else:
            kept.append(index)
    return kept


def _decode(game_kind: GameKind, type_: str, payload: Any) -> Event:
    """An event of the log read back by its game's kind (``undo`` among them)."""
    return game_kind.event_from_json(type_, payload)


def _keep_derived(db: sqlite3.Connection, rows: list[sqlite3.Row]) -> None:
    """Rebuild and keep what is derived from the logs of ``rows``; a game
    written meanwhile keeps what its write stored."""
    with _transaction(db):
        for row in rows:
            game, live = _replay_live(db, row)
            db.execute("UPDATE games SET live = ?, summary = ? WHERE id = ? AND version = ?",
                       (json.dumps(live), _summary_text(kind(row["kind"]), game), row["id"], row["version"]))


def _summary_text(game_kind: GameKind, game: Any) -> str:
    return json.dumps(game_kind.summary(game))


def _read_log(db: sqlite3.Connection, game_id: int) -> list[LoggedEvent]:
    game_kind = kind(_game_row(db, game_id)["kind"])
    rows = db.execute("SELECT seq, type, payload, created_at FROM events WHERE game_id = ? ORDER BY seq",
                      (game_id,)).fetchall()
    events = [_decode(game_kind, r["type"], json.loads(r["payload"])) for r in rows]
    kept = set(in_effect([r["type"] for r in rows]))
    return [LoggedEvent(r["seq"], e, r["created_at"], i in kept) for i, (r, e) in enumerate(zip(rows, events))]


def _insert_event(db: sqlite3.Connection, game_id: int, seq: int, event: Event, now: str) -> None:
    db.execute("INSERT INTO events (game_id, seq, type, payload, created_at) VALUES (?, ?, ?, ?, ?)",
               (game_id, seq, event.type, json.dumps(event.payload()), now))


def _stored(row: sqlite3.Row, game: Any, live: list[int]) -> StoredGame:
    return StoredGame(row["id"], row["version"], row["created_at"], row["updated_at"], game, bool(row["demo"]),
                      row["kind"], len(live) > 1)


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")
