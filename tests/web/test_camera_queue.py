"""The frame endpoint around the tracker: what is revealed when, what waits,
and what is refused. A scripted tracker stands in for the real one so each
case says exactly which cards it reports on which frame."""
from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import pytest

from companion.engine.cards import parse_card
from companion.web import create_app
from companion.web.scanning import Scanner
from vision.recognize.types import Match
from vision.track.types import Landing

from .conftest import Table

DEVICE = "tablet-1"


def blank_jpeg() -> bytes:
    return cv2.imencode(".jpg", np.full((90, 160, 3), 120, np.uint8))[1].tobytes()


def seen(card: str, confidence: float, candidates: str = "", others: str = "") -> Match:
    """A reading as the recogniser gives it: ``candidates`` the close faces not
    ruled out ("g:4M+P y:4A+P"), ``others`` the rest with their similarity
    ("S=0.4 O=0.3"); the runner-up follows from them."""
    close = tuple(parse_card(c) for c in candidates.split())
    rest = tuple((parse_card(c), float(s)) for c, s in (item.split("=") for item in others.split()))
    runner_up, runner_up_confidence = (close[0], confidence) if close else rest[0] if rest else (None, 0.0)
    return Match(parse_card(card), confidence, False, runner_up, runner_up_confidence, close, rest)


class ScriptedTracker:
    """Reports the cards scripted for each frame: a :class:`Match`, or
    ``(card, confidence, runner_up, runner_up_confidence)``."""

    def __init__(self, script: list[list[Any]]) -> None:
        self.script, self.frames = list(script), 0

    def feed(self, frame: np.ndarray, time: float | None = None) -> list[Landing]:
        self.frames += 1
        reports = self.script.pop(0) if self.script else []
        return [Landing(r if isinstance(r, Match) else Match(parse_card(r[0]), r[1], False,
                                                             parse_card(r[2]) if r[2] else None, r[3]),
                        self.frames, time, np.zeros((4, 2), np.float32)) for r in reports]

    def finish(self) -> list[Landing]:
        return []

    def status(self) -> str:
        return "settled" if self.frames else "waiting"

    top_card = None


@pytest.fixture
def app(database):
    return create_app({"TESTING": True, "DATABASE": database, "SECRET_KEY": "test", "CAMERA_MAX_FPS": 1000})


@pytest.fixture
def script(monkeypatch):
    """``script([...])`` makes the next camera session's tracker report those cards."""
    def use(frames: list[list[Any]]) -> None:
        monkeypatch.setattr(Scanner, "new_tracker", lambda self: ScriptedTracker(frames))
    return use


def frame(table: Table, t: float, device: str = DEVICE, body: bytes | None = None,
          content_type: str = "image/jpeg") -> Any:
    response = table.client.post(f"/api/games/{table.id}/frame?device={device}&t={t}",
                                 data=blank_jpeg() if body is None else body, content_type=content_type)
    if response.status_code == 200:
        table.state = response.get_json()
    return response


def cards(state: dict) -> list[str]:
    return [e["card"] for e in state["timeline"]]


def test_sure_cards_are_revealed_in_order_with_their_capture_time(table, script):
    script([[("S", 0.95, "O", 0.3)], [], [("A", 0.9, "O", 0.5), ("M", 0.9, "S", 0.4)]])
    first = frame(table, 1000).get_json()
    assert cards(first) == ["S"] and first["version"] == 2
    assert first["camera"]["landed"] == [{"card": "S", "index": 0, "captured": 1000.0}]
    frame(table, 1125)
    third = frame(table, 1250).get_json()
    assert cards(third) == ["S", "A", "M"]
    assert [entry["captured"] for entry in third["camera"]["landed"]] == [1250.0, 1250.0]
    assert table.get()["version"] == 4  # what the camera revealed is in the log like a tap


