"""Races: many devices writing on the same version at the same moment.

    python -m tools.bench.race_test [--rounds 400] [--threads 8]

Against a real server (``mamma-mia serve`` in a subprocess here; the tests
use cheroot in-process), each round reads the game's version, then
``--threads`` threads, each on its own connection opened beforehand, send a
write naming that version at once (a barrier releases them together): a
reveal, each thread its own card, on even rounds, an undo on odd ones, so
the table never runs out of cards. Exactly one may get 200, every other a
409; the log must grow by exactly one event, the winner's.
"""
from __future__ import annotations

import argparse
import http.client
import json
import tempfile
import threading
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .live_server import LiveServer, call

CARDS = ["S", "A", "M", "P", "O"]
PLAYERS = [{"name": "Ann", "color": "green"}, {"name": "Bob", "color": "red"}]


@dataclass
class Races:
    rounds: int = 0
    single_winner: int = 0
    statuses: Counter = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        return {"rounds": self.rounds, "one_winner": self.single_winner,
                "statuses": {str(k): v for k, v in sorted(self.statuses.items())},
                "failures": len(self.failures), "failure_examples": self.failures[:10]}


def race(port: int, game: int, version: int, bodies: list[tuple[str, dict[str, Any]]]) -> list[int]:
    """Send every (action, body) at once; their statuses, in order."""
    statuses = [0] * len(bodies)
    barrier = threading.Barrier(len(bodies))

    def racer(index: int) -> None:
        action, body = bodies[index]
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        try:
            connection.connect()
            barrier.wait()
            connection.request("POST", f"/api/games/{game}/{action}", json.dumps({**body, "version": version}),
                               {"Content-Type": "application/json"})
            response = connection.getresponse()
            response.read()
            statuses[index] = response.status
        except (OSError, http.client.HTTPException, threading.BrokenBarrierError):
            statuses[index] = 0  # no answer: judged a failure with the rest
        finally:
            connection.close()

    threads = [threading.Thread(target=racer, args=(i,)) for i in range(len(bodies))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return statuses


def run_races(port: int, rounds: int, threads: int) -> Races:
    status, game = call(port, "POST", "/api/games", {"players": PLAYERS})
    if status != 201:
        raise RuntimeError(f"could not make the game: {status} {game}")
    races = Races()
    for number in range(rounds):
        version = call(port, "GET", f"/api/games/{game['id']}")[1]["version"]
        if number % 2 == 0:
            bodies = [("reveal", {"card": CARDS[i % len(CARDS)]}) for i in range(threads)]
        else:
            bodies = [("undo", {})] * threads
        statuses = race(port, game["id"], version, bodies)
        races.rounds += 1
        races.statuses.update(statuses)
        problem = _judge(port, game["id"], version, bodies, statuses)
        if problem:
            races.failures.append(f"round {number} at version {version}: {problem}")
        else:
            races.single_winner += 1
    return races


def _judge(port: int, game: int, version: int, bodies: list[tuple[str, dict[str, Any]]],
           statuses: list[int]) -> str | None:
    if statuses.count(200) != 1 or statuses.count(409) != len(statuses) - 1:
        return f"statuses {statuses}"
    events = call(port, "GET", f"/api/games/{game}/export.json")[1]["events"]
    if len(events) != version + 1:
        return f"the log holds {len(events)} events, not {version + 1}"
    action, body = bodies[statuses.index(200)]
    last = events[-1]
    expected = ("card_revealed", {"card": body["card"]}) if action == "reveal" else ("undo", {})
    if (last["seq"], last["type"], last["payload"]) != (version + 1, *expected):
        return f"the last event {last} is not the winner's {expected}"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench.race_test", description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=400)
    parser.add_argument("--threads", type=int, default=8)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="race-test-") as folder, LiveServer(Path(folder) / "instance") as server:
        summary = run_races(server.port, args.rounds, args.threads).summary()
    print(json.dumps(summary, indent=2))
    return 0 if summary["failures"] == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
