"""Requests built to break the server get a clear 4xx and change nothing:
JSON nested past Python's limits, game ids beyond SQLite's range, and
``next`` addresses that would lead off the site."""
from __future__ import annotations


import pytest

from .conftest import form_token

DEEP = "[" * 5000
NESTED_IN_FIELD = '{"players": ' + "[" * 5000 + "]" * 5000 + "}"
TOO_LARGE = 2**63  # one past the largest id SQLite can store


def csrf_token(client) -> str:
    return form_token(client.get("/").get_data(as_text=True))


def json_endpoints(game_id: int) -> list[str]:
    base = f"/api/games/{game_id}"
    return ["/api/games", *(f"{base}/{action}" for action in ("reveal", "decide", "undo", "end-round", "hands")),
            f"{base}/camera/confirm"]


@pytest.mark.parametrize("body", [DEEP, NESTED_IN_FIELD])
def test_deeply_nested_json_is_refused_everywhere(client, table, body):
    before = table.get()
    for path in json_endpoints(table.id):
        response = client.post(path, data=body, content_type="application/json")
        assert response.status_code == 400, path
        assert response.get_json()["error"], path
    assert table.get() == before
    assert client.get("/api/games").get_json() == client.get("/api/games").get_json()


@pytest.mark.parametrize("path", [
    "/api/games/{id}", "/api/games/{id}/export.json", "/api/games/{id}/export.csv", "/games/{id}",
    "/games/{id}/scores",
])
@pytest.mark.parametrize("game_id", [TOO_LARGE, 10**30, 0])
def test_ids_beyond_the_database_are_unknown_games(client, table, path, game_id):
    assert client.get(path.format(id=game_id)).status_code == 404


@pytest.mark.parametrize("action", ["reveal", "undo", "decide", "end-round", "frame", "photo"])
def test_writes_to_ids_beyond_the_database_are_unknown_games(client, table, action):
    before = table.get()
    response = client.post(f"/api/games/{TOO_LARGE}/{action}", json={"version": 1})
    assert response.status_code == 404
    assert table.get() == before


@pytest.mark.parametrize("target", [
    "/\t/evil.example", "/\n/evil.example", "/\r\n/evil.example", "//evil.example", "/\\evil.example",
    "https://evil.example", "/ /evil.example", "/games/1\nSet-Cookie: x=1",
])
def test_next_never_leads_off_the_site(client, target):
    join = client.get("/join", query_string={"next": target})
    assert join.status_code == 200
    assert 'name="next" value="/"' in join.get_data(as_text=True)
    response = client.post("/lang", data={"csrf_token": csrf_token(client), "lang": "nl", "next": target})
    assert response.status_code == 303 and response.headers["Location"] == "/"


def test_a_local_next_is_kept(client):
    response = client.post("/lang", data={"csrf_token": csrf_token(client), "lang": "nl", "next": "/games/3/scores"})
    assert response.status_code == 303 and response.headers["Location"] == "/games/3/scores"
