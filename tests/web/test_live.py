"""The live stream of a game's changes (server-sent events) on the real
server: a change is pushed at once, the number of streams is bounded so they
cannot take every thread, and stopping the server ends them."""
from __future__ import annotations

import http.client
import json
import threading
from typing import Iterator

import pytest

from companion.web import create_app
from companion.web.live import Hub
from companion.web.server import THREADS, build_server, serve_in_thread

PLAYERS = {"players": [{"name": "Ann", "color": "green"}, {"name": "Bob", "color": "red"}], "doubled": False}


@pytest.fixture
def live_server(database) -> Iterator[tuple[int, object]]:
    app = create_app({"DATABASE": database, "SECRET_KEY": "test", "LIVE_STREAMS": 2, "LIVE_HEARTBEAT_SECONDS": 0.2})
    server = build_server(app, "127.0.0.1", 0)
    thread = serve_in_thread(server)
    yield server.bind_addr[1], server
    server.stop()
    thread.join(timeout=10)


def call(port: int, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request(method, path, json.dumps(body) if body else None,
                           {"Content-Type": "application/json"} if body else {})
        response = connection.getresponse()
        return response.status, json.loads(response.read() or b"{}")
    finally:
        connection.close()


class Stream:
    """One open event stream, read event by event."""

    def __init__(self, port: int, game_id: int) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        self.connection.request("GET", f"/api/games/{game_id}/live")
        self.response = self.connection.getresponse()

    def next(self) -> tuple[str, str]:
        """The next event's name and data ("comment" for a heartbeat, "end" once closed)."""
        name, data = "message", ""
        while True:
            line = self.response.readline().decode()
            if not line:
                return "end", ""
            line = line.rstrip("\n")
            if line.startswith(":") and not data:
                return "comment", line
            if line.startswith("event: "):
                name = line[7:]
            elif line.startswith("data: "):
                data = line[6:]
            elif line == "" and data:
                return name, data

    def next_state(self) -> dict:
        while True:
            name, data = self.next()
            assert name in ("state", "comment"), name
            if name == "state":
                return json.loads(data)

    def close(self) -> None:
        self.connection.close()


def test_a_change_is_pushed_to_a_stream_as_it_happens(live_server):
    port, _server = live_server
    _status, game = call(port, "POST", "/api/games", PLAYERS)
    stream = Stream(port, game["id"])
    try:
        assert stream.response.getheader("Content-Type").startswith("text/event-stream")
        assert stream.next_state()["version"] == 1  # the state now, at once
        assert call(port, "POST", f"/api/games/{game['id']}/reveal", {"card": "S", "version": 1})[0] == 200
        pushed = stream.next_state()
        assert pushed["version"] == 2 and pushed["table"]["notation"] == "S"
        assert stream.next() == ("comment", ": still here")  # the heartbeat while nothing changes
    finally:
        stream.close()


def test_a_maus_au_chocolat_game_is_followed_the_same_way(live_server):
    port, _server = live_server
    _status, game = call(port, "POST", "/api/maus/games",
                         {"players": ["Ann", "Bob"], "oldest": 0, "held": ["mathieu", "lilly"]})
    stream = Stream(port, game["id"])
    try:
        assert stream.next_state()["kind"] == "maus"
        assert call(port, "POST", f"/api/games/{game['id']}/bids", {"coins": [3, 4], "version": 1})[0] == 200
        pushed = stream.next_state()
        assert pushed["version"] == 2 and pushed["phase"] == "laying" and pushed["next_to_lay"] == 0
        assert call(port, "POST", f"/api/games/{game['id']}/undo", {"version": 2})[0] == 200
        assert stream.next_state()["phase"] == "bidding"
    finally:
        stream.close()


def test_a_stream_past_the_bound_takes_the_oldest_place_and_the_rest_still_answer(live_server):
    """A page closed without a word holds its stream until a heartbeat finds it gone:
    a new one takes the oldest place at once, which is told it moved."""
    port, _server = live_server
    _status, game = call(port, "POST", "/api/games", PLAYERS)
    oldest, other = Stream(port, game["id"]), Stream(port, game["id"])
    newest = Stream(port, game["id"])
    try:
        for stream in (oldest, other, newest):
            assert stream.next_state()["version"] == 1
        assert oldest.next() == ("moved", "{}") and oldest.next() == ("end", "")
        assert call(port, "GET", f"/api/games/{game['id']}")[0] == 200  # threads left for the game itself
        assert call(port, "POST", f"/api/games/{game['id']}/reveal", {"card": "A", "version": 1})[0] == 200
        assert other.next_state()["version"] == 2 and newest.next_state()["version"] == 2
    finally:
        for stream in (oldest, other, newest):
            stream.close()


def test_an_unknown_game_has_no_stream(live_server):
    port, _server = live_server
    assert call(port, "GET", "/api/games/42/live")[0] == 404


def test_stopping_the_server_ends_its_streams(database):
    app = create_app({"DATABASE": database, "SECRET_KEY": "test"})  # heartbeat of 15 s: only the stop ends it
    server = build_server(app, "127.0.0.1", 0)
    thread = serve_in_thread(server)
    port = server.bind_addr[1]
    _status, game = call(port, "POST", "/api/games", PLAYERS)
    stream = Stream(port, game["id"])
    stream.next_state()
    ended = []
    reader = threading.Thread(target=lambda: ended.append(stream.next()))
    reader.start()
    server.stop()
    thread.join(timeout=10)
    reader.join(timeout=10)
    assert ended == [("end", "")] and not thread.is_alive()
    assert app.extensions["live"].streams == 0


def test_the_default_bound_leaves_most_of_the_pool_to_other_requests():
    assert Hub().max_streams <= THREADS // 2
