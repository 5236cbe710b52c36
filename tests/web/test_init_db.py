"""`mamma-mia init-db`: the database of the instance folder, made or brought up to date."""
from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

from companion.cli import main
from companion.web import create_app
from companion.web.db import schema

from .conftest import ANN_BOB


@pytest.fixture
def instance(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "instance"
    monkeypatch.setenv("MAMMA_MIA_INSTANCE", str(folder))
    return folder


def tables(path: Path) -> set[str]:
    with sqlite3.connect(path) as db:
        return {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")}


def test_init_db_creates_the_schema_in_the_instance_folder_and_says_where(instance, capsys):
    assert main(["init-db"]) == 0
    database = instance / "mamma-mia.sqlite"
    assert capsys.readouterr().out == f"Database ready: {database}\n"
    wanted = set(re.findall(r"CREATE TABLE IF NOT EXISTS (\w+)", schema()))
    assert wanted and tables(database) == wanted


def test_init_db_keeps_existing_games(instance, capsys):
    client = create_app({"TESTING": True}).test_client()
    assert client.post("/api/games", json={"players": ANN_BOB}).status_code == 201
    assert main(["init-db"]) == 0
    assert len(client.get("/api/games").get_json()["games"]) == 1


def test_init_db_uses_the_database_config_py_names(instance, tmp_path, capsys):
    elsewhere = tmp_path / "games" / "table.sqlite"
    instance.mkdir()
    (instance / "config.py").write_text(f"DATABASE = {str(elsewhere)!r}\n")
    assert main(["init-db"]) == 0
    assert str(elsewhere) in capsys.readouterr().out and "games" in tables(elsewhere)
    assert not (instance / "mamma-mia.sqlite").exists()


def test_init_db_reports_a_database_it_cannot_write(instance, capsys):
    instance.mkdir()
    (instance / "config.py").write_text("DATABASE = '/proc/no-such-folder/db.sqlite'\n")
    assert main(["init-db"]) == 1
    assert "init-db: cannot write the database" in capsys.readouterr().err


def test_flask_has_no_init_db_command_of_its_own(instance):
    assert "init-db" not in create_app().cli.commands
