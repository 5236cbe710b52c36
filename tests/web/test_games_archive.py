"""Games put away from the home page: archived (and brought back) or deleted
for good, and the demo game that each new demo replaces."""
from __future__ import annotations

import sqlite3

import pytest

from companion.engine import Color, parse_card
from companion.engine.tablelog import CardRevealed, GameCreated, Seat
from companion.web import storage
from companion.web.db import connect, init_db

from .conftest import form_token

CREATED = GameCreated((Seat("Ann", Color.GREEN), Seat("Bob", Color.RED)))

# the games table as the first schema made it, before demo and archived_at
OLD_SCHEMA = """
CREATE TABLE games (id INTEGER PRIMARY KEY AUTOINCREMENT, created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
                    version INTEGER NOT NULL CHECK (version >= 1));
CREATE TABLE events (game_id INTEGER NOT NULL REFERENCES games (id), seq INTEGER NOT NULL CHECK (seq >= 1),
                     type TEXT NOT NULL, payload TEXT NOT NULL, created_at TEXT NOT NULL, PRIMARY KEY (game_id, seq));
CREATE TRIGGER events_are_never_deleted BEFORE DELETE ON events BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
INSERT INTO games VALUES (1, '2025-01-01T10:00:00+00:00', '2025-01-01T10:00:00+00:00', 1);
INSERT INTO events VALUES (1, 1, 'game_created',
  '{"players": [{"name": "Ann", "color": "green"}, {"name": "Bob", "color": "red"}], "doubled": false}',
  '2025-01-01T10:00:00+00:00');
"""


@pytest.fixture
def db(database):
    init_db(database)
    connection = connect(database)
    yield connection
    connection.close()


def listed(db) -> dict[int, str | None]:
    return {g.id: g.archived_at for g in storage.list_games(db)}


def test_an_archived_game_keeps_its_log_and_comes_back(db):
    game = storage.create_game(db, CREATED)
    storage.append_event(db, game.id, 1, CardRevealed(parse_card("S")))
    storage.set_archived(db, game.id, True)
    assert listed(db)[game.id] is not None
    assert storage.load_game(db, game.id).version == 2  # still playable, untouched
    storage.set_archived(db, game.id, False)
    assert listed(db) == {game.id: None}


def test_a_deleted_game_is_gone_with_its_whole_log(db):
    kept, gone = storage.create_game(db, CREATED), storage.create_game(db, CREATED)
    storage.append_event(db, gone.id, 1, CardRevealed(parse_card("S")))
    storage.delete_game(db, gone.id)
    with pytest.raises(storage.GameNotFound):
        storage.load_game(db, gone.id)
    assert db.execute("SELECT COUNT(*) FROM events WHERE game_id = ?", (gone.id,)).fetchone()[0] == 0
    assert list(listed(db)) == [kept.id]
    with pytest.raises(storage.GameNotFound):
        storage.delete_game(db, gone.id)


def test_events_of_a_game_still_there_are_never_deleted(db):
    game = storage.create_game(db, CREATED)
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        db.execute("DELETE FROM events WHERE game_id = ?", (game.id,))


def test_a_new_demo_replaces_the_last_one_and_leaves_other_games(db):
    played = storage.create_game(db, CREATED)
    first = storage.replace_demo(db, CREATED)
    second = storage.replace_demo(db, CREATED)
    assert second.demo and not played.demo
    assert sorted(listed(db)) == [played.id, second.id] and first.id not in listed(db)
    assert storage.load_game(db, second.id).demo


def test_a_database_from_before_gets_the_new_columns_and_keeps_its_games(tmp_path):
    path = str(tmp_path / "old.sqlite")
    old = sqlite3.connect(path)
    old.executescript(OLD_SCHEMA)
    old.close()
    init_db(path)
    db = connect(path)
    try:
        [game] = storage.list_games(db)
        assert (game.id, game.demo, game.archived_at) == (1, False, None)
        storage.set_archived(db, 1, True)
        storage.delete_game(db, 1)  # the old trigger made way for the one that lets a whole game go
        assert storage.list_games(db) == []
    finally:
        db.close()


def test_the_home_page_archives_brings_back_and_deletes_after_asking(client, new_table):
    kept, table = new_table(), new_table()
    home = client.get("/").get_data(as_text=True)
    token = form_token(home)
    assert f'action="/games/{table.id}/archive"' in home

    archived = client.post(f"/games/{table.id}/archive", data={"csrf_token": token})
    assert archived.status_code == 303 and archived.headers["Location"] == f"/?archived={table.id}"
    page = client.get(archived.headers["Location"]).get_data(as_text=True)
    assert 'id="archived-notice"' in page and f'action="/games/{table.id}/restore"' in page
    assert 'id="archived-games"' in page
    assert client.get(f"/api/games/{table.id}").status_code == 200  # kept

    assert client.post(f"/games/{table.id}/restore", data={"csrf_token": token}).status_code == 303
    assert 'id="archived-games"' not in client.get("/").get_data(as_text=True)

    question = client.get(f"/games/{table.id}/delete")
    assert question.status_code == 200 and "gone for good" in question.get_data(as_text=True)
    assert client.get(f"/api/games/{table.id}").status_code == 200  # asking deletes nothing
    assert client.post(f"/games/{table.id}/delete", data={"csrf_token": token}).status_code == 303
    assert client.get(f"/api/games/{table.id}").status_code == 404
    assert client.get(f"/api/games/{kept.id}").status_code == 200


def test_archive_and_delete_need_the_form_token_and_a_real_game(client, table):
    assert client.post(f"/games/{table.id}/delete").status_code == 400
    assert client.post(f"/games/{table.id}/archive").status_code == 400
    assert client.get(f"/api/games/{table.id}").status_code == 200
    token = form_token(client.get("/").get_data(as_text=True))
    assert client.post("/games/99/delete", data={"csrf_token": token}).status_code == 404
    assert client.post("/games/99/archive", data={"csrf_token": token}).status_code == 404
    assert client.get("/games/99/delete").status_code == 404


def test_demo_round_twice_leaves_one_demo_game(client):
    token = form_token(client.get("/").get_data(as_text=True))
    first = client.post("/demo", data={"csrf_token": token}).headers["Location"]
    second = client.post("/demo", data={"csrf_token": token}).headers["Location"]
    games = client.get("/api/games").get_json()["games"]
    assert [g["demo"] for g in games] == [True] and second.endswith(f"/games/{games[0]['id']}")
    assert client.get(first).status_code == 404
