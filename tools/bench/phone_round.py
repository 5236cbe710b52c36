"""Figure: a round revealed by tapping on a phone, counting scrolls and taps.

    .venv/bin/python -m tools.bench.phone_round                  # 390x844, 3 runs
    .venv/bin/python -m tools.bench.phone_round --viewport 800x1280 --runs 1

The server (``mamma-mia serve``) runs in a subprocess; Debian's Chromium opens
the round page of a new 3-player game at the given size and a pile of
:data:`CARDS` cards is revealed by touch taps on the pad, :data:`ORDERS` of
them orders that wait for their owner's decision (two added from hand, two
refused). Before each tap the driver looks where the key is: when it is not
on the screen it scrolls it into view, and that counts as a scroll needed.
The page counts every scroll of the window (``scroll`` events, and whether
``scrollY`` moved) on its own: a jump the page makes by itself counts too.

Reported: scrolls needed after the page is opened, window scroll events, taps
per card (reveal taps over cards) and the taps for the decisions. Writes
``tools/bench/results/phone_round.json``.

The e2e test ``tests/e2e/test_phone_round.py`` plays the same pile with
:func:`play_pile` and asserts no scroll and one tap per card.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "tools" / "bench" / "results"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
PLAYERS = [{"name": "Ann", "color": "green"}, {"name": "Bob", "color": "red"}, {"name": "Cleo", "color": "yellow"}]
CARDS = 40
ORDERS = 4
# where the orders come, whose, and what their owner decides (added from hand, or not)
ORDER_AT = {9: ("red", False), 19: ("green", True), 29: ("yellow", True), 39: ("red", False)}
INGREDIENT_CYCLE = ["S", "A", "M", "P", "O"]

# counted by the page itself from the moment it loads
COUNT_SCROLLS = """
window.scrollsSeen = { events: 0, moved: 0 };
addEventListener("scroll", () => { window.scrollsSeen.events += 1; window.scrollsSeen.moved = Math.max(
  window.scrollsSeen.moved, Math.abs(scrollY)); }, { passive: true });
