"""The round page at the table, on a phone (390x844) and a tablet (800x1280),
in a real Chromium: a whole pile revealed without scrolling, nothing wider
than the screen in three languages, changes shown on a second device as they
happen, the end of the game, End round and Undo (issue 23, items 1-3, 6, 8).
"""
from __future__ import annotations

import json
import urllib.request
from contextlib import contextmanager
from typing import Iterator

import pytest
from playwright.sync_api import Page, expect

from tools.bench.phone_round import COUNT_SCROLLS, PLAYERS, play_pile

from .conftest import save_screenshot, serving

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 800, "height": 1280}


def api(server: str, path: str, body: dict | None = None) -> dict:
    request = urllib.request.Request(f"{server}/api{path}", method="POST" if body is not None else "GET",
                                     data=json.dumps(body).encode() if body is not None else None,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def new_game(server: str, players: list[dict] = PLAYERS) -> dict:
    return api(server, "/games", {"players": players, "doubled": False})


@contextmanager
def device(browser, server: str, size: dict, lang: str = "en") -> Iterator[Page]:
    """A fresh touch device of ``size`` showing the app in ``lang``."""
    context = browser.new_context(viewport=size, locale="en-US", base_url=server, has_touch=True,
                                  is_mobile=size["width"] < 760)
    context.add_cookies([{"name": "lang", "value": lang, "url": server}])
    context.set_default_timeout(15_000)
    try:
        yield context.new_page()
    finally:
        context.close()


@pytest.mark.parametrize("size", [PHONE, TABLET], ids=["phone", "tablet"])
def test_a_whole_pile_is_revealed_without_a_scroll_one_tap_a_card(browser, server, size) -> None:
    """40 cards, 4 orders decided: the card just revealed, the face-up counts, the
    pad, Undo and each order's decision are on the first screen the whole time."""
    game = new_game(server)
    with device(browser, server, size) as page:
        page.add_init_script(COUNT_SCROLLS)
        page.goto(f"/games/{game['id']}")
        for part in ("#live", "#last-card", "#table-counts", "#undo", "#pad-keys"):
            box = page.locator(part).bounding_box()
            assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], f"{part} is off the first screen"
        figures = play_pile(page, expect)
        assert (figures.scrolls_needed, figures.scroll_events, figures.max_scroll_y) == (0, 0, 0)
        assert figures.taps_per_card == 1 and figures.decision_taps == 4
        # what the last taps changed is in view: the card and the face-up counts
        expect(page.locator("#last-card")).to_have_attribute("data-card", figures_last_card())
        counts = page.locator("#table-counts .count")
        face_up = api(server, f"/games/{game['id']}")["table"]["rows"]
        assert counts.locator("b").all_inner_texts() == [str(r["units"]) for r in face_up]
        save_screenshot(page, "round-after-40", size=size)


def figures_last_card() -> str:
    from tools.bench.phone_round import pile

    return pile()[-1][0]


def test_an_order_comes_up_over_the_page_which_keeps_its_place(browser, server) -> None:
    game = new_game(server)
    with device(browser, server, PHONE) as page:
        page.goto(f"/games/{game['id']}")
        page.evaluate("scrollTo(0, 300)")
        for count, card in enumerate(["S", "S", "A", "r:S+4A"], 1):
            page.locator(f'#pad-keys button[data-card="{card}"]').dispatch_event("click")
            expect(page.locator("#timeline li.tl")).to_have_count(count)
        sheet = page.locator("#pending")
        expect(sheet).to_be_visible()
        assert page.evaluate("scrollY") == 300  # no jump to the top
        box = sheet.locator("button.decline").bounding_box()
        assert box["y"] + box["height"] <= PHONE["height"]
        sheet.locator("button.decline").click()
        expect(sheet).to_be_hidden()
        assert page.evaluate("scrollY") == 300


