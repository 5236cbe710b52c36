"""Figure: a change made on one device, shown on a second (issue 23, item 3).

    nice -n 5 .venv/bin/python -m tools.bench.live_bench              # 60 changes pushed, 3 runs
    .venv/bin/python -m tools.bench.live_bench --changes 30 --fallback 8

The server (``mamma-mia serve``, cheroot, as at a table) runs in a subprocess
on loopback. Debian's Chromium opens the round page of one game twice, as a
phone (390x844) and as a tablet (800x1280). The phone makes a change, a tap
on the pad or Undo, alternately, so the table never fills up; its page notes
``Date.now()`` just before the tap. The tablet's page notes ``Date.now()`` the
first time it draws each version of the game. Both pages are in one browser
on one machine, so they share the clock. The figure is the difference: the
phone's request, the server's transaction, the push through the event stream
to the tablet and the tablet's drawing.

``--fallback N`` also measures N changes with the tablet's stream refused
(answered 503 by the browser itself), so that it polls every POLL_SECONDS
(5 s by default), as it did for every change before the stream.

Quotes the median, p95 and worst of each run, and the median of the runs'
p95; writes ``tools/bench/results/live.json``.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

from .live_server import LiveServer, call
from .web_bench import CHROMIUM, percentile

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "tools" / "bench" / "results"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
PLAYERS = [{"name": "Ann", "color": "green"}, {"name": "Bob", "color": "red"}]
CARDS = ["S", "A", "M", "P", "O"]
NOTE_DRAWS = "Table.onRender((s) => { window.drawnAt = window.drawnAt || {}; " \
             "if (!(s.version in window.drawnAt)) window.drawnAt[s.version] = Date.now(); });"


def changes_seen(base: str, game_id: int, count: int, refuse_stream: bool) -> list[float]:
    """Milliseconds from each change on the phone to its drawing on the tablet."""
    from playwright.sync_api import sync_playwright

    delays = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        phone = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, base_url=base).new_page()
        tablet_context = browser.new_context(viewport={"width": 800, "height": 1280}, base_url=base)
        if refuse_stream:
            tablet_context.route("**/live", lambda route: route.fulfill(status=503, body="{}"))
        tablet = tablet_context.new_page()
        for page in (phone, tablet):
            page.goto(f"/games/{game_id}")
            page.wait_for_function("window.Table !== undefined")
            page.evaluate(NOTE_DRAWS)
        for index in range(count):
            version = phone.evaluate("Table.state().version")
            selector = "#undo" if index % 2 else f'#pad-keys button[data-card="{CARDS[index // 2 % len(CARDS)]}"]'
            began = phone.evaluate("(s) => { const t = Date.now(); document.querySelector(s).click(); return t; }",
                                   selector)
            tablet.wait_for_function("(v) => window.drawnAt && window.drawnAt[v] !== undefined", arg=version + 1,
                                     timeout=30_000)
            delays.append(tablet.evaluate("(v) => window.drawnAt[v]", version + 1) - began)
            phone.wait_for_function("(v) => !document.body.classList.contains('busy') "
                                    "&& Table.state().version === v", arg=version + 1)
        browser.close()
    return delays


def summary(delays: list[float]) -> dict[str, Any]:
    return {"count": len(delays), "median_ms": statistics.median(delays), "p95_ms": percentile(delays, 0.95),
            "max_ms": max(delays)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--changes", type=int, default=60)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--fallback", type=int, default=0, help="changes measured with the stream refused")
    args = parser.parse_args(argv)
    result: dict[str, Any] = {"pushed": []}
    with tempfile.TemporaryDirectory() as folder, LiveServer(Path(folder) / "instance") as server:
        base = f"http://127.0.0.1:{server.port}"
        for _ in range(args.runs):
            status, game = call(server.port, "POST", "/api/games", {"players": PLAYERS, "doubled": False})
            assert status == 201, game
            result["pushed"].append(summary(changes_seen(base, game["id"], args.changes, False)))
        if args.fallback:
            status, game = call(server.port, "POST", "/api/games", {"players": PLAYERS, "doubled": False})
            result["polling"] = summary(changes_seen(base, game["id"], args.fallback, True))
    result["pushed_p95_median_ms"] = statistics.median(r["p95_ms"] for r in result["pushed"])
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "live.json").write_text(json.dumps(result, indent=2) + "\n")
    for number, run in enumerate(result["pushed"], start=1):
        print(f"pushed, run {number}: {run['count']} changes, median {run['median_ms']:.0f} ms, "
              f"p95 {run['p95_ms']:.0f} ms, worst {run['max_ms']:.0f} ms")
    print(f"pushed: median of the runs' p95 {result['pushed_p95_median_ms']:.0f} ms")
    if "polling" in result:
        run = result["polling"]
        print(f"polling (stream refused): {run['count']} changes, median {run['median_ms']:.0f} ms, "
              f"p95 {run['p95_ms']:.0f} ms, worst {run['max_ms']:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