"""


@dataclass(frozen=True)
class RoundFigures:
    cards: int
    orders: int
    scrolls_needed: int  # the driver had to bring a key or a button into view
    scroll_events: int   # window scroll events, the page's own jumps included
    max_scroll_y: float
    reveal_taps: int
    decision_taps: int

    @property
    def taps_per_card(self) -> float:
        return self.reveal_taps / self.cards


def pile() -> list[tuple[str, bool | None]]:
    """The round's cards in order, each with the decision its owner makes
    (None: an ingredient). Each order is the owner's first that the cards face
    up cannot cover, so it waits for the decision; the engine checks it all.

    >>> cards = pile()
    >>> len(cards), [c for c, d in cards if d is not None]
    (40, ['r:S+4A', 'g:P+4O', 'y:A+4O', 'r:S+4O'])
    """
    from companion.engine.cards import parse_card
    from companion.engine.table import TableGame
    from companion.engine.tablelog import CardRevealed, GameCreated, OrderDecided, Seat
    from companion.engine.vocabulary import Color

    game = TableGame(GameCreated(tuple(Seat(p["name"], Color(p["color"])) for p in PLAYERS)))
    cards: list[tuple[str, bool | None]] = []
    ingredients = 0
    for index in range(CARDS):
        if index in ORDER_AT:
            color, decision = ORDER_AT[index]
            order = next((o for o in game.revealable(Color(color)) if not o.special and _waits(game, o)), None)
            assert order is not None, f"no order of {color} waits at card {index + 1}"
            game.apply(CardRevealed(order))
            game.apply(OrderDecided(decision, None))
            cards.append((order.notation, decision))
        else:
            card = parse_card(INGREDIENT_CYCLE[ingredients % len(INGREDIENT_CYCLE)])
            game.apply(CardRevealed(card))
            assert game.pending is None
            cards.append((card.notation, None))
            ingredients += 1
    return cards


def _waits(game: Any, order: Any) -> bool:
    """Whether ``order``, revealed now, would wait for its owner (``game`` is left as it is)."""
    import copy

    from companion.engine.tablelog import CardRevealed

    probe = copy.deepcopy(game)
    probe.apply(CardRevealed(order))
    return probe.pending is not None


def on_screen(page: Any, locator: Any) -> bool:
    box = locator.bounding_box()
    size = page.viewport_size
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size["height"] \
        and box["x"] >= 0 and box["x"] + box["width"] <= size["width"]


def touch(page: Any, locator: Any, counts: dict[str, int]) -> None:
    """A touch tap on ``locator`` where it is; scrolled into view first (and counted) when it is not."""
    if not on_screen(page, locator):
        counts["scrolls"] += 1
        locator.evaluate("element => element.scrollIntoView({ block: 'center' })")
    box = locator.bounding_box()
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def play_pile(page: Any, expect: Any) -> RoundFigures:
    """Reveal :func:`pile` on the round page open in ``page`` (its scroll
    counter installed by :data:`COUNT_SCROLLS`), waiting for each card to land."""
    counts = {"scrolls": 0, "reveal": 0, "decide": 0}
    for number, (notation, decision) in enumerate(pile(), start=1):
        touch(page, page.locator(f'#pad-keys button[data-card="{notation}"]'), counts)
        counts["reveal"] += 1
        expect(page.locator("#timeline li.tl")).to_have_count(number)
        expect(page.locator("#last-card")).to_have_attribute("data-card", notation)
        if decision is not None:
            sheet = page.locator("#pending")
            expect(sheet).to_be_visible()
            button = sheet.locator("button.accept" if decision else "button.decline")
            touch(page, button.first, counts)
            counts["decide"] += 1
            expect(sheet).to_be_hidden()
            verdict = "delivered" if decision else "returned"
            expect(page.locator(f'#timeline li.tl[data-card="{notation}"]')).to_have_attribute("data-verdict", verdict)
    seen = page.evaluate("window.scrollsSeen")
    return RoundFigures(CARDS, ORDERS, counts["scrolls"], seen["events"], seen["moved"], counts["reveal"],
                        counts["decide"])


def run_once(base: str, viewport: str) -> RoundFigures:
    from playwright.sync_api import expect, sync_playwright

    from .live_server import call

    port = int(base.rsplit(":", 1)[1])
    status, game = call(port, "POST", "/api/games", {"players": PLAYERS, "doubled": False})
    assert status == 201, game
    width, height = map(int, viewport.split("x"))
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": width, "height": height}, has_touch=True,
                                      is_mobile=width < 760, base_url=base)
        context.set_default_timeout(20_000)
        page = context.new_page()
        page.add_init_script(COUNT_SCROLLS)
        page.goto(f"/games/{game['id']}")
        figures = play_pile(page, expect)
        browser.close()
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--viewport", default="390x844")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    from .live_server import LiveServer

    runs = []
    with tempfile.TemporaryDirectory() as folder, LiveServer(Path(folder) / "instance") as server:
        for _ in range(args.runs):
            runs.append(run_once(f"http://127.0.0.1:{server.port}", args.viewport))
    summary = {
        "viewport": args.viewport, "runs": args.runs, "cards": CARDS, "orders": ORDERS,
        "scrolls_needed_median": statistics.median(r.scrolls_needed for r in runs),
        "scroll_events_median": statistics.median(r.scroll_events for r in runs),
        "taps_per_card_median": statistics.median(r.taps_per_card for r in runs),
        "decision_taps_median": statistics.median(r.decision_taps for r in runs),
        "each": [asdict(r) for r in runs],
    }
    RESULTS.mkdir(parents=True, exist_ok=True)
    name = "phone_round.json" if args.viewport == "390x844" else f"phone_round-{args.viewport}.json"
    (RESULTS / name).write_text(json.dumps(summary, indent=2) + "\n")
    print(f"{args.viewport}: {CARDS} cards, {ORDERS} orders decided, {args.runs} runs")
    print(f"  scrolls needed after opening: {summary['scrolls_needed_median']} (median); "
          f"window scroll events: {summary['scroll_events_median']}")
    print(f"  taps per card: {summary['taps_per_card_median']:.2f}; taps for the decisions: "
          f"{summary['decision_taps_median']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