def test_an_unsure_card_waits_for_a_tap_and_holds_the_later_cards_back(table, script, client):
    script([[("S", 0.95, "O", 0.3)], [("A", 0.70, "O", 0.68)], [("M", 0.95, "S", 0.3)]])
    frame(table, 1000)
    frame(table, 1100)
    state = frame(table, 1200).get_json()
    assert cards(state) == ["S"]  # M was seen after the unsure card: it waits behind it
    choose = state["camera"]["choose"]
    assert (choose["card"], choose["runner_up"]) == ("A", "O")
    assert state["camera"]["queued"] == 2

    stale = client.post(f"/api/games/{table.id}/camera/confirm", json={"device": DEVICE, "id": 999, "card": "O"})
    assert stale.status_code == 409
    picked = client.post(f"/api/games/{table.id}/camera/confirm",
                         json={"device": DEVICE, "id": choose["id"], "card": "O"})
    assert picked.status_code == 200
    assert cards(picked.get_json()) == ["S", "O", "M"]
    assert [entry["captured"] for entry in picked.get_json()["camera"]["landed"]] == [None, None]
    assert picked.get_json()["camera"]["choose"] is None


def test_neither_drops_the_unsure_card(table, script, client):
    script([[("A", 0.70, "O", 0.68), ("M", 0.95, "S", 0.3)]])
    choose = frame(table, 1000).get_json()["camera"]["choose"]
    picked = client.post(f"/api/games/{table.id}/camera/confirm",
                         json={"device": DEVICE, "id": choose["id"], "card": None})
    assert cards(picked.get_json()) == ["M"]


def test_cards_seen_while_an_order_waits_are_revealed_after_the_decision(table, script):
    table.reveal("A", "A", "A")
    script([[("g:4A+P", 0.95, "g:4M+P", 0.4)], [("M", 0.95, "S", 0.3)]])
    state = frame(table, 1000).get_json()
    assert state["pending"]["card"] == "g:4A+P"
    state = frame(table, 1100).get_json()
    assert state["camera"]["status"] == "paused" and state["camera"]["queued"] == 1
    assert cards(state) == ["A", "A", "A", "g:4A+P"]

    table.ok("decide", accept=True, choice=None)
    state = frame(table, 1200).get_json()
    assert cards(state) == ["A", "A", "A", "g:4A+P", "M"]
    assert state["timeline"][3]["outcome"]["fulfilled"] is True
    # M waited for the decision: its capture time would not measure the camera's latency
    assert state["camera"]["landed"] == [{"card": "M", "index": 4, "captured": None}]


def test_a_reading_the_rules_rule_out_is_never_proposed_nor_sure(table, script, client):
    # yellow is nobody's colour at this table: the vision's sure card cannot be the one
    script([[seen("y:4A+P", 0.95, others="g:4A+P=0.5 O=0.3")]])
    state = frame(table, 1000).get_json()
    assert cards(state) == [] and state["pending"] is None
    choose = state["camera"]["choose"]
    assert choose["card"] == "g:4A+P" and choose["sure"] is False
    assert choose["candidates"] == ["g:4A+P", "O"] and "y:4A+P" not in choose["candidates"]
    refused = state["camera"]["refused"]
    assert refused == [{"card": "y:4A+P", "reason": refused[0]["reason"]}]
    assert "yellow is not at this table" in refused[0]["reason"]
    assert frame(table, 1100).get_json()["camera"]["refused"] == []  # told once, not on every frame
    picked = client.post(f"/api/games/{table.id}/camera/confirm",
                         json={"device": DEVICE, "id": choose["id"], "card": "g:4A+P"})
    assert cards(picked.get_json()) == ["g:4A+P"]


def test_when_the_best_card_is_ruled_out_even_a_confident_rival_needs_a_tap(table, script):
    script([[("y:15+", 0.80, "g:15+", 0.79)]])
    state = frame(table, 1000).get_json()
    assert state["pending"] is None and cards(state) == []
    assert state["camera"]["choose"]["candidates"] == ["g:15+"]