@pytest.mark.parametrize("lang", ["en", "nl", "cs"])
def test_nothing_is_wider_than_a_phone(browser, server, lang) -> None:
    """No sideways scrolling, and no label cut, on the round page, the scores and the home page."""
    players = [{"name": "Bartholomew", "color": "green"}, {"name": "Anna-Lena", "color": "red"},
               {"name": "Cleo", "color": "yellow"}, {"name": "Dan", "color": "purple"}]
    game = api(server, "/games", {"players": players, "doubled": True})
    with device(browser, server, PHONE, lang) as page:
        for address in (f"/games/{game['id']}", f"/games/{game['id']}/scores", "/"):
            page.goto(address)
            assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"], address
            cut = page.evaluate("""() => {
                const shown = (selector) => [...document.querySelectorAll(selector)]
                    .filter((e) => e.offsetParent !== null && !e.classList.contains("sr"));
                const name = (e) => `${e.tagName}.${e.className}: ${e.textContent.trim().slice(0, 30)}`;
                // a one-word label must fit whole on one line: broken inside the word is as bad as cut
                const words = shown(".pad-key span, .table-counts .count, .live-label, .pad-order .pizza")
                    .filter((e) => {
                        e.style.whiteSpace = "nowrap";
                        const over = e.scrollWidth > e.clientWidth + 0.5;
                        e.style.whiteSpace = "";
                        return over;
                    });
                const boxes = shown(".pad-order .order, #last-card, #players th, #players td, .button, button, summary")
                    .filter((e) => e.scrollWidth > e.clientWidth + 0.5);
                return [...words, ...boxes].map(name);
            }""")
            assert cut == [], (address, cut)
        if lang != "en":  # the English pages are shot elsewhere
            page.goto(f"/games/{game['id']}")
            save_screenshot(page, f"round-{lang}", size=PHONE)


def test_a_second_device_sees_each_change_as_it_happens(browser, server) -> None:
    """The e2e server does not poll (POLL_SECONDS = 0): what reaches the tablet is pushed."""
    game = new_game(server)
    with device(browser, server, PHONE) as phone, device(browser, server, TABLET) as tablet:
        phone.goto(f"/games/{game['id']}")
        tablet.goto(f"/games/{game['id']}")
        expect(tablet.locator("#last-card")).to_have_attribute("data-card", "")
        phone.locator('#pad-keys button[data-card="M"]').click()
        expect(tablet.locator("#last-card")).to_have_attribute("data-card", "M")
        expect(tablet.locator('#table-counts .count[data-ingredient="mushroom"] b')).to_have_text("1")
        phone.locator('#pad-keys button[data-card="g:4M+P"]').click()
        expect(tablet.locator("#pending")).to_be_visible()  # the owner may decide on either
        tablet.locator("#pending button.decline").click()
        expect(phone.locator("#pending")).to_be_hidden()
        expect(phone.locator('#timeline li.tl[data-card="g:4M+P"]')).to_have_attribute("data-verdict", "returned")
        phone.goto(f"/games/{game['id']}/delete")  # deleted on the phone: the tablet is told
        phone.get_by_role("button", name="Delete for good").click()
        expect(tablet.locator("#message")).to_contain_text("This game has been deleted on another device.")
        tablet.locator("#message").get_by_role("link", name="Back to games").click()
        expect(tablet.locator(f'li.game-line[data-game="{game["id"]}"]')).to_have_count(0)


def test_without_the_stream_a_page_polls(browser, tmp_path_factory) -> None:
    """Polling is the fallback: the stream refused here, a change made elsewhere
    still shows, from the state asked for every POLL_SECONDS."""
    with serving(tmp_path_factory.mktemp("polling"), config={"POLL_SECONDS": 1}) as url:
        game = new_game(url)
        with device(browser, url, PHONE) as page:
            refused = []
            page.route("**/live", lambda route: (refused.append(route.request.url),
                                                 route.fulfill(status=503, body="{}")))
            page.goto(f"/games/{game['id']}")
            api(url, f"/games/{game['id']}/reveal", {"card": "P", "version": game["version"]})
            expect(page.locator("#last-card")).to_have_attribute("data-card", "P")
            assert refused  # the page did ask for the stream first
            page.locator('#pad-keys button[data-card="S"]').click()  # and its own taps still land
            expect(page.locator("#timeline li.tl")).to_have_count(2)


def end_rounds(server: str, game: dict, rounds: int = 3) -> dict:
    state = game
    for _ in range(rounds):
        state = api(server, f"/games/{game['id']}/end-round", {"version": state["version"]})
    return state


