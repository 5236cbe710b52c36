-- The table app's store: games, and the append-only log of their events.
-- A game's state is the replay of its events through the rules engine, so
-- nothing here is ever updated or deleted except a game's version counter.
-- Every statement is idempotent: running the schema again changes nothing.

CREATE TABLE IF NOT EXISTS games (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    created_at  TEXT    NOT NULL,
    updated_at  TEXT    NOT NULL,
    -- the number of events in the log; a write names the version it saw
    version     INTEGER NOT NULL CHECK (version >= 1)
);

CREATE TABLE IF NOT EXISTS events (
    game_id     INTEGER NOT NULL REFERENCES games (id),
    seq         INTEGER NOT NULL CHECK (seq >= 1),
    type        TEXT    NOT NULL,
    payload     TEXT    NOT NULL,  -- JSON, cards in notation ("g:4A+P")
    created_at  TEXT    NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE TRIGGER IF NOT EXISTS events_are_never_changed
BEFORE UPDATE ON events
BEGIN
    SELECT RAISE(ABORT, 'events are append-only');
END;

CREATE TRIGGER IF NOT EXISTS events_are_never_deleted
BEFORE DELETE ON events
BEGIN
    SELECT RAISE(ABORT, 'events are append-only');
END;
