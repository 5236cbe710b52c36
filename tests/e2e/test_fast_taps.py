"""Taps faster than the server answers, in a real browser (issue 22, item 1).

Here the server answers every reveal 300 ms late, after recording it: the
player keeps turning cards meanwhile, often the same card several times in a
row. Every tap must land, in the order made, shown as waiting until then; or,
once one cannot be recorded, the player is told which were not.
"""
from __future__ import annotations

import json
import time
import urllib.request

import pytest
from playwright.sync_api import Page, expect

from .conftest import serving

REPLY_DELAY_SECONDS = 0.3
TAP_GAP_MS = 30


def late_reveals(app):
    """``app`` answering each reveal REPLY_DELAY_SECONDS after it has recorded it."""
    def slowed(environ, start_response):
        answer = app(environ, start_response)
        if environ["REQUEST_METHOD"] == "POST" and environ["PATH_INFO"].endswith("/reveal"):
            time.sleep(REPLY_DELAY_SECONDS)
        return answer
    return slowed


@pytest.fixture(scope="module")
def server(instance_folder):
    """Overrides conftest's server for this module's pages: the slow one."""
    with serving(instance_folder, late_reveals) as url:
        yield url


def api(server: str, path: str, body: dict | None = None) -> dict:
    request = urllib.request.Request(f"{server}/api{path}", method="POST" if body is not None else "GET",
                                     data=json.dumps(body).encode() if body is not None else None,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def open_new_game(page: Page, server: str) -> int:
    game = api(server, "/games", {"players": [{"name": "Ann", "color": "green"}, {"name": "Bob", "color": "red"}]})
    page.goto(f"/games/{game['id']}")
    expect(page.locator("#round-title")).to_have_text("Round 1 of 3")
    watch_the_queue(page)
    return game["id"]


def pile(server: str, game_id: int) -> list[str]:
    """The cards revealed, as the server has them."""
    return [entry["card"] for entry in api(server, f"/games/{game_id}")["timeline"]]


def watch_the_queue(page: Page) -> None:
    """Record, at every change of the pad, how many taps its waiting row shows,
    whether Undo and the pad's keys are usable then, and where the keys are in the pad."""
    page.evaluate("""() => {
        const row = () => document.getElementById("tap-queue") || document.createElement("p");
        window.queueSeen = [];
        new MutationObserver(() => window.queueSeen.push({
            shown: !row().classList.contains("empty"),
            waiting: [...row().querySelectorAll(".tap-run")].reduce((n, r) => n + Number(r.dataset.count), 0),
            undo: document.getElementById("undo").disabled,
            padDisabled: document.querySelectorAll("#pad-keys button:disabled").length,
            keysTop: document.getElementById("pad-keys").getBoundingClientRect().top
                - document.getElementById("pad").getBoundingClientRect().top,
        })).observe(document.getElementById("pad"), { childList: true, subtree: true, attributes: true });
    }""")


def tap_quickly(page: Page, *cards: str) -> None:
    """Touch taps TAP_GAP_MS apart, each where its key is on the screen: no waiting for the page in between."""
    page.locator("#pad-keys").evaluate("pad => pad.scrollIntoView({ block: 'center' })")
    viewport = page.viewport_size
    centres = {}
    for card in dict.fromkeys(cards):
        box = page.locator(f'#pad-keys button[data-card="{card}"]').bounding_box()
        centres[card] = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        assert 0 < centres[card][1] < viewport["height"], f"{card} is off the screen: a tap would miss it"
    for card in cards:
        page.touchscreen.tap(*centres[card])
        page.wait_for_timeout(TAP_GAP_MS)


def timeline(page: Page) -> list[str]:
    return page.locator("#timeline li.tl").evaluate_all("items => items.map(i => i.dataset.card)")


def expect_queue_drained(page: Page, count: int) -> None:
    expect(page.locator("#timeline li.tl")).to_have_count(count, timeout=count * 2_000 + 5_000)
    expect(page.locator("#tap-queue")).to_be_hidden()
    expect(page.locator("#tap-queue .tap-run")).to_have_count(0)
    expect(page.locator("#timeline li.tl-queued")).to_have_count(0)


def test_five_taps_of_the_same_card_all_land(page: Page, server: str) -> None:
    game_id = open_new_game(page, server)
    tap_quickly(page, *["S"] * 5)
    expect_queue_drained(page, 5)
    assert pile(server, game_id) == ["S"] * 5
    assert timeline(page) == ["S"] * 5
    assert page.locator('#table .row[data-ingredient="salami"] .row-count').inner_text() == "5"

    seen = page.evaluate("window.queueSeen")
    shown = [s for s in seen if s["shown"]]
    assert max(s["waiting"] for s in shown) >= 3, seen  # taps waited their turn, and were shown waiting
    assert all(s["undo"] for s in shown), "Undo must wait until the taps are in"
    assert not any(s["padDisabled"] for s in shown), "the pad must stay usable while taps wait"
    assert len({s["keysTop"] for s in seen}) == 1, "a key that moves under the finger gets the wrong taps"
    expect(page.locator("#message")).to_be_hidden()
    expect(page.locator("#undo")).to_be_enabled()


def test_taps_of_different_cards_keep_their_order(page: Page, server: str) -> None:
    """Runs, single cards and an order the table covers (delivered without a question) in between."""
    game_id = open_new_game(page, server)
    taps = ["S", "S", "A", "A", "A", "A", "r:S+4A", "M", "S"]
    tap_quickly(page, *taps)
    expect(page.locator("#tap-queue")).to_be_visible()
    expect_queue_drained(page, len(taps))
    assert pile(server, game_id) == taps
    assert timeline(page) == taps
    expect(page.locator('#timeline li.tl[data-card="r:S+4A"]')).to_have_attribute("data-verdict", "delivered")


def test_taps_behind_an_order_waiting_for_its_owner_are_dropped_and_named(page: Page, server: str) -> None:
    game_id = open_new_game(page, server)
    tap_quickly(page, "S", "A", "g:4A+P", "S", "S", "M")  # Ann's order needs 4 pineapple and a pepper
    expect(page.locator("#pending .pending-title")).to_have_text("Order of Ann!")
    message = page.locator("#message")
    expect(message).to_contain_text("An order came up first")
    lost = message.locator(".tap-lost .tap-run")
    assert lost.evaluate_all("rs => rs.map(r => [r.dataset.card, r.dataset.count])") == [["S", "2"], ["M", "1"]]
    expect(page.locator("#tap-queue")).to_be_hidden()
    assert pile(server, game_id) == ["S", "A", "g:4A+P"]
    expect(page.locator('#pad-keys button[data-card="S"]')).to_be_disabled()  # the owner decides first

    page.locator("#pending").get_by_role("button", name="Added from hand").click()
    expect(page.locator("#pending")).to_be_hidden()
    expect(message).to_contain_text("An order came up first")  # still there: it says what to tap now
    tap_quickly(page, "S", "S", "M")
    expect_queue_drained(page, 6)
    expect(message).to_be_hidden()
    assert pile(server, game_id) == ["S", "A", "g:4A+P", "S", "S", "M"]


def test_a_failed_tap_stops_the_queue_and_the_rest_are_not_sent(page: Page, server: str) -> None:
    """The third reveal never reaches the server: it and the two behind it are
    named as not recorded, and none of them is sent later."""
    game_id = open_new_game(page, server)
    sent = []

    def lose_the_mushroom(route):
        card = json.loads(route.request.post_data)["card"]
        sent.append(card)
        if card == "M":
            route.abort("connectionfailed")
        else:
            route.continue_()

    page.route("**/reveal", lose_the_mushroom)
    tap_quickly(page, "S", "A", "M", "P", "O")
    message = page.locator("#message")
    expect(message).to_contain_text("The server could not be reached")
    lost = message.locator(".tap-lost .tap-run")
    assert lost.evaluate_all("rs => rs.map(r => r.dataset.card)") == ["M", "P", "O"]
    expect(page.locator("#tap-queue")).to_be_hidden()
    page.wait_for_timeout(int(REPLY_DELAY_SECONDS * 2_000))
    assert sent == ["S", "A", "M"]
    assert pile(server, game_id) == ["S", "A"]
    assert timeline(page) == ["S", "A"]


def test_a_queued_tap_goes_with_the_version_of_the_reply_before_it(page: Page, server: str) -> None:
    """Another device reveals a card while this page's taps are waiting: the
    next tap is refused (409), not recorded on top of a game the player has not seen."""
    game_id = open_new_game(page, server)

    def another_device_first(route):
        if json.loads(route.request.post_data)["card"] == "M":
            state = api(server, f"/games/{game_id}")
            api(server, f"/games/{game_id}/reveal", {"card": "O", "version": state["version"]})
        route.continue_()

    page.route("**/reveal", another_device_first)
    tap_quickly(page, "S", "A", "M", "P")
    message = page.locator("#message")
    expect(message).to_contain_text("Another device changed the game first")
    assert message.locator(".tap-lost .tap-run").evaluate_all("rs => rs.map(r => r.dataset.card)") == ["M", "P"]
    assert pile(server, game_id) == ["S", "A", "O"]
    expect(page.locator("#timeline li.tl")).to_have_count(3)  # the page shows the other device's card
    assert timeline(page) == ["S", "A", "O"]
