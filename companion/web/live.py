"""Changes pushed to every device as they happen: server-sent events.

A round page opens ``GET /api/games/<id>/live`` (an ``EventSource``) and gets
the game's whole state each time another device changes it, the same JSON
the API answers with. The page falls back to polling when the stream is
refused or lost for good.

The server is one process with a fixed pool of threads (:mod:`.server`), and
a stream holds one of them for as long as it is open. So:

- at most ``LIVE_STREAMS`` streams are open at once (default
  :data:`MAX_STREAMS`, well under the pool's size). One more takes the place
  of the oldest, which is told so (``moved``) and ends: that page polls for a
  while before it tries again. The oldest is most likely a page closed or
  reloaded without a word, whose stream would otherwise hold its thread until
  the next heartbeat finds it gone;
- a stream sends a comment every :data:`HEARTBEAT_SECONDS`, which finds a
  device that left without a word (the write fails) and keeps proxies from
  closing a quiet connection;
- a stream ends after :data:`STREAM_SECONDS` (the browser opens a new one
  by itself), so no thread is held for good by a stuck client;
- :meth:`Hub.close` (called as the server stops, see
  :class:`.server.TableServer`) ends every stream at once instead of keeping
  the shutdown waiting.

Writers call :func:`changed` after their transaction, with the new state
when they have it: the streams of that game send it as it is. Without it
(a deleted game), each stream reads the game's version (one small query) and
reads the state only when it moved.

>>> hub = Hub(max_streams=1)
>>> first = hub.open(); second = hub.open()
>>> first.moved, second.moved, hub.streams
(True, False, 1)
>>> hub.close(); hub.open() is None
True
"""
from __future__ import annotations

import json
import threading
import time
from typing import Any, Iterator

from flask import Blueprint, Flask, Response, current_app

from . import storage
from .db import connect, get_db
from .present import game_json

MAX_STREAMS = 8
HEARTBEAT_SECONDS = 15.0
STREAM_SECONDS = 300.0
RETRY_MS = 2000
KEPT_STATES = 16  # the last state given of this many games, for their streams  # how soon the browser opens a stream again after it ended

bp = Blueprint("live", __name__, url_prefix="/api")


class Place:
    """One stream's place in the hub; ``moved`` once a newer stream took it."""

    def __init__(self) -> None:
        self.moved = False


class Hub:
    """The open streams of one app, and the news of changes to them."""

    def __init__(self, max_streams: int = MAX_STREAMS) -> None:
        self.max_streams = max_streams
        self.closed = False
        self._places: list[Place] = []  # oldest first
        self._changes = 0  # counts every change, whichever game: a stream compares versions itself
        self._latest: dict[int, dict[str, Any]] = {}  # the last state each writer gave, by game
        self._condition = threading.Condition()

    def open(self) -> Place | None:
        """A place for one more stream, taken from the oldest when all are
        taken; None once the hub is closed."""
        with self._condition:
            if self.closed:
                return None
            if len(self._places) >= self.max_streams:
                self._places.pop(0).moved = True
                self._condition.notify_all()
            place = Place()
            self._places.append(place)
            return place

    def done(self, place: Place) -> None:
        with self._condition:
            if place in self._places:
                self._places.remove(place)

    @property
    def streams(self) -> int:
        with self._condition:
            return len(self._places)

    def changed(self, state: dict[str, Any] | None = None) -> None:
        """A game changed; ``state``: its new state, when the writer has it."""
        with self._condition:
            if state is not None:
                known = self._latest.get(state["id"])
                if known is None or known["version"] < state["version"]:
                    self._latest.pop(state["id"], None)
                    self._latest[state["id"]] = state
                    while len(self._latest) > KEPT_STATES:  # the games played least recently go first
                        self._latest.pop(next(iter(self._latest)))
            self._changes += 1
            self._condition.notify_all()

    def latest(self, game_id: int) -> dict[str, Any] | None:
        with self._condition:
            return self._latest.get(game_id)

    def forget(self, game_id: int) -> None:
        with self._condition:
            self._latest.pop(game_id, None)

    def wait(self, place: Place, seen: int, timeout: float) -> int:
        """Block until a change after ``seen`` (the count :meth:`count` gave),
        the place is taken, the hub closes or ``timeout`` passes; the count of
        changes now."""
        with self._condition:
            self._condition.wait_for(lambda: self._changes != seen or self.closed or place.moved, timeout)
            return self._changes

    def count(self) -> int:
        with self._condition:
            return self._changes

    def close(self) -> None:
        """End every stream and refuse new ones: the server is stopping."""
        with self._condition:
            self.closed = True
            self._condition.notify_all()


def hub(app: Flask | None = None) -> Hub:
    return (app or current_app).extensions["live"]


def changed(state: dict[str, Any] | None = None) -> None:
    """Tell the open streams that a game changed (call after the commit), with
    its new state when at hand (:func:`.present.game_json`)."""
    hub().changed(state)


@bp.get("/games/<game:game_id>/live")
def stream(game_id: int) -> Response:
    from .jsonapi import ApiError, or_404

    first = game_json(or_404(storage.load_game, get_db(), game_id))  # an unknown game: 404, no stream
    the_hub = hub()
    place = the_hub.open()
    if place is None:
        raise ApiError(503, "the server is stopping")
    config = current_app.config
    events = _events(the_hub, place, config["DATABASE"], game_id, first,
                     config.get("LIVE_HEARTBEAT_SECONDS", HEARTBEAT_SECONDS),
                     config.get("LIVE_STREAM_SECONDS", STREAM_SECONDS))
    return Response(events, mimetype="text/event-stream",
                    headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


stream.event_stream = True  # type: ignore[attr-defined]  # its answer lasts as long as the stream


def _events(the_hub: Hub, place: Place, database: str, game_id: int, first: dict[str, Any],
            heartbeat: float, lifetime: float) -> Iterator[str]:
    """The stream's text: the state now, then each newer state, heartbeats
    between. It reads on a connection of its own: the request's is closed
    once the response has started."""
    db = None
    try:
        yield f"retry: {RETRY_MS}\nevent: state\ndata: {json.dumps(first)}\n\n"
        db = connect(database)
        version, seen, ends = first["version"], the_hub.count(), time.monotonic() + lifetime
        while not the_hub.closed and time.monotonic() < ends:
            now = the_hub.wait(place, seen, min(heartbeat, max(0.0, ends - time.monotonic())))
            if the_hub.closed:
                return
            if place.moved:
                yield "event: moved\ndata: {}\n\n"
                return
            if now == seen:
                yield ": still here\n\n"
                continue
            seen = now
            current = storage.game_version(db, game_id)
            if current is None:  # deleted meanwhile
                the_hub.forget(game_id)
                yield "event: gone\ndata: {}\n\n"
                return
            if current > version:
                given = the_hub.latest(game_id)
                state = given if given is not None and given["version"] == current \
                    else game_json(storage.load_game(db, game_id))
                version = state["version"]
                yield f"event: state\ndata: {json.dumps(state)}\n\n"
    finally:
        if db is not None:
            db.close()
        the_hub.done(place)


def init_app(app: Flask) -> None:
    app.extensions["live"] = Hub(app.config.get("LIVE_STREAMS", MAX_STREAMS))
    app.register_blueprint(bp)
