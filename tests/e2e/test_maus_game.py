"""A whole game of Maus au Chocolat for three players in a real Chromium
(issue 24): set up from the home page, every round's bids and combinations
tapped, one round read through the camera (photos of the bid cards and of a
combination, made by the synthetic camera and uploaded), until someone
reaches 30 and the ranking shows."""
from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.maus_photo_support import laid_photo

from .conftest import save_screenshot

# what each player lays whenever their hand allows: Bob a blue set of 5s (10 points), Cy a yellow set of 7s (14)
PLAN = {"Ann": None, "Bob": ["b5", "b5", "b5"], "Cy": ["y7", "y7", "y7"]}
BIDS = {"Ann": 1, "Bob": 2, "Cy": 3}
# round 1 through the camera: the bid cards in seating order (coins 5, 4, 2) and Cy's combination
BID_PHOTO = ["r3/5", "g4/4", "b5/2"]
LAID_PHOTO = ["y7/1", "y7/1", "y7/2"]


def progress(page: Page) -> str:
    return page.evaluate("() => document.querySelector('#m-title').textContent + '|' + "
                         "document.querySelector('#m-next').textContent")


def after(page: Page, before: str) -> None:
    """Wait for the page to draw the state the last move made."""
    page.wait_for_function("(before) => document.querySelector('#m-title').textContent + '|' + "
                           "document.querySelector('#m-next').textContent !== before", arg=before)


def photo(cards: list[str], seed: int) -> dict:
    return {"name": "table.jpg", "mimeType": "image/jpeg", "buffer": laid_photo(cards, seed)}


def set_up(page: Page) -> None:
    page.goto("/")
    save_screenshot(page, "home-both-games")
    page.get_by_role("link", name="New Maus au Chocolat game").click()
    for row, (name, helper) in enumerate((("Ann", "etienne"), ("Bob", "henri"), ("Cy", "claude"))):
        page.locator(f'input[name="name{row}"]').fill(name)
        page.locator(f'select[name="helper{row}"]').select_option(helper)
    page.locator('input[name="oldest"][value="0"]').check()
    save_screenshot(page, "maus-setup")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#m-title")).to_have_text("Round 1")


def bid(page: Page, by_camera: bool) -> None:
    before = progress(page)
    if by_camera:
        page.locator("#m-bid-photo").set_input_files(photo(BID_PHOTO, seed=41))
        for seat, coins in enumerate((5, 4, 2)):
            expect(page.locator(f'.bid-row[data-seat="{seat}"] button.coin[data-coins="{coins}"]')).to_have_class("coin on")
        save_screenshot(page, "maus-bids-read")
    else:
        for seat, name in enumerate(PLAN):
            page.locator(f'.bid-row[data-seat="{seat}"] button.coin[data-coins="{BIDS[name]}"]').click()
    page.get_by_role("button", name="Turn up the bids").click()
    after(page, before)
    expect(page.locator("#m-picks li")).to_have_count(3)


def lay_or_skip(page: Page, by_camera: bool) -> str:
    """The player whose turn it is lays their cards if their hand allows; their name."""
    name = page.locator("#m-turn-title").inner_text().removeprefix("Combination: ")
    hand = int(page.locator("#m-turn-helper").inner_text().rsplit(" ", 1)[-1])
    cards = PLAN[name]
    before = progress(page)
    if cards is None or hand <= len(cards):
        page.get_by_role("button", name="No combination").click()
        after(page, before)
        return name
    if by_camera and name == "Cy":
        page.locator("#m-lay-photo").set_input_files(photo(LAID_PHOTO, seed=43))
    else:
        for card in cards:
            count = page.locator("#m-chosen .mcard").count()
            page.locator(f'#m-pad button.mkey[data-card="{card}"]').click()
            expect(page.locator("#m-chosen .mcard")).to_have_count(count + 1)
    expect(page.locator("#m-verdict .verdict.legal")).to_be_visible()
    assert page.locator("#m-chosen .mcard").evaluate_all("cs => cs.map(c => c.dataset.card)") == cards
    if by_camera and name == "Cy":
        save_screenshot(page, "maus-combination", full_page=True)
    page.get_by_role("button", name="Lay this combination").click()
    after(page, before)
    return name


def test_a_whole_game_to_thirty_by_tapping_with_one_round_through_the_camera(page: Page, server: str) -> None:
    set_up(page)
    rounds = 0
    while not page.locator("#m-ranking").is_visible():
        rounds += 1
        by_camera = rounds == 1
        bid(page, by_camera)
        laid = [lay_or_skip(page, by_camera) for _ in range(3)]
        if rounds == 1:
            assert laid == ["Cy", "Bob", "Ann"]  # Claude 7, Henri 2, Etienne 1
        assert rounds <= 8, "the game should be over by now"
    assert rounds == 5
    board = page.locator("#m-board tr").evaluate_all(
        "rs => rs.map(r => [r.querySelector('th').textContent, r.querySelector('.score b').textContent])")
    assert board == [["Ann (oldest)", "0"], ["Bob", "30"], ["Cy", "42"]]
    expect(page.locator("#m-ranking h2")).to_have_text("Cy wins")
    expect(page.locator("#m-ranking tbody tr")).to_have_count(3)
    save_screenshot(page, "maus-ranking", full_page=True)

    page.get_by_role("link", name="Scores").click()
    expect(page.locator("#per-round tbody tr")).to_have_count(3)
    assert page.locator('#per-round tr[data-seat="2"] td').all_inner_texts()[-2:] == ["42", "1"]
    save_screenshot(page, "maus-scores", full_page=True)


def test_a_wrong_combination_says_why_and_changes_nothing(page: Page, server: str) -> None:
    set_up(page)
    bid(page, by_camera=False)
    for card in ("r3", "g5", "b7"):
        page.locator(f'#m-pad button.mkey[data-card="{card}"]').click()
    expect(page.locator("#m-verdict .verdict.illegal")).to_contain_text("neither a run")
    expect(page.get_by_role("button", name="Lay this combination")).to_be_disabled()
    page.locator("#m-chosen button.chosen").first.click()  # a tapped card taken back
    expect(page.locator("#m-chosen .mcard")).to_have_count(2)
    expect(page.locator("#m-verdict")).to_be_empty()
    before = progress(page)
    page.get_by_role("button", name="Undo").click()
    after(page, before)
    expect(page.locator("#m-bids")).to_be_visible()
