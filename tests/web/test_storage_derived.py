"""What is kept beside the log (the events in effect, the list's summary)
always agrees with a replay of the whole log, and is rebuilt when missing."""
from __future__ import annotations

import random
import sqlite3

import pytest

from companion.engine import Color, RulesError, parse_card
from companion.engine.table import TableGame
from companion.engine.tablelog import CardRevealed, GameCreated, OrderDecided, RoundEnded, Seat, Undo
from companion.web import storage
from companion.web.db import connect, init_db
from companion.web.mammamia.kind import KIND as MAMMA_MIA
from companion.web.mammamia.view import table_view

PLAYERS = GameCreated((Seat("Ann", Color.GREEN), Seat("Bob", Color.RED)))
MOVES = ["S", "A", "M", "P", "O", "S2", "g:4A+P", "r:4S+O", "g:P+3?", "r:15+"]


@pytest.fixture
def db(database):
    init_db(database)
    connection = connect(database)
    yield connection
    connection.close()


def full_replay(db, game_id: int) -> TableGame:
    return TableGame.replay([e.event for e in storage.event_log(db, game_id)])


def random_play(db, game_id: int, seed: int, steps: int) -> None:
    """Reveals, decisions, undos and round ends as a table might tap them,
    refused ones included (they must leave nothing behind)."""
    rng = random.Random(seed)
    for _ in range(steps):
        stored = storage.load_game(db, game_id)
        roll = rng.random()
        if stored.game.pending is not None and roll < 0.5:
            event = OrderDecided(rng.random() < 0.7, None)
        elif roll < 0.25:
            event = Undo()
        elif roll < 0.28:
            event = RoundEnded()
        else:
            event = CardRevealed(parse_card(rng.choice(MOVES)))
        try:
            storage.append_event(db, game_id, stored.version, event)
        except (RulesError, storage.NothingToUndo):  # undo belongs to the shared log, not to the rules
            pass


@pytest.mark.parametrize("seed", range(6))
def test_a_game_loaded_from_its_events_in_effect_is_the_whole_replay(db, seed):
    game_id = storage.create_game(db, PLAYERS).id
    random_play(db, game_id, seed, 120)
    assert len(storage.event_log(db, game_id)) > 40
    loaded = storage.load_game(db, game_id)
    assert table_view(loaded.game) == table_view(full_replay(db, game_id))
    listed = next(g for g in storage.list_games(db) if g.id == game_id)
    assert listed.summary == MAMMA_MIA.summary(loaded.game) and listed.version == loaded.version


def test_a_database_from_before_the_derived_columns_is_completed(database):
    old = sqlite3.connect(database)
    old.executescript("""
        CREATE TABLE games (id INTEGER PRIMARY KEY AUTOINCREMENT, created_at TEXT NOT NULL,
                            updated_at TEXT NOT NULL, version INTEGER NOT NULL CHECK (version >= 1));
        CREATE TABLE events (game_id INTEGER NOT NULL REFERENCES games (id), seq INTEGER NOT NULL,
                             type TEXT NOT NULL, payload TEXT NOT NULL, created_at TEXT NOT NULL,
                             PRIMARY KEY (game_id, seq));
        INSERT INTO games VALUES (1, 't', 't', 4);
        INSERT INTO events VALUES
            (1, 1, 'game_created', '{"players": [{"name": "Ann", "color": "green"},
                                                 {"name": "Bob", "color": "red"}], "doubled": false}', 't'),
            (1, 2, 'card_revealed', '{"card": "S"}', 't'),
            (1, 3, 'card_revealed', '{"card": "A"}', 't'),
            (1, 4, 'undo', '{}', 't');
    """)
    old.close()
    init_db(database)
    db = connect(database)
    listed = storage.list_games(db)
    assert [p["name"] for p in listed[0].summary["players"]] == ["Ann", "Bob"]
    assert listed[0].kind == "mamma-mia"  # the games from before there were two are Mamma Mia!'s
    assert db.execute("SELECT live FROM games").fetchone()[0] == "[1, 2]"
    stored = storage.append_event(db, 1, 4, CardRevealed(parse_card("M")))
    assert [str(c) for c in stored.game.evaluation.revealed] == [str(parse_card(n)) for n in ("S", "M")]
    db.close()
