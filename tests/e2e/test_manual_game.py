"""A whole three-round game played by tapping, in a real browser, no camera.

Ann plays green (personal ingredient pepper), Bob red (salami). The rounds
follow RULES.md's worked examples: a Minimale with nothing eligible, an order
short one pineapple made up from hand, an order fulfilled from the table, the Czech sheet's Monotoni (jokers
cheapest first), a Bombastica refused, the French/Czech Minimale tie between
salami and mushroom; then the hand counts break a 3–3 tie.
"""
from __future__ import annotations

import json
import re
import urllib.request

from playwright.sync_api import Page, expect


def tap(page: Page, *cards: str) -> None:
    """Tap cards on the manual-entry pad, waiting for each to land in the timeline."""
    for card in cards:
        before = page.locator("#timeline li.tl").count()
        page.locator(f'#pad button[data-card="{card}"]').click()
        expect(page.locator("#timeline li.tl")).to_have_count(before + 1)


def end_round(page: Page, number: int) -> None:
    """End round ``number``: the button asks first, and the answer ends it."""
    page.get_by_role("button", name=f"End round {number}", exact=True).click()
    page.get_by_role("button", name=f"Yes, end round {number}").click()


def timeline(page: Page) -> list[str]:
    return page.locator("#timeline li.tl").evaluate_all("items => items.map(i => i.dataset.card)")


def expect_verdict(page: Page, card: str, verdict: str) -> None:
    expect(page.locator(f'#timeline li.tl[data-card="{card}"]')).to_have_attribute("data-verdict", verdict)


def face_up(page: Page) -> dict[str, str]:
    rows = page.locator("#table .row")
    return dict(zip(rows.evaluate_all("rs => rs.map(r => r.dataset.ingredient)"),
                    rows.locator(".row-count").all_inner_texts()))


def player_row(page: Page, color: str) -> list[str]:
    return page.locator(f'#players tr[data-color="{color}"] td').all_inner_texts()


def start_game(page: Page, shoot) -> int:
    page.goto("/")
    page.get_by_role("link", name="New game").click()
    page.locator("input[name=name0]").fill("Ann")
    page.locator("input[name=name1]").fill("Bob")
    page.locator("label.color-pick.red").nth(1).click()  # Bob: red (Ann keeps green)
    setup = page.locator('.setup-card[data-players="2"][data-doubled="no"]')
    expect(setup).to_be_visible()
    expect(setup).to_contain_text("Put 5 cards of each ingredient back in the box.")
    expect(page.locator('.setup-card[data-players="3"][data-doubled="no"]')).to_be_hidden()
    shoot("new-game", full_page=True)
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#round-title")).to_have_text("Round 1 of 3")
    return int(re.search(r"/games/(\d+)", page.url).group(1))


def round_one(page: Page, shoot) -> None:
    expect(page.locator("#setup")).to_be_visible()  # the set-up reminder before the first card
    expect(page.locator("#pad .pad-key")).to_have_count(5)  # no double cards without the variant
    tap(page, "P", "g:P+3?")  # Minimale with only Ann's own pepper face up: nothing is eligible
    expect_verdict(page, "g:P+3?", "returned")
    expect(page.locator('#timeline li[data-card="g:P+3?"]')).to_contain_text("no ingredient was eligible")
    tap(page, "S", "S", "A", "A", "A", "M", "M", "M", "M")
    assert face_up(page) == {"salami": "2", "pineapple": "3", "mushroom": "4", "pepper": "1"}
    tap(page, "g:4A+P")
    pending = page.locator("#pending")
    expect(pending.locator(".pending-title")).to_have_text("Order of Ann!")
    expect(pending.locator(".add-from-hand")).to_have_text("1 × pineapple")
    expect(page.locator("#pad .pad-key").first).to_be_disabled()  # nothing else until Ann decides
    shoot("pending-order")
    pending.get_by_role("button", name="Added from hand").click()
    expect(pending).to_be_hidden()
    expect_verdict(page, "g:4A+P", "delivered")
    expect(page.locator('#timeline li[data-card="g:4A+P"]')).to_contain_text("1 × pineapple added from hand")
    assert face_up(page) == {"salami": "2", "mushroom": "4"}  # 4 pineapple + 1 pepper used

    tap(page, "r:S+4M")  # all face up: delivered without a question
    expect(pending).to_be_hidden()
    expect_verdict(page, "r:S+4M", "delivered")
    assert timeline(page) == ["P", "g:P+3?", "S", "S", "A", "A", "A", "M", "M", "M", "M", "g:4A+P", "r:S+4M"]
    end_round(page, 1)
    expect(page.locator("#round-title")).to_have_text("Round 2 of 3")