def test_a_reading_whose_only_close_rival_is_ruled_out_becomes_sure(table, script):
    # the vision could not tell green from yellow, but yellow is not at this table
    script([[seen("g:4A+P", 0.9, candidates="y:4A+P", others="g:4M+P=0.6 S=0.3")]])
    state = frame(table, 1000).get_json()
    assert state["pending"]["card"] == "g:4A+P" and state["camera"]["choose"] is None


def test_a_possible_close_rival_keeps_the_reading_unsure(table, script):
    script([[seen("g:4A+P", 0.9, candidates="y:4A+P g:4M+P", others="r:S+4A=0.6 S=0.3")]])
    choose = frame(table, 1000).get_json()["camera"]["choose"]
    assert choose["card"] == "g:4A+P" and choose["sure"] is False
    assert choose["candidates"] == ["g:4A+P", "g:4M+P", "r:S+4A", "S"]
    assert choose["runner_up"] == "g:4M+P"


def test_the_margin_is_taken_over_the_most_similar_possible_card(table, script):
    # 0.01 ahead of yellow's face: unsure for the vision; far ahead of every card that can come
    script([[seen("g:4A+P", 0.9, others="y:4A+P=0.89 g:4M+P=0.5")],
            [seen("g:4M+P", 0.9, others="g:4S+P=0.89 y:4M+P=0.5")]])
    state = frame(table, 1000).get_json()
    assert state["pending"]["card"] == "g:4A+P"
    table.ok("decide", accept=False, choice=None)
    state = frame(table, 1100).get_json()  # its possible rival stays 0.01 behind: a tap
    assert state["camera"]["choose"]["candidates"][:2] == ["g:4M+P", "g:4S+P"]


def test_an_order_already_on_the_pile_this_round_is_not_proposed_again(table, script):
    table.reveal("g:4A+P")
    table.ok("decide", accept=False, choice=None)
    table.reveal("M")  # on top now: the camera takes its first sight of M for the card already there
    script([[seen("g:4A+P", 0.95, others="g:4M+P=0.7 y:4A+P=0.6 S=0.2")]])
    state = frame(table, 1000).get_json()
    choose = state["camera"]["choose"]
    assert choose["candidates"] == ["g:4M+P", "S"] and not choose["sure"]
    assert "appears twice" in state["camera"]["refused"][0]["reason"]


def test_the_candidates_are_the_likeliest_four_in_order(table, script):
    script([[seen("S", 0.8, candidates="S2 A", others="M=0.7 P=0.6 O=0.5")]])
    choose = frame(table, 1000).get_json()["camera"]["choose"]
    assert choose["candidates"] == ["S", "A", "M", "P"]  # no doubles in the base game


def test_a_reading_no_card_of_which_can_come_is_dropped_with_the_reason(table, script):
    script([[seen("y:4A+P", 0.95, others="y:4M+P=0.5")], [("S", 0.95, "O", 0.3)]])
    state = frame(table, 1000).get_json()
    assert state["camera"]["choose"] is None and state["camera"]["queued"] == 0
    assert state["camera"]["refused"][0]["card"] == "y:4A+P"
    assert cards(frame(table, 1100).get_json()) == ["S"]


def test_a_tapped_card_is_taken_as_the_player_says(table, script, client):
    script([[seen("S", 0.6, others="A=0.5")]])
    choose = frame(table, 1000).get_json()["camera"]["choose"]
    assert choose["candidates"] == ["S", "A"]
    picked = client.post(f"/api/games/{table.id}/camera/confirm",
                         json={"device": DEVICE, "id": choose["id"], "card": "M"})  # from "something else": the pad
    assert cards(picked.get_json()) == ["M"]


def test_a_camera_started_mid_round_does_not_reveal_the_top_card_again(table, script):
    table.reveal("S", "A")
    script([[("A", 0.95, "O", 0.3)], [("M", 0.95, "S", 0.3)]])
    assert cards(frame(table, 1000).get_json()) == ["S", "A"]
    assert cards(frame(table, 1100).get_json()) == ["S", "A", "M"]


