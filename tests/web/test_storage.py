"""The event store: one transaction per action, append-only, optimistic versions."""
import sqlite3

import pytest

from companion.engine import Color, TooManyIngredients, parse_card
from companion.engine.tablelog import CardRevealed, GameCreated, RoundEnded, Seat, Undo
from companion.web import storage
from companion.web.db import connect, init_db

CREATED = GameCreated((Seat("Ann", Color.GREEN), Seat("Bob", Color.RED)))


@pytest.fixture
def db(database):
    init_db(database)
    connection = connect(database)
    yield connection
    connection.close()


def event_count(db) -> int:
    return db.execute("SELECT COUNT(*) FROM events").fetchone()[0]


def test_an_action_is_appended_and_the_version_grows(db):
    game = storage.create_game(db, CREATED)
    stored = storage.append_event(db, game.id, 1, CardRevealed(parse_card("S")))
    assert stored.version == 2 and stored.game.table.notation == "S"
    assert storage.load_game(db, game.id).game.table.notation == "S"


def test_a_refused_action_writes_nothing(db):
    game = storage.create_game(db, CREATED)
    version = 1
    for _ in range(8):
        version = storage.append_event(db, game.id, version, CardRevealed(parse_card("S"))).version
    with pytest.raises(TooManyIngredients):
        storage.append_event(db, game.id, version, CardRevealed(parse_card("S")))
    assert event_count(db) == 9 and storage.load_game(db, game.id).version == 9


def test_a_write_based_on_an_old_version_is_stale(db, database):
    game = storage.create_game(db, CREATED)
    other_tablet = connect(database)
    storage.append_event(other_tablet, game.id, 1, RoundEnded())
    other_tablet.close()
    with pytest.raises(storage.StaleWrite) as stale:
        storage.append_event(db, game.id, 1, Undo())
    assert stale.value.current == 2 and storage.load_game(db, game.id).game.round == 2


def test_history_is_never_changed_or_deleted(db):
    game = storage.create_game(db, CREATED)
    storage.append_event(db, game.id, 1, RoundEnded())
    storage.append_event(db, game.id, 2, Undo())
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        db.execute("DELETE FROM events WHERE seq = 2")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        db.execute("UPDATE events SET type = 'undo' WHERE seq = 1")
    log = storage.event_log(db, game.id)
    assert [(e.seq, e.event.type, e.in_effect) for e in log] == [
        (1, "game_created", True), (2, "round_ended", False), (3, "undo", False)]


def test_unknown_games_are_not_found(db):
    with pytest.raises(storage.GameNotFound, match="there is no game 5"):
        storage.append_event(db, 5, 1, RoundEnded())

