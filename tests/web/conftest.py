"""Fixtures the Flask tutorial way: an app on a fresh SQLite file and a
fresh instance folder (its decks) per test."""
from __future__ import annotations

from pathlib import Path
import re
from typing import Any, Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.web import create_app


@pytest.fixture(autouse=True)
def instance(tmp_path, monkeypatch) -> Path:
    """Every app of a test keeps its decks here, never in the checkout's instance folder."""
    folder = tmp_path / "instance"
    monkeypatch.setenv("MAMMA_MIA_INSTANCE", str(folder))
    return folder


@pytest.fixture
def database(tmp_path) -> str:
    return str(tmp_path / "mamma-mia.sqlite")


@pytest.fixture
def app(database) -> Flask:
    return create_app({"TESTING": True, "DATABASE": database, "SECRET_KEY": "test"})


@pytest.fixture
def client(app) -> FlaskClient:
    return app.test_client()


class Table:
    """A game driven through the API, remembering the version last seen."""

    def __init__(self, client: FlaskClient, players: list[dict[str, str]], doubled: bool = False) -> None:
        self.start(client, "/api/games", {"players": players, "doubled": doubled})

    def start(self, client: FlaskClient, address: str, setup: dict[str, Any]) -> None:
        """Create the game at ``address`` from ``setup``."""
        self.client = client
        response = client.post(address, json=setup)
        assert response.status_code == 201, response.get_json()
        self.state: dict[str, Any] = response.get_json()
        self.id = self.state["id"]

    @property
    def version(self) -> int:
        return self.state["version"]

    def post(self, action: str, **body: Any):
        """POST with the current version; on success remember the new state."""
        response = self.client.post(f"/api/games/{self.id}/{action}", json={"version": self.version, **body})
        if response.status_code == 200:
            self.state = response.get_json()
        return response

    def ok(self, action: str, **body: Any) -> dict[str, Any]:
        response = self.post(action, **body)
        assert response.status_code == 200, response.get_json()
        return self.state

    def reveal(self, *cards: str) -> dict[str, Any]:
        for card in cards:
            self.ok("reveal", card=card)
        return self.state

    def get(self) -> dict[str, Any]:
        return self.client.get(f"/api/games/{self.id}").get_json()


def form_token(page: str) -> str:
    """The CSRF token a page's forms carry."""
    return re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)


ANN_BOB = [{"name": "Ann", "color": "green"}, {"name": "Bob", "color": "red"}]


@pytest.fixture
def table(client) -> Table:
    return Table(client, ANN_BOB)


@pytest.fixture
def new_table(client) -> Callable[..., Table]:
    return lambda players=ANN_BOB, doubled=False: Table(client, players, doubled)
