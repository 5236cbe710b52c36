-- The table app's store: games, and the append-only log of their events.
-- A game's state is the replay of its events through the rules engine: the
-- log is never updated or deleted. A game's row holds its version counter and
-- what is derived from its log in the same transaction as each event (see
-- storage.py); both derived columns are rebuilt from the log when NULL.
-- Every statement is idempotent: running the schema again changes nothing;
-- db.py adds the columns a database made before them lacks.

CREATE TABLE IF NOT EXISTS games (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    created_at  TEXT    NOT NULL,
    updated_at  TEXT    NOT NULL,
    -- the number of events in the log; a write names the version it saw
    version     INTEGER NOT NULL CHECK (version >= 1),
    -- JSON list of the seqs of the events in effect (the log without what undo took back)
    live        TEXT,
    -- JSON: phase, round, and each player's name, colour and orders delivered
    summary     TEXT
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