def round_two(page: Page, shoot) -> None:
    expect(page.locator("#leftovers")).to_contain_text("At the start of this round, left over from round 1:")
    assert face_up(page) == {"salami": "1"}  # the leftover salami
    assert player_row(page, "green")[:3] == ["1", "0", "0"]
    expect(page.locator('#pad button[data-card="g:4A+P"]')).to_have_count(0)  # delivered: gone from the pad

    tap(page, "O")  # a slip of the finger: undone
    page.get_by_role("button", name="Undo").click()
    expect(page.locator("#timeline li.tl")).to_have_count(0)

    tap(page, "P", "P", "P", "P", "S", "M", "M", "A", "A", "A", "A", "g:P+6J")
    pending = page.locator("#pending")
    expect(pending).to_contain_text("Pizza Monotoni")
    options = pending.locator("button.option")
    assert options.evaluate_all("bs => bs.map(b => b.dataset.choice)") == ["pineapple", "salami", "mushroom", "olive"]
    assert [re.sub(r"\s+", " ", t).split(": ")[-1] for t in options.all_inner_texts()] == [
        "2 × pineapple", "4 × salami", "4 × mushroom", "6 × olive"]
    shoot("monotoni")
    pending.locator('button.option[data-choice="pineapple"]').click()
    expect(pending).to_be_hidden()
    expect(page.locator('#timeline li[data-card="g:P+6J"]')).to_contain_text("joker: pineapple")
    expect_verdict(page, "g:P+6J", "delivered")

    tap(page, "r:15+")
    expect(pending.locator(".add-from-hand")).to_have_text("8 × any ingredient")
    pending.get_by_role("button", name="Can't / won't").click()
    expect_verdict(page, "r:15+", "returned")
    expect(page.locator('#timeline li[data-card="r:15+"]')).to_contain_text("Back under the waiter pile")
    assert face_up(page) == {"salami": "2", "mushroom": "2", "pepper": "3"}
    end_round(page, 2)
    expect(page.locator("#round-title")).to_have_text("Round 3 of 3")
    expect(page.locator('#pad button[data-card="r:15+"]')).to_have_count(1)  # back in Bob's pile


def another_device_is_first(page: Page, server: str, game_id: int) -> None:
    """A second tablet reveals a card; this page, cut off from the changes pushed
    to it (and polling is off here), does not see it: its next tap is refused
    (409), the page reloads the state and says so."""
    page.route("**/live", lambda route: route.abort())
    page.reload()
    state = json.load(urllib.request.urlopen(f"{server}/api/games/{game_id}"))
    request = urllib.request.Request(f"{server}/api/games/{game_id}/reveal", method="POST",
                                     data=json.dumps({"card": "A", "version": state["version"]}).encode(),
                                     headers={"Content-Type": "application/json"})
    urllib.request.urlopen(request).close()
    page.locator('#pad button[data-card="A"]').click()
    expect(page.locator("#message")).to_contain_text("Another device changed the game first")
    assert timeline(page) == ["A"]  # the other tablet's card, not a second one


def round_three(page: Page, shoot, server: str, game_id: int) -> None:
    another_device_is_first(page, server, game_id)
    tap(page, "A", "A", "g:P+3?")
    pending = page.locator("#pending")
    expect(pending).to_contain_text("Pizza Minimale")
    # 2 salami, 2 mushroom, 3 pepper, 3 pineapple: pepper is Ann's own, olive is not face up
    assert pending.locator("button.option").evaluate_all("bs => bs.map(b => b.dataset.choice)") == [
        "salami", "mushroom"]
    shoot("minimale")
    pending.locator('button.option[data-choice="mushroom"]').click()
    expect(page.locator('#timeline li[data-card="g:P+3?"]')).to_contain_text("with mushroom")
    expect_verdict(page, "g:P+3?", "delivered")

    tap(page, "r:S+4A")
    pending.get_by_role("button", name="Added from hand").click()
    tap(page, "P", "P", "r:S+4P")
    expect_verdict(page, "r:S+4A", "delivered")
    expect_verdict(page, "r:S+4P", "delivered")
    shoot("timeline")
    end_round(page, 3)
    expect(page.locator("#round-title")).to_have_text("Counting hand cards")


def count_hands(page: Page, shoot) -> None:
    hands = page.locator("#hands")
    hands.locator("input[name=green]").fill("9")
    hands.locator("input[name=red]").fill("5")
    hands.get_by_role("button", name="Show the ranking").click()
    expect(page.locator("#hands-error")).to_have_text("Enter a whole number from 0 to 7 for every player.")
    hands.locator("input[name=green]").fill("2")
    shoot("hand-counts")
    hands.get_by_role("button", name="Show the ranking").click()
    ranking = page.locator("#ranking li")
    expect(ranking).to_have_count(2)
    assert ranking.evaluate_all("ls => ls.map(l => [l.dataset.place, l.dataset.color])") == [
        ["1", "red"], ["2", "green"]]
    expect(ranking.first).to_contain_text("Bob")
    expect(ranking.first).to_contain_text("3 orders delivered")
    expect(ranking.first).to_contain_text("tie broken by hand cards")
    assert player_row(page, "green") == ["1", "1", "1", "3", "5"]
    assert player_row(page, "red") == ["1", "0", "2", "3", "5"]
    shoot("ranking", full_page=True)


def test_a_whole_game_by_tapping(page: Page, server: str, shoot) -> None:
    game_id = start_game(page, shoot)
    round_one(page, shoot)
    round_two(page, shoot)
    round_three(page, shoot, server, game_id)
    count_hands(page, shoot)

    page.get_by_role("link", name="Scores").click()
    expect(page.locator("#per-round tbody tr")).to_have_count(2)
    expect(page.locator("svg.chart rect.bar")).to_have_count(6)
    expect(page.locator('article.history[data-round="2"]')).to_contain_text("Leftovers carried on")
    shoot("scores", full_page=True)

    page.locator("select[name=lang]").select_option("nl")
    expect(page.locator("html")).to_have_attribute("lang", "nl")
    expect(page.locator("#per-round caption")).to_have_text("Uitgevoerde bestellingen per ronde")
    page.goto("/")
    expect(page.locator(f'li.game-line[data-game="{game_id}"]')).to_contain_text("Spel afgelopen")
    shoot("home")