def test_the_end_of_the_game_shows_no_table_and_offers_what_comes_next(browser, server) -> None:
    game = new_game(server)
    state = api(server, f"/games/{game['id']}/reveal", {"card": "S", "version": game["version"]})
    end_rounds(server, state)
    with device(browser, server, PHONE) as page:
        page.goto(f"/games/{game['id']}")
        expect(page.locator("#round-title")).to_have_text("Counting hand cards")
        expect(page.locator("#hands")).to_be_visible()
        for gone in ("#timeline-panel", "#table-panel", "#live", "#pad", "#camera-panel", "#round-end"):
            expect(page.locator(gone)).to_be_hidden()
        assert page.evaluate("document.body.innerText").count("No card yet") == 0
        after = page.locator("#after-game")
        expect(after.get_by_role("link", name="Back to games")).to_be_visible()
        for color in ("green", "red", "yellow"):
            page.locator(f"#hands input[name={color}]").fill("1")
        page.get_by_role("button", name="Show the ranking").click()
        expect(page.locator("#ranking li")).to_have_count(3)
        expect(page.locator("#timeline-panel")).to_be_hidden()
        expect(page.locator("#table-panel")).to_be_hidden()
        save_screenshot(page, "game-over", full_page=True, size=PHONE)
        after.get_by_role("link", name="New game").click()
        expect(page).to_have_url(f"{page.url.split('/games')[0]}/games/new")
        page.go_back()
        page.locator("#after-game").get_by_role("link", name="Back to games").click()
        expect(page.locator(f'li.game-line[data-game="{game["id"]}"]')).to_contain_text("Game over")


def test_end_round_asks_first_and_sits_away_from_undo(browser, server) -> None:
    game = new_game(server)
    with device(browser, server, PHONE) as page:
        page.goto(f"/games/{game['id']}")
        undo, end = page.locator("#undo"), page.locator("#end-round")
        assert undo.evaluate("u => u.closest('section').id") != end.evaluate("e => e.closest('section').id")
        gap = end.bounding_box()["y"] - (undo.bounding_box()["y"] + undo.bounding_box()["height"])
        assert gap > 150, f"End round is {gap:.0f} px below Undo"
        end.click()
        expect(page.locator("#end-question")).to_contain_text("End round 1 now?")
        page.get_by_role("button", name="Not yet").click()
        expect(page.locator("#end-confirm")).to_be_hidden()
        expect(page.locator("#round-title")).to_have_text("Round 1 of 3")
        end.click()
        page.get_by_role("button", name="Yes, end round 1").click()
        expect(page.locator("#round-title")).to_have_text("Round 2 of 3")
        undo.click()
        expect(page.locator("#toast")).to_have_text("Taken back: the end of round 1.")
        expect(page.locator("#round-title")).to_have_text("Round 1 of 3")


def test_undo_says_what_it_took_back(browser, server) -> None:
    game = new_game(server)
    with device(browser, server, PHONE) as page:
        page.goto(f"/games/{game['id']}")
        page.locator('#pad-keys button[data-card="O"]').click()
        expect(page.locator("#last-card")).to_have_attribute("data-card", "O")
        page.locator("#undo").click()
        toast = page.locator("#toast")
        expect(toast).to_contain_text("Taken back:")
        expect(toast.locator('[data-card="O"]')).to_have_count(1)
        expect(page.locator("#last-card")).to_have_attribute("data-card", "")
        save_screenshot(page, "undo-toast", size=PHONE)
        expect(toast).to_be_hidden(timeout=8_000)  # it goes by itself

        page.locator('#pad-keys button[data-card="r:S+4A"]').click()
        page.locator("#pending button.decline").click()
        expect(page.locator("#pending")).to_be_hidden()
        page.locator("#undo").click()
        expect(toast).to_contain_text("Taken back: the decision of Bob on")
        expect(page.locator("#pending")).to_be_visible()  # the order waits for Bob again


def test_the_photo_choice_looks_like_a_button(browser, server) -> None:
    game = new_game(server)
    with device(browser, server, PHONE) as page:
        page.goto(f"/games/{game['id']}")
        summary = page.locator("#cam-fallback summary")
        style = summary.evaluate("""s => { const c = getComputedStyle(s);
            return [c.borderTopStyle, c.backgroundColor, c.cursor, c.display]; }""")
        assert style[0] == "solid" and style[1] not in ("rgba(0, 0, 0, 0)", "transparent") and style[2] == "pointer"
        assert summary.bounding_box()["height"] >= 44
        summary.click()
        expect(page.locator("#cam-fallback .file-button").first).to_be_visible()
