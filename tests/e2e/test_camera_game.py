"""A whole three-round game scanned through the live camera page.

Chromium's fake camera plays a flip video our synthetic camera rendered for
each round (640x360, slow flips). The page sends frames to the server's flip
tracker; the test only does what players do: start the camera, answer each
order (and, should the tracker be unsure, tap the true card), end the round
and, at the end, type the hand counts.

Ann plays green, Bob red. Round 1: Ann's order needs three pineapple and a
pepper from hand (added). Round 2: Bob's order is two mushroom short (he
won't). Round 3: Ann refuses a Bombastica, Bob adds two peppers. 1–1 in
deliveries; Ann's extra hand card wins the tie.
"""
from __future__ import annotations

import time
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from companion.assets import SAMPLE_PHOTOS

from .conftest import cached_video, save_screenshot
from .test_manual_game import end_round, expect_verdict, start_game, timeline

# (pile, {order: added from hand?}, seed of the rendering)
ROUNDS = [
    ("A S g:4A+P M", {"g:4A+P": True}, 2),
    ("M A r:S+4M P", {"r:S+4M": False}, 0),
    ("S P g:15+ r:S+4P", {"g:15+": False, "r:S+4P": True}, 0),
]
VERDICTS = [{"g:4A+P": "delivered"}, {"r:S+4M": "returned"}, {"g:15+": "returned", "r:S+4P": "delivered"}]
SOURCE_FPS = 15.0
PLAYBACK_FPS = 30.0              # Chromium plays a fake-camera file at 30 frames a second
LEAD_IN_SECONDS = 1.5            # an empty table first: the tracker learns the scene
ORDER_PAUSE_SECONDS = 4.0        # nobody turns the next card while an order is decided
TAIL_SECONDS = 30.0              # still, long enough to end the round before the file loops
ROUND_TIMEOUT_SECONDS = 60.0
VIDEO_VERSION = "v1"             # bump when the rendering below changes: the cache is keyed on it


def render_round(pile: str, seed: int, path: Path, style: str = "default") -> None:
    """A fake-camera ``.mjpeg`` of ``pile`` being turned in the art ``style``,
    holding still after each order."""
    import numpy as np

    from companion.engine.cards import Order
    from companion.engine.notation import parse_pile
    from tools.synth.datasets import Art
    from tools.synth.flip_plan import plan_flip_video
    from tools.synth.style import style_named
    from tools.synth.synth_video import render_flip_frames

    art = Art.of(style_named(style))
    rng = np.random.default_rng(seed)
    plan = plan_flip_video(parse_pile(pile), rng, size=(640, 360), fps=SOURCE_FPS, fast_share=0.0, pause_scale=0.5)
    per_frame = round(PLAYBACK_FPS / SOURCE_FPS)
    holds = {0: round(LEAD_IN_SECONDS * PLAYBACK_FPS)}
    for flip in plan.flips:
        if isinstance(flip.card, Order):  # held once the hand has left the frame
            holds[min(flip.hand_left, plan.frame_count - 1)] = round(ORDER_PAUSE_SECONDS * PLAYBACK_FPS)
    partial = path.with_suffix(".part")
    last = b""
    with partial.open("wb") as out:
        for frame in render_flip_frames(plan, art.faces, rng, art.back):
            last = frame.shot.jpeg
            out.write(last * (per_frame + holds.get(frame.index, 0)))
        out.write(last * round(TAIL_SECONDS * PLAYBACK_FPS))
    partial.rename(path)


def round_video(number: int, style: str = "default") -> Path:
    """Round ``number``'s video (1 to 3) in the art ``style``, rendered once and kept between runs."""
    pile, _decisions, seed = ROUNDS[number - 1]
    return cached_video(f"round{number}-{style}", f"{VIDEO_VERSION} {seed} {pile} {style}",
                        lambda path: render_round(pile, seed, path, style))


@pytest.fixture(scope="session")
def round_videos() -> list[Path]:
    """The three rounds' videos (about 30 s to render the first time)."""
    return [round_video(number) for number in range(1, len(ROUNDS) + 1)]


CAMERA_OPEN_MS = 30_000


