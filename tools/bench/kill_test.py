"""Kill -9 durability: no acknowledged write is ever lost.

    python -m tools.bench.kill_test [--cycles 50] [--seed 22]

``mamma-mia serve`` runs in a subprocess on a temporary instance folder. A
client thread plays random valid moves through the API (new games, reveals,
decisions, undos, round ends, hand counts) and notes every write the server
acknowledged: a 200 or 201 carrying the new version. At a random moment the
server is killed with SIGKILL; it is started again on the same folder, and
each acknowledged write must be in its game's log (``export.json``) at its
version, with the same type and payload. Then play resumes, until the
cycles are done. A write under way at the kill has no answer and may or may
not be in the log: only what was acknowledged counts.
"""
from __future__ import annotations

import argparse
import http.client
import json
import random
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.engine.tablelog import GameCreated, event_from_json

from .live_server import LiveServer, call

COLORS = ["red", "yellow", "brown", "green", "purple"]
INGREDIENTS = ["S", "A", "M", "P", "O"]
ACTIONS = {"reveal": "card_revealed", "decide": "order_decided", "undo": "undo", "end-round": "round_ended",
           "hands": "hands_counted"}


@dataclass(frozen=True)
class Ack:
    """A write the server acknowledged: its event must be in the log at ``version``."""

    game: int
    version: int
    type: str
    payload: dict[str, Any]


class Player(threading.Thread):
    """Plays random valid moves on one server until it stops answering."""

    def __init__(self, port: int, rng: random.Random, state: dict[str, Any] | None) -> None:
        super().__init__(name="kill-test-player", daemon=True)
        self.port, self.rng, self.state = port, rng, state
        self.acks: list[Ack] = []
        self.refused = 0
        self.error: str | None = None

    def run(self) -> None:
        try:
            while True:
                self.move()
        except (OSError, http.client.HTTPException, ValueError):
            return  # the server was killed: what was acknowledged is in self.acks
        except RuntimeError as error:  # an answer no valid move should get (a 5xx, say)
            self.error = str(error)

    def move(self) -> None:
        state = self.state
        if state is None or state["phase"] == "over":
            self._new_game()
        elif state["pending"]:
            self._write("decide", {"accept": self.rng.random() < 0.6, "choice": None})
        elif state["phase"] == "counting":
            colors = [p["color"] for p in state["players"]]
            self._write("hands", {"counts": {c: self.rng.randrange(8) for c in colors}})
        else:
            self._write(*self._evaluating_move(state))

    def _evaluating_move(self, state: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        roll = self.rng.random()
        orders = [card for player in state["players"] for card in player["revealable"]]
        if roll < 0.08 and state["can_undo"]:
            return "undo", {}
        if roll < 0.12:
            return "end-round", {}
        if roll < 0.45 and orders:
            return "reveal", {"card": self.rng.choice(orders)}
        return "reveal", {"card": self.rng.choice(INGREDIENTS)}

    def _new_game(self) -> None:
        count = self.rng.randint(2, 5)
        players = [{"name": f"P{i}", "color": color} for i, color in enumerate(self.rng.sample(COLORS, count))]
        body = {"players": players, "doubled": self.rng.random() < 0.3}
        status, answer = call(self.port, "POST", "/api/games", body)
        if status != 201:
            raise RuntimeError(f"a new game was refused: {status} {answer}")
        created = GameCreated.from_payload(body).payload()
        self.acks.append(Ack(answer["id"], answer["version"], GameCreated.type, created))
        self.state = answer

    def _write(self, action: str, fields: dict[str, Any]) -> None:
        game = self.state["id"]
        status, answer = call(self.port, "POST", f"/api/games/{game}/{action}",
                              {**fields, "version": self.state["version"]})
        if status == 200:
            payload = event_from_json(ACTIONS[action], fields).payload()
            self.acks.append(Ack(game, answer["version"], ACTIONS[action], payload))
            self.state = answer
        elif status in (400, 409):  # a move the rules refuse (a 14th salami): another one next
            self.refused += 1
            if status == 409:
                self.state = call(self.port, "GET", f"/api/games/{game}")[1]
        else:
            raise RuntimeError(f"{action}: {status} {answer}")


@dataclass
class Outcome:
    cycles: int = 0
    acknowledged: int = 0
    refused: int = 0
    lost: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    restart_seconds: list[float] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        restarts = sorted(self.restart_seconds)
        return {"cycles": self.cycles, "acknowledged_writes": self.acknowledged, "refused_moves": self.refused,
                "lost": len(self.lost), "lost_examples": self.lost[:10], "errors": self.errors[:10],
                "median_restart_seconds": round(restarts[len(restarts) // 2], 2) if restarts else None}


def missing(port: int, acks: list[Ack]) -> list[str]:
    """The acknowledged writes not in their game's log as acknowledged."""
    logs: dict[int, dict[int, dict[str, Any]]] = {}
    lost = []
    for ack in acks:
        if ack.game not in logs:
            status, export = call(port, "GET", f"/api/games/{ack.game}/export.json")
            logs[ack.game] = {e["seq"]: e for e in export["events"]} if status == 200 else {}
        event = logs[ack.game].get(ack.version)
        if event is None or event["type"] != ack.type or event["payload"] != ack.payload:
            lost.append(f"game {ack.game} version {ack.version} {ack.type} {ack.payload}: log has {event}")
    return lost


def run_cycles(cycles: int, seed: int, folder: Path, play_seconds: tuple[float, float] = (0.2, 1.5)) -> Outcome:
    """Play, kill -9, restart and check, ``cycles`` times."""
    rng, outcome, acks, state = random.Random(seed), Outcome(), [], None
    server = LiveServer(folder / "instance")
    try:
        server.start()
        for _ in range(cycles):
            player = Player(server.port, random.Random(rng.random()), state)
            player.start()
            time.sleep(rng.uniform(*play_seconds))
            server.kill()
            player.join(timeout=60)
            acks += player.acks
            outcome.refused += player.refused
            outcome.errors += [player.error] if player.error else []
            started = time.monotonic()
            server.start()
            outcome.restart_seconds.append(time.monotonic() - started)
            outcome.cycles += 1
            outcome.lost = missing(server.port, acks)
            state = _reload(server.port, player.state)
    finally:
        server.stop()
    outcome.acknowledged = len(acks)
    return outcome


def _reload(port: int, state: dict[str, Any] | None) -> dict[str, Any] | None:
    """The game as the restarted server has it (a write under way at the kill may have landed)."""
    if state is None:
        return None
    status, game = call(port, "GET", f"/api/games/{state['id']}")
    return game if status == 200 else None  # a game lost with the kill: the check says so, play goes on


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench.kill_test", description=__doc__.split("\n\n")[0])
    parser.add_argument("--cycles", type=int, default=50)
    parser.add_argument("--seed", type=int, default=22)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="kill-test-") as folder:
        summary = run_cycles(args.cycles, args.seed, Path(folder)).summary()
    print(json.dumps(summary, indent=2))
    return 0 if summary["lost"] == 0 and not summary["errors"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
