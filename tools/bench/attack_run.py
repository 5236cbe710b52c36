"""Sending hostile requests and judging the answers, the same way through
Flask's test client (the tests) and over HTTP to a real server (the attack
bench): no answer may be a 5xx, and a refused request may change nothing.

*Nothing changed* is judged on what a player could see: the list of games
(every game's version: the log is append-only, so any event moves it), the
whole export of each game the attack started from, and the list of decks.
The state is read after every ``check_every`` requests; a change after a
refusal is a finding, a change after an accepted request is counted apart.
"""
from __future__ import annotations

import http.client
import json
import re
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterable, Protocol

CSRF = b"__CSRF__"  # stands for the session's form token in a probe's body
CSRF_FIELD = re.compile(rb'name="csrf_token" value="([^"]+)"')


@dataclass(frozen=True)
class Probe:
    """One request: ``target`` is the path and query as sent on the wire (percent-encoded)."""

    method: str
    target: str
    headers: tuple[tuple[str, str], ...] = ()
    body: bytes = b""
    what: str = ""


@dataclass(frozen=True)
class Answer:
    status: int  # 0: the connection ended without an answer
    seconds: float
    body: bytes


class Sender(Protocol):
    def send(self, probe: Probe) -> Answer: ...


class ClientSender:
    """Probes through a Flask test client, which keeps the session's cookies."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.token = _token(self.send(Probe("GET", "/")).body)

    def send(self, probe: Probe) -> Answer:
        body = probe.body.replace(CSRF, getattr(self, "token", b""))
        start = time.perf_counter()
        try:
            response = self.client.open(probe.target, method=probe.method, headers=list(probe.headers), data=body)
        except Exception as error:  # a testing app raises what a server would answer with a 500
            return Answer(500, time.perf_counter() - start, f"{type(error).__name__}: {error}".encode())
        return Answer(response.status_code, time.perf_counter() - start, response.get_data())


class HttpSender:
    """Probes over HTTP/1.1, one connection each, with the session cookie of a first visit."""

    def __init__(self, host: str, port: int, timeout: float = 120.0) -> None:
        self.host, self.port, self.timeout = host, port, timeout
        self.cookie = ""
        first = self._exchange(Probe("GET", "/"))
        self.token = _token(first[1].body)
        self.cookie = "; ".join(c.split(";", 1)[0] for c in first[0])

    def send(self, probe: Probe) -> Answer:
        return self._exchange(probe)[1]

    def _exchange(self, probe: Probe) -> tuple[list[str], Answer]:
        names = {name.lower() for name, _ in probe.headers}
        body = probe.body.replace(CSRF, getattr(self, "token", b""))
        connection = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
        start = time.perf_counter()
        try:
            connection.putrequest(probe.method, probe.target, skip_host="host" in names, skip_accept_encoding=True)
            for name, value in probe.headers:
                connection.putheader(name, value)
            if self.cookie and "cookie" not in names:
                connection.putheader("Cookie", self.cookie)
            if body or probe.method in ("POST", "PUT", "PATCH"):
                connection.putheader("Content-Length", str(len(body)))
            _send(connection, body)
            response = connection.getresponse()
            data = response.read()
            return response.headers.get_all("Set-Cookie") or [], Answer(response.status, time.perf_counter() - start,
                                                                         data)
        except (ConnectionError, http.client.HTTPException, TimeoutError):
            return [], Answer(0, time.perf_counter() - start, b"")
        finally:
            connection.close()


def _send(connection: http.client.HTTPConnection, body: bytes) -> None:
    """Headers and body; a server that answers (a 413, say) and closes before
    reading the whole body has still answered, so the answer is read anyway."""
    try:
        connection.endheaders(body or None)
    except (BrokenPipeError, ConnectionResetError):
        pass


def _token(page: bytes) -> bytes:
    found = CSRF_FIELD.search(page)
    return found.group(1) if found else b""


# judging ----------------------------------------------------------------------------------------


@dataclass
class Tally:
    """What a run of probes did: statuses, 5xx, changes, time."""

    statuses: Counter = field(default_factory=Counter)
    server_errors: list[str] = field(default_factory=list)
    no_answer: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    accepted_changes: int = 0
    slowest: tuple[float, str] = (0.0, "")

    @property
    def requests(self) -> int:
        return sum(self.statuses.values())

    def add(self, probe: Probe, answer: Answer) -> None:
        self.statuses[answer.status] += 1
        if answer.status >= 500:
            self.server_errors.append(f"{answer.status} {probe.what}: {answer.body[:200]!r}")
        elif answer.status == 0:
            self.no_answer.append(probe.what)
        if answer.seconds > self.slowest[0]:
            self.slowest = (answer.seconds, probe.what)

    def summary(self) -> dict[str, Any]:
        return {"requests": self.requests, "statuses": {str(k): v for k, v in sorted(self.statuses.items())},
                "server_errors": len(self.server_errors), "no_answer": len(self.no_answer),
                "state_changes": len(self.changed), "accepted_changes": self.accepted_changes,
                "slowest_seconds": round(self.slowest[0], 3), "slowest": self.slowest[1],
                "examples": {"server_errors": self.server_errors[:10], "no_answer": self.no_answer[:10],
                             "changed": self.changed[:10]}}


def state(sender: Sender, game_ids: Iterable[int]) -> tuple[bytes, ...]:
    """What a refused request must leave as it was."""
    paths = ["/api/games", "/api/decks", *(f"/api/games/{game}/export.json" for game in game_ids)]
    return tuple(sender.send(Probe("GET", path)).body for path in paths)


def run(sender: Sender, probes: Iterable[Probe], game_ids: list[int], tally: Tally | None = None,
        check_every: int = 1) -> Tally:
    """Send each probe; read the state after every ``check_every`` of them."""
    tally = tally or Tally()
    before, group, accepted = state(sender, game_ids), [], False
    for probe in probes:
        answer = sender.send(probe)
        tally.add(probe, answer)
        group.append(probe.what)
        accepted |= 200 <= answer.status < 400
        if len(group) >= check_every:
            before = _judge(sender, game_ids, tally, before, group, accepted)
            group, accepted = [], False
    if group:
        _judge(sender, game_ids, tally, before, group, accepted)
    return tally


def run_together(sender: Sender, probes: list[Probe], game_ids: list[int], tally: Tally | None = None) -> Tally:
    """Send every probe at once, each from a thread of its own; the state is
    read before and after (none of them may change it)."""
    tally, lock, before = tally or Tally(), threading.Lock(), state(sender, game_ids)

    def send(probe: Probe) -> None:
        answer = sender.send(probe)
        with lock:
            tally.add(probe, answer)

    threads = [threading.Thread(target=send, args=(probe,)) for probe in probes]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if state(sender, game_ids) != before:
        tally.changed.append(f"{len(probes)} sent together: {probes[0].what}")
    return tally


def _judge(sender: Sender, game_ids: list[int], tally: Tally, before: tuple[bytes, ...], group: list[str],
           accepted: bool) -> tuple[bytes, ...]:
    after = state(sender, game_ids)
    if after != before:
        if accepted:
            tally.accepted_changes += 1
        else:
            tally.changed.append(" | ".join(group))
    return after


# what the attacks aim at ------------------------------------------------------------------------


@dataclass(frozen=True)
class Targets:
    """A game under way (``version`` its current version) and a deck taught in the app."""

    game: int
    version: int
    deck: str


PLAYERS = [{"name": "Ann", "color": "green"}, {"name": "Bob", "color": "red"}]
OPENING = ["S", "A", "M"]  # a few reveals, so that an older version exists


def prepare(sender: Sender) -> Targets:
    """Make the game and the deck the attacks aim at."""
    game = _json(sender, "POST", "/api/games", {"players": PLAYERS})
    for card in OPENING:
        game = _json(sender, "POST", f"/api/games/{game['id']}/reveal", {"card": card, "version": game["version"]})
    deck = _json(sender, "POST", "/api/decks", {"name": "Attack deck", "doubles": True})
    return Targets(game["id"], game["version"], deck["id"])


def _json(sender: Sender, method: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    answer = sender.send(Probe(method, path, (("Content-Type", "application/json"),), json.dumps(body).encode()))
    if answer.status not in (200, 201):
        raise RuntimeError(f"{method} {path}: {answer.status} {answer.body[:300]!r}")
    return json.loads(answer.body)


def upload_endpoints(targets: Targets) -> dict[str, str]:
    """Every address that takes an uploaded file; ``{n}`` makes each camera
    frame a new device's, so none is turned away by the frame rate limit
    before its picture is read."""
    game = f"/api/games/{targets.game}"
    return {"frame": game + "/frame?device=hostile{n}", "photo": game + "/photo", "video": game + "/video",
            "faces": f"/api/decks/{targets.deck}/faces"}


def upload_probes(files: Iterable[Any], targets: Targets) -> list[Probe]:
    """Each hostile file to each upload address, under the file's content type."""
    probes = []
    for n, hostile in enumerate(files):
        for name, address in upload_endpoints(targets).items():
            probes.append(Probe("POST", address.format(n=n), (("Content-Type", hostile.content_type),),
                                hostile.data, f"{hostile.name} -> {name}"))
    return probes
