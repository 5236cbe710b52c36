"""The SQLite connection of a request, and the schema.

One connection per request on :data:`flask.g`, closed when the request ends.
Connections run in autocommit mode: :mod:`.storage` opens every transaction
itself (``BEGIN IMMEDIATE``), so one accepted action is one transaction.
"""
from __future__ import annotations

import os
import sqlite3
from importlib import resources

from flask import Flask, current_app, g

# a second tablet writing at the same moment waits this long for the lock
BUSY_TIMEOUT_SECONDS = 10.0


def connect(path: str) -> sqlite3.Connection:
    """A connection with rows by column name and foreign keys enforced."""
    db = sqlite3.connect(path, timeout=BUSY_TIMEOUT_SECONDS, isolation_level=None)
    db.row_factory = sqlite3.Row
    db.execute("PRAGMA foreign_keys = ON")
    return db


def get_db() -> sqlite3.Connection:
    """The connection of the current request, opened on first use."""
    if "db" not in g:
        g.db = connect(current_app.config["DATABASE"])
    return g.db


def close_db(error: BaseException | None = None) -> None:
    db = g.pop("db", None)
    if db is not None:
        db.close()


def schema() -> str:
    return resources.files("companion.web").joinpath("schema.sql").read_text("utf-8")


def init_db(path: str) -> None:
    """Create the tables that are missing; existing games are kept. The
    database (players' names, every game) is readable by its owner only."""
    if path != ":memory:":
        os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
        os.chmod(path, 0o600)
    db = connect(path)
    try:
        # WAL lets a tablet read while another one writes
        db.execute("PRAGMA journal_mode = WAL")
        db.executescript(schema())
        _add_missing_columns(db)
    finally:
        db.close()


# columns added since the first schema: (table, column, declaration); NULL until rebuilt.
# Every game stored before there were two was a game of Mamma Mia!: its kind says so.
ADDED_COLUMNS = (("games", "live", "TEXT"), ("games", "summary", "TEXT"),
                 ("games", "demo", "INTEGER NOT NULL DEFAULT 0"), ("games", "archived_at", "TEXT"),
                 ("games", "kind", "TEXT NOT NULL DEFAULT 'mamma-mia'"))


def _add_missing_columns(db: sqlite3.Connection) -> None:
    """SQLite has no ADD COLUMN IF NOT EXISTS: look, then add."""
    for table, column, declaration in ADDED_COLUMNS:
        present = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
        if column not in present:
            db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {declaration}")


def init_app(app: Flask) -> None:
    app.teardown_appcontext(close_db)
