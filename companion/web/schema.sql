-- The table app's store: games, and the append-only log of their events.
-- A game's state is the replay of its events through the rules engine: the
-- log is never updated, and deleted only with its whole game. A game's row
-- holds its version counter and what is derived from its log in the same
-- transaction as each event (see storage.py); both derived columns are
-- rebuilt from the log when NULL.
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
    -- JSON: what the list of games shows, as the game's kind summarises it
    summary     TEXT,
    -- 1 for a game started by "Demo round": the next demo replaces it
    demo        INTEGER NOT NULL DEFAULT 0,
    -- when the game was put away from the home page's list (NULL: listed)
    archived_at TEXT,
    -- which game it is (kinds.py): how its events are read and replayed
    kind        TEXT    NOT NULL DEFAULT 'mamma-mia'
);

CREATE TABLE IF NOT EXISTS events (
    game_id     INTEGER NOT NULL REFERENCES games (id),
    seq         INTEGER NOT NULL CHECK (seq >= 1),
    type        TEXT    NOT NULL,
    payload     TEXT    NOT NULL,  -- JSON as the game's kind writes it, cards in notation
    created_at  TEXT    NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE TRIGGER IF NOT EXISTS events_are_never_changed
BEFORE UPDATE ON events
BEGIN
    SELECT RAISE(ABORT, 'events are append-only');
END;

-- A game's events go only with the game itself (storage.delete_game removes
-- the game's row first, in the same transaction): never one by one.
DROP TRIGGER IF EXISTS events_are_never_deleted;
CREATE TRIGGER IF NOT EXISTS events_go_only_with_their_game
BEFORE DELETE ON events
WHEN EXISTS (SELECT 1 FROM games WHERE id = OLD.game_id)
BEGIN
    SELECT RAISE(ABORT, 'events are append-only');
END;
