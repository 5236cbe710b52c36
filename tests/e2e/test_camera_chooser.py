"""The camera's chooser in a real browser: a photo the recogniser cannot read
surely offers the cards it might be, likeliest first, only among those the
game allows next; "something else" opens the pad; a sure photo needs no tap.

The unsure photo is the stand-in deck's green "one of each" order printed in
grey: what tells the five colours of that recipe apart is the colour of the
frame, so several of them stay close (the tests take their order from the
recogniser itself).
"""
from __future__ import annotations

import json
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from companion.assets import SAMPLE_PHOTOS

from .test_manual_game import timeline

GREY_ORDER = "g:S+A+M+P+O"
COLOURS = {"b": "brown", "p": "purple", "r": "red", "y": "yellow"}
# the first photo loads the deck, and a shared machine may be busy: reading waits this long
READ_MS = 60_000


@pytest.fixture(scope="module")
def grey_photo(tmp_path_factory) -> Path:
    """A photo of the green order printed without colour, on a table (PNG: no JPEG loss)."""
    import cv2

    from companion.engine import parse_card
    from tests.recognize_support import ART, TRUTH, place

    face = cv2.cvtColor(cv2.cvtColor(ART.faces[parse_card(GREY_ORDER)], cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    path = tmp_path_factory.mktemp("chooser") / "grey-order.png"
    cv2.imwrite(str(path), place(face, TRUTH, seed=3))
    return path


@pytest.fixture(scope="module")
def close(grey_photo: Path) -> list[str]:
    """The grey photo's card and candidates, likeliest first, as the recogniser ranks them."""
    from tests.recognize_support import DECK
    from vision.recognize.imagefile import read_image
    from vision.recognize.pipeline import Recogniser

    found = Recogniser(DECK).recognise(read_image(grey_photo))[0]
    ranked = [found.card.notation, *(c.notation for c in found.match.candidates)]
    # the photo shows no colour: it is not sure which of the recipe's orders it is, and is
    # not first taken for the green one (the rules' part is seen when that colour is not at the table)
    assert GREY_ORDER in ranked[1:]
    return ranked


def new_game(server: str, colors: list[str]) -> int:
    names = ["Ann", "Bob", "Cid"]
    body = json.dumps({"players": [{"name": n, "color": c} for n, c in zip(names, colors)]}).encode()
    request = urllib.request.Request(f"{server}/api/games", data=body, method="POST",
                                     headers={"Content-Type": "application/json"})
    return json.load(urllib.request.urlopen(request))["id"]


def send_photo(page: Page, photo: Path) -> None:
    fallback = page.locator("#cam-fallback")
    if fallback.get_attribute("open") is None:
        fallback.locator("summary").click()
    page.locator("#cam-photo").set_input_files(str(photo))


def offered(page: Page) -> list[str]:
    return page.locator("#cam-choose button.cam-option[data-card]").evaluate_all(
        "buttons => buttons.map(b => b.dataset.card)")


def test_an_unsure_photo_offers_its_candidates_likeliest_first(page: Page, server: str, grey_photo: Path,
                                                              close: list[str]) -> None:
    game = new_game(server, ["brown", "green", "purple"])
    page.goto(f"/games/{game}")
    send_photo(page, grey_photo)
    chooser = page.locator("#cam-choose")
    expect(chooser).to_be_visible(timeout=READ_MS)
    expect(chooser).to_contain_text("The likeliest card comes first.")
    options = offered(page)
    at_table = [c for c in close if c[0] in "bgp"]
    assert options[:len(at_table)] == at_table and len(options) == 4
    expect(chooser.get_by_role("button", name="Something else")).to_be_visible()
    chooser.locator(f'button.cam-option[data-card="{GREY_ORDER}"]').click()  # one tap, the true card
    expect(chooser).to_be_hidden()
    expect(page.locator("#timeline li.tl")).to_have_count(1)
    assert timeline(page) == [GREY_ORDER]


def test_cards_the_rules_rule_out_are_not_offered(page: Page, server: str, grey_photo: Path,
                                                 close: list[str]) -> None:
    """Green plays here with a colour whose order the photo is not close to:
    green's order is the only close card left, offered first (and not taken
    without a tap: the recogniser's own first choice was ruled out)."""
    other = next(name for key, name in COLOURS.items() if f"{key}:S+A+M+P+O" not in close)
    game = new_game(server, ["green", other])
    page.goto(f"/games/{game}")
    send_photo(page, grey_photo)
    chooser = page.locator("#cam-choose")
    expect(chooser).to_be_visible(timeout=READ_MS)
    options = offered(page)
    assert options[0] == GREY_ORDER and not (set(close) - {GREY_ORDER}) & set(options)
    absent = tuple(f"{key}:" for key, name in COLOURS.items() if name != other)
    assert all(not o.startswith(absent) for o in options)
    first = close[0]
    expect(page.locator("#message")).to_contain_text(f"The camera read {first}")
    expect(page.locator("#message")).to_contain_text(f"{COLOURS[first[0]]} is not at this table")
    assert timeline(page) == []


def test_something_else_opens_the_pad_and_a_sure_photo_needs_no_tap(page: Page, server: str,
                                                                     grey_photo: Path) -> None:
    game = new_game(server, ["brown", "green", "purple"])
    page.goto(f"/games/{game}")
    send_photo(page, grey_photo)
    chooser = page.locator("#cam-choose")
    chooser.get_by_role("button", name="Something else").click(timeout=READ_MS)
    expect(chooser).to_contain_text("Which card is it? Tap it here.")
    expect(chooser.locator(".pad-order")).to_have_count(24)  # the three players' orders: all can come
    chooser.locator('.pad-key[data-card="M"]').click()
    expect(chooser).to_be_hidden()
    expect(page.locator("#timeline li.tl")).to_have_count(1)
    assert timeline(page) == ["M"]

    send_photo(page, SAMPLE_PHOTOS / "top-00.jpg")  # a pineapple, read surely
    expect(page.locator("#timeline li.tl")).to_have_count(2, timeout=READ_MS)
    assert timeline(page) == ["M", "A"]
    expect(page.locator("#cam-status")).to_have_text("Photo read clearly: the card is revealed.")
    expect(chooser).to_be_hidden()