def scan_round(page: Page, pile: str, decisions: dict[str, bool]) -> list[str]:
    """Start the camera and play the round as the cards land; returns the
    cards the tracker was unsure of (each answered with the true card)."""
    expected = pile.split()
    page.locator("#cam-start").click()
    # a browser just launched opens its fake camera's video file when the page first asks for
    # the camera: seconds, not milliseconds, on a loaded machine
    expect(page.locator("#cam-stop")).to_be_visible(timeout=CAMERA_OPEN_MS)
    asked: list[str] = []
    deadline = time.monotonic() + ROUND_TIMEOUT_SECONDS
    while True:
        shown = timeline(page)
        assert shown == expected[:len(shown)], f"the camera revealed {shown}, the pile is {expected}"
        pending = page.locator("#pending")
        if pending.is_visible():
            order = pending.locator(".pending-card [data-card]").first.get_attribute("data-card")
            button = "Added from hand" if decisions[order] else "Can't / won't"
            pending.get_by_role("button", name=button).click()
            expect(pending).to_be_hidden()
        elif page.locator("#cam-choose").is_visible():
            true_card = expected[len(shown)]
            page.locator(f'#cam-choose button.cam-option[data-card="{true_card}"]').click()
            asked.append(true_card)
        elif len(shown) == len(expected):
            return asked
        assert time.monotonic() < deadline, f"the round did not finish: {shown} of {expected}"
        page.wait_for_timeout(100)


def test_a_whole_game_through_the_live_camera(camera_page, round_videos) -> None:
    page = camera_page(round_videos[0])
    game_id = start_game(page, lambda *args, **kwargs: None)
    for number, ((pile, decisions, _seed), verdicts, video) in enumerate(zip(ROUNDS, VERDICTS, round_videos), 1):
        if number > 1:  # a new camera file: a new browser on the same game
            page = camera_page(video)
            page.goto(f"/games/{game_id}")
        expect(page.locator("#round-title")).to_have_text(f"Round {number} of 3")
        scan_round(page, pile, decisions)
        assert timeline(page) == pile.split()
        if number == 1:
            save_screenshot(page, "camera")
        for order, verdict in verdicts.items():
            expect_verdict(page, order, verdict)
        page.locator("#cam-stop").click()
        end_round(page, number)

    expect(page.locator("#round-title")).to_have_text("Counting hand cards")
    expect(page.locator("#camera-panel")).to_be_hidden()
    hands = page.locator("#hands")
    hands.locator("input[name=green]").fill("3")
    hands.locator("input[name=red]").fill("2")
    hands.get_by_role("button", name="Show the ranking").click()
    ranking = page.locator("#ranking li")
    expect(ranking).to_have_count(2)
    assert ranking.evaluate_all("ls => ls.map(l => [l.dataset.place, l.dataset.color])") == [
        ["1", "green"], ["2", "red"]]
    expect(ranking.first).to_contain_text("1 order delivered")
    expect(ranking.first).to_contain_text("tie broken by hand cards")


def test_the_demo_round_and_a_photo_of_the_top_card(camera_page, round_videos, server) -> None:
    """A new user without cards: the demo plays the bundled sample video's round;
    then a photo (the fallback without live video) adds one more card."""
    import json
    import urllib.request

    page = camera_page(round_videos[0])
    page.goto("/")
    page.get_by_role("button", name="Demo round").click()
    expect(page.locator("#round-title")).to_have_text("Round 1 of 3")
    expect(page.locator("#pad .pad-key.double")).to_have_count(5)  # the demo plays with the doubles
    sample = [c["card"] for c in json.load(urllib.request.urlopen(f"{server}/api/sample-video"))["cards"]]
    status = page.locator("#cam-status")
    deadline = time.monotonic() + ROUND_TIMEOUT_SECONDS
    while status.inner_text() != "All cards of the video are in.":
        pending = page.locator("#pending")
        if pending.is_visible():
            pending.get_by_role("button", name="Can't / won't").click()
            expect(pending).to_be_hidden()
        elif page.locator("#cam-choose").is_visible():  # unsure in the sample: its first reading is the true card
            page.locator("#cam-choose button.cam-option").first.click()
        assert time.monotonic() < deadline, f"the demo did not finish: {timeline(page)}"
        page.wait_for_timeout(100)
    assert timeline(page) == sample
    assert sample[:3] == ["y:15+", "P2", "b:15+"]
    expect_verdict(page, "y:15+", "returned")

    page.locator("#cam-fallback summary").click()
    page.locator("#cam-photo").set_input_files(str(SAMPLE_PHOTOS / "top-00.jpg"))
    # read surely among the cards that can come next: revealed without a tap
    expect(page.locator("#timeline li.tl")).to_have_count(len(sample) + 1)
    expect(page.locator("#cam-choose")).to_be_hidden()
    assert timeline(page)[-1] == "A"
