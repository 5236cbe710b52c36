"""The home page's games and the demo, in a real Chromium (issue 23, items 7
and 8): games look like links, can be archived (and brought back) or deleted
after a question; the demo replaces the previous demo game and resumes after
a reload part way."""
from __future__ import annotations

import json
import time
import urllib.request

from playwright.sync_api import Page, expect

from .conftest import save_screenshot

DEMO_TIMEOUT_SECONDS = 90.0


def api(server: str, path: str, body: dict | None = None) -> dict:
    request = urllib.request.Request(f"{server}/api{path}", method="POST" if body is not None else "GET",
                                     data=json.dumps(body).encode() if body is not None else None,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def listed(page: Page) -> list[int]:
    return [int(i) for i in page.locator("ul.games > li.game-line:not(.archived)").evaluate_all(
        "ls => ls.map(l => l.dataset.game)")]


def line(page: Page, game: int):
    """The home page's line of a game still in play."""
    return page.locator(f'ul.games > li.game-line:not(.archived)[data-game="{game}"]')


def test_games_look_like_links_and_are_archived_or_deleted(page: Page, server: str) -> None:
    players = [{"name": "Ann", "color": "green"}, {"name": "Bob", "color": "red"}]
    kept, archived, deleted = (api(server, "/games", {"players": players})["id"] for _ in range(3))
    page.goto("/")
    title = page.locator(f'li.game-line[data-game="{kept}"] .game-main b')
    style = title.evaluate("b => [getComputedStyle(b).textDecorationLine, getComputedStyle(b).color]")
    link_colour = page.evaluate("getComputedStyle(document.querySelector('a.button.primary')).backgroundColor")
    assert style == ["underline", link_colour]  # the link colour of the app, underlined
    save_screenshot(page, "home-games")

    page.locator(f'li.game-line[data-game="{archived}"]').get_by_role("button", name="Archive").click()
    expect(page.locator("#archived-notice")).to_contain_text(f"Game {archived} is archived")
    assert archived not in listed(page)
    page.locator("#archived-notice").get_by_role("button", name="Bring back").click()
    expect(line(page, archived)).to_be_visible()  # the page is loaded again: wait for it
    assert archived in listed(page)

    page.locator(f'li.game-line[data-game="{archived}"]').get_by_role("button", name="Archive").click()
    page.locator("#archived-games summary").click()
    expect(page.locator(f'#archived-games li[data-game="{archived}"]')).to_be_visible()

    page.locator(f'li.game-line[data-game="{deleted}"]').get_by_role("link", name="Delete").click()
    expect(page.locator("h1")).to_have_text(f"Delete game {deleted}?")
    page.get_by_role("link", name="Keep it").click()
    expect(line(page, deleted)).to_be_visible()  # asking deleted nothing
    page.locator(f'li.game-line[data-game="{deleted}"]').get_by_role("link", name="Delete").click()
    page.get_by_role("button", name="Delete for good").click()
    expect(line(page, kept)).to_be_visible()
    assert deleted not in listed(page) and kept in listed(page)
    page.goto(f"/games/{deleted}")
    expect(page.locator("main")).to_contain_text(f"There is no game {deleted}")


def play_demo_until(page: Page, cards: int | None) -> None:
    """Let the demo reveal, deciding orders and unsure readings as they come,
    until ``cards`` are in (None: until the demo says it is done)."""
    deadline = time.monotonic() + DEMO_TIMEOUT_SECONDS
    status = page.locator("#cam-status")
    while True:
        if cards is not None and page.locator("#timeline li.tl").count() >= cards:
            return
        if cards is None and status.inner_text() == "All cards of the video are in.":
            return
        if page.locator("#pending").is_visible():
            page.locator("#pending").get_by_role("button", name="Can't / won't").click()
            expect(page.locator("#pending")).to_be_hidden()
        elif page.locator("#cam-choose").is_visible():  # unsure in the sample: its first reading is the true card
            page.locator("#cam-choose button.cam-option").first.click()
        assert time.monotonic() < deadline, "the demo did not get there"
        page.wait_for_timeout(100)


def test_the_demo_resumes_after_a_reload_and_replaces_the_last_demo(page: Page, server: str) -> None:
    page.goto("/")
    page.get_by_role("button", name="Demo round").click()
    first_demo = page.url
    sample = [c["card"] for c in api(server, "/sample-video")["cards"]]
    play_demo_until(page, 4)
    page.reload()
    resume = page.get_by_role("button", name="Resume the demo")
    expect(resume).to_be_visible()
    done = page.locator("#timeline li.tl").count()
    expect(page.locator("#cam-status")).to_contain_text(f"of {len(sample)}")
    resume.click()
    play_demo_until(page, None)
    assert page.locator("#timeline li.tl").evaluate_all("ls => ls.map(l => l.dataset.card)") == sample
    assert done >= 4

    page.goto("/")
    page.get_by_role("button", name="Demo round").click()
    expect(page.locator("#round-title")).to_have_text("Round 1 of 3")
    assert page.url != first_demo
    page.goto("/")
    demos = [g for g in api(server, "/games")["games"] if g["demo"]]
    assert len(demos) == 1 and page.locator("li.game-line .demo-badge").count() == 1
