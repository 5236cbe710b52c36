"""The attacks of issue 22 against a real server, with a summary table.

    python -m tools.bench.attack_bench [--quick] [--seed 22]

``mamma-mia serve`` runs in a subprocess on a temporary instance folder. In
turn: every hostile file (:mod:`.hostile_files`) to every upload address
(camera frame, photo, video, a deck's faces); the malformed requests of
:mod:`.fuzz_requests` over every route; pictures near the size limit sent
several at once to the photo and the faces addresses; the races of
:mod:`.race_test` on the same server; then the kill -9 cycles of
:mod:`.kill_test` on a server of their own. Measured: 5xx answers, state
changed by a refused request, the server's peak resident memory (VmHWM) over
the hostile files, the fuzzer and the pictures sent together, the slowest request, acknowledged writes lost, and race winners. ``--quick``
runs fewer of each. Prints a table and writes tools/bench/results/attack.json.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .attack_run import HttpSender, Probe, Tally, Targets, prepare, run, run_together, upload_endpoints, upload_probes
from .fuzz_requests import fuzz
from .hostile_files import SEED, corpus, large_pictures
from .kill_test import run_cycles
from .live_server import LiveServer
from .race_test import run_races

RESULTS = Path(__file__).resolve().parent / "results"
TARGETS = {"server_errors": 0, "state_changes": 0, "peak_rss_mb": 400, "slowest_seconds": 10.0, "lost": 0}


@dataclass(frozen=True)
class Sizes:
    fuzz: int
    race_rounds: int
    race_threads: int
    kill_cycles: int
    together: int = 8  # large pictures sent at once


FULL = Sizes(fuzz=1000, race_rounds=400, race_threads=8, kill_cycles=50)
QUICK = Sizes(fuzz=300, race_rounds=40, race_threads=6, kill_cycles=5)


def attack_server(folder: Path, sizes: Sizes, seed: int) -> dict[str, Any]:
    """Hostile files, the fuzzer and the races against one server."""
    from companion.web import create_app

    routes_app = create_app({"DATABASE": ":memory:", "SECRET_KEY": "routes only"})
    with LiveServer(folder / "instance") as server:
        sender = HttpSender("127.0.0.1", server.port)
        targets = prepare(sender)
        start_rss = server.memory_mb("VmRSS")
        files = corpus(seed)
        started = time.monotonic()
        uploads = run(sender, upload_probes(files, targets), [targets.game])
        fuzzed = run(sender, fuzz(routes_app, targets, sizes.fuzz, seed), [targets.game])
        together = send_together(sender, targets, sizes.together, seed)
        hostile_seconds = time.monotonic() - started
        peak = server.memory_mb("VmHWM")
        races = run_races(server.port, sizes.race_rounds, sizes.race_threads)
    slowest = max(uploads.slowest, fuzzed.slowest, together.slowest)
    return {"files": len(files), "uploads": uploads.summary(), "fuzz": fuzzed.summary(),
            "together": together.summary(), "together_at_once": sizes.together,
            "start_rss_mb": round(start_rss, 1), "peak_rss_mb": round(peak, 1),
            "slowest_seconds": round(slowest[0], 3), "slowest": slowest[1],
            "hostile_seconds": round(hostile_seconds, 1), "races": races.summary()}


def send_together(sender: HttpSender, targets: Targets, count: int, seed: int) -> Tally:
    """Each large picture ``count`` times at once to the photo address, then to the faces address."""
    tally = Tally()
    addresses = upload_endpoints(targets)
    for picture in large_pictures(np.random.default_rng(seed)):
        for name in ("photo", "faces"):
            probe = Probe("POST", addresses[name], (("Content-Type", picture.content_type),), picture.data,
                          f"{picture.name} -> {name}, {count} at once")
            run_together(sender, [probe] * count, [targets.game], tally)
    return tally


def table(result: dict[str, Any]) -> str:
    uploads, fuzzed, together = result["uploads"], result["fuzz"], result["together"]
    races, kills = result["races"], result["kill"]
    rows = [
        ("hostile files x upload addresses", f"{result['files']} files, {uploads['requests']} requests",
         f"5xx {uploads['server_errors']}, changed {uploads['state_changes']}, no answer {uploads['no_answer']}"),
        ("malformed requests", f"{fuzzed['requests']} over every route",
         f"5xx {fuzzed['server_errors']}, changed {fuzzed['state_changes']}, no answer {fuzzed['no_answer']}"),
        ("large pictures sent together", f"{together['requests']} requests, {result['together_at_once']} at once",
         f"5xx {together['server_errors']}, changed {together['state_changes']}, slowest "
         f"{together['slowest_seconds']:.1f} s"),
        ("server peak RSS over the three above", f"{result['peak_rss_mb']} MB", f"target <= {TARGETS['peak_rss_mb']} MB"),
        ("slowest request", f"{result['slowest_seconds']:.2f} s", result["slowest"][:70]),
        ("races", f"{races['rounds']} rounds x {result['race_threads']} threads",
         f"one winner in {races['one_winner']}, statuses {races['statuses']}"),
        ("kill -9", f"{kills['cycles']} kills, {kills['acknowledged_writes']} acknowledged writes",
         f"lost {kills['lost']}, errors {len(kills['errors'])}"),
    ]
    width = max(len(r[0]) for r in rows)
    middle = max(len(r[1]) for r in rows)
    return "\n".join(f"{a:<{width}}  {b:<{middle}}  {c}" for a, b, c in rows)


def verdict(result: dict[str, Any]) -> list[str]:
    """The targets missed, in words."""
    missed = []
    for part in ("uploads", "fuzz", "together"):
        for key in ("server_errors", "state_changes"):
            if result[part][key] > TARGETS[key]:
                missed.append(f"{part}: {result[part][key]} {key.replace('_', ' ')}")
    if result["peak_rss_mb"] > TARGETS["peak_rss_mb"]:
        missed.append(f"peak RSS {result['peak_rss_mb']} MB")
    if result["slowest_seconds"] > TARGETS["slowest_seconds"]:
        missed.append(f"slowest request {result['slowest_seconds']:.1f} s ({result['slowest']})")
    if result["kill"]["lost"] or result["kill"]["errors"]:
        missed.append(f"kill -9: {result['kill']['lost']} lost, errors {result['kill']['errors'][:3]}")
    if result["races"]["failures"]:
        missed.append(f"races: {result['races']['failure_examples'][:3]}")
    return missed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench.attack_bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer requests, races and kills (a few minutes)")
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args(argv)
    sizes = QUICK if args.quick else FULL
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="attack-bench-") as folder:
        result = attack_server(Path(folder) / "hostile", sizes, args.seed)
        result["kill"] = run_cycles(sizes.kill_cycles, args.seed, Path(folder) / "kill").summary()
    result.update(race_threads=sizes.race_threads, quick=args.quick, seed=args.seed, targets=TARGETS,
                  cpus=os.cpu_count(), python=platform.python_version(),
                  load_average_before=[round(x, 2) for x in load_before],
                  load_average_after=[round(x, 2) for x in os.getloadavg()])
    result["missed"] = verdict(result)
    print(table(result))
    print(f"load average before {load_before[0]:.1f}, after {result['load_average_after'][0]:.1f} "
          f"({result['cpus']} cores)")
    print("every target met" if not result["missed"] else "MISSED: " + "; ".join(result["missed"]))
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "attack.json").write_text(json.dumps(result, indent=2))
    return 0 if not result["missed"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