def test_a_new_round_starts_a_new_tracker(table, script):
    script([[("S", 0.95, "O", 0.3)]])
    frame(table, 1000)
    table.ok("end-round")
    script([[("M", 0.95, "S", 0.3)]])
    state = frame(table, 2000).get_json()
    assert state["round"] == 2 and cards(state) == ["M"]


@pytest.mark.parametrize("body, content_type, message", [
    (b"this is not a picture", "image/jpeg", "not a usable image"),
    (b"", "image/jpeg", "empty"),
    (b"\xff\xd8\xff\xe0\x00\x10JFIF\x00", "image/jpeg", "truncated"),
    (b"field=1", "application/x-www-form-urlencoded", "Content-Type image/jpeg"),
    (b"--x\r\n\r\n--x--", "multipart/form-data; boundary=x", "Content-Type image/jpeg"),
])
def test_a_frame_that_is_not_an_image_is_refused_and_changes_nothing(table, script, body, content_type, message):
    script([[("S", 0.95, "O", 0.3)]])
    response = frame(table, 1000, body=body, content_type=content_type)
    assert response.status_code == 400
    assert message in response.get_json()["error"]
    assert table.get()["version"] == 1 and table.get()["timeline"] == []


@pytest.mark.parametrize("query, field", [("t=5", "device"), ("device=a%20b&t=5", "device"),
                                          ("device=x&t=soon", "t"), ("device=x&t=-3", "t")])
def test_bad_device_or_time_is_refused(table, client, query, field):
    response = client.post(f"/api/games/{table.id}/frame?{query}", data=blank_jpeg(), content_type="image/jpeg")
    assert response.status_code == 400 and response.get_json()["field"] == field


def test_frame_times_must_increase(table, script):
    script([[], []])
    assert frame(table, 1000).status_code == 200
    response = frame(table, 1000)
    assert response.status_code == 400 and response.get_json()["field"] == "t"


def test_frames_beyond_the_rate_limit_get_429(database, monkeypatch):
    app = create_app({"TESTING": True, "DATABASE": database, "SECRET_KEY": "test", "CAMERA_MAX_FPS": 3})
    monkeypatch.setattr(Scanner, "new_tracker", lambda self: ScriptedTracker([]))
    table = Table(app.test_client(), [{"name": "Ann", "color": "green"}, {"name": "Bob", "color": "red"}])
    statuses = [frame(table, 1000 + i).status_code for i in range(4)]
    assert statuses == [200, 200, 200, 429]
    refused = frame(table, 2000)
    assert "at most 3 a second" in refused.get_json()["error"]
    assert frame(table, 2000, device="tablet-2").status_code == 200  # the limit is per device


def test_frames_outside_a_round_and_for_unknown_games_are_refused(table, client, script):
    script([])
    assert client.post("/api/games/99/frame?device=x&t=1", data=blank_jpeg(),
                       content_type="image/jpeg").status_code == 404
    for _ in range(3):
        table.ok("end-round")
    response = frame(table, 1000)
    assert response.status_code == 400 and "no pile to scan" in response.get_json()["error"]


def test_the_store_keeps_few_sessions_and_drops_idle_ones():
    from companion.web.scanning import CameraSession, SessionStore

    now = [0.0]
    store = SessionStore(limit=2, idle_seconds=60, clock=lambda: now[0])
    make = lambda name: (lambda: CameraSession(1, name, 1, None))
    store.arrive(1, "a", 1, make("a"))
    now[0] = 1
    store.arrive(1, "b", 1, make("b"))
    now[0] = 2
    store.arrive(1, "c", 1, make("c"))  # full: the least recently used (a) goes
    assert sorted(k[1] for k in store.sessions) == ["b", "c"]
    now[0] = 100
    store.arrive(1, "d", 1, make("d"))  # b and c idle for over a minute
    assert [k[1] for k in store.sessions] == ["d"]
