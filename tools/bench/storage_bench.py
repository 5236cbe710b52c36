"""Storage benchmark: a write to a game with a long log, and the list of many games.

    python -m tools.bench.storage_bench [--events 10000] [--games 1000] [--repeats 5]

A long log comes from a table that reveals and takes back cards many times
(reveal, undo, reveal, ...): the log grows while the events in effect stay
few, which is how a real game's log outgrows its state. Writes are timed
through the same storage calls the web app makes, on a real SQLite file.
Prints medians and writes tools/bench/results/storage.json.
"""
from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from companion.engine import Color, parse_card
from companion.engine.tablelog import CardRevealed, GameCreated, Seat, Undo
from companion.web import storage
from companion.web.db import connect, init_db

RESULTS = Path(__file__).resolve().parent / "results"
PLAYERS = GameCreated((Seat("Ann", Color.GREEN), Seat("Bob", Color.RED), Seat("Cleo", Color.YELLOW)))
SALAMI = CardRevealed(parse_card("S"))


def grow(db, game_id: int, events: int, version: int = 1) -> int:
    """Append reveal/undo pairs until the log holds ``events`` events."""
    while version < events:
        storage.append_event(db, game_id, version, Undo() if version % 2 == 0 else SALAMI)
        version += 1
    return version


def time_writes(db, game_id: int, version: int, count: int) -> list[float]:
    millis = []
    for _ in range(count):
        start = time.perf_counter()
        storage.append_event(db, game_id, version, Undo() if version % 2 == 0 else SALAMI)
        millis.append((time.perf_counter() - start) * 1000)
        version += 1
    return millis


def time_list(db, repeats: int) -> list[float]:
    millis = []
    for _ in range(repeats):
        start = time.perf_counter()
        storage.list_games(db)
        millis.append((time.perf_counter() - start) * 1000)
    return millis


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench.storage_bench", description=__doc__.split("\n")[0])
    parser.add_argument("--events", type=int, default=10_000, help="events in the long game's log")
    parser.add_argument("--games", type=int, default=1_000, help="games in the list")
    parser.add_argument("--repeats", type=int, default=5, help="list timings (each a median of 5 calls)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "bench.sqlite")
        init_db(path)
        db = connect(path)
        # the history is written without waiting for the disk (it is set-up, not measured);
        # the timed writes run with the app's own durability setting
        db.execute("PRAGMA synchronous = OFF")
        game_id = storage.create_game(db, PLAYERS).id
        version = grow(db, game_id, args.events)
        for _ in range(args.games - 1):
            storage.create_game(db, PLAYERS)
        db.close()
        db = connect(path)
        writes = time_writes(db, game_id, version, 200)
        lists = [statistics.median(time_list(db, 5)) for _ in range(args.repeats)]
        db.close()
    result = {"events": args.events, "games": args.games,
              "write_ms": {"median": statistics.median(writes), "p95": sorted(writes)[int(len(writes) * 0.95)]},
              "list_ms": {"median": statistics.median(lists), "runs": lists}}
    print(f"write to a game of {args.events} events: median {result['write_ms']['median']:.2f} ms, "
          f"p95 {result['write_ms']['p95']:.2f} ms (200 writes)")
    print(f"list of {args.games} games: median {result['list_ms']['median']:.1f} ms "
          f"(runs: {', '.join(f'{m:.1f}' for m in lists)})")
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "storage.json").write_text(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
