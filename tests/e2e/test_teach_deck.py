"""Teaching a deck from the tablet, in a real browser.

Chromium's fake camera plays the teaching video of ``python -m tools.synth
teach-video``: the 51 faces of the hard art style, each laid alone on a
table in turn (in a shuffled order, with a hand or the empty table between
them). The test does what a player does: it names each face the page
captures by tapping it on the pad (the player knows the card in their hand;
here the video's truth file stands in for that: the picture sent is matched
to the frames where each face lies still, and the highlighted suggestion is
used when it is that card), makes
the deck the camera's, tries it, then plays a round through the live camera
with it, filmed in the same art. The other test teaches from chosen photo
files, the path of phones without live video: refusals, a face like one
already taught, faces alike, a retake.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import pytest
from playwright.sync_api import Page, expect

from ..web.decks_support import photo_jpeg
from .conftest import cached_video, save_screenshot
from .test_camera_game import ROUNDS, VERDICTS, round_video, scan_round
from .test_manual_game import expect_verdict, start_game, timeline

STYLE = "hard"
SEED = 3
TEACH_TIMEOUT_SECONDS = 300.0  # a face missed comes round again when the video loops
VIDEO_VERSION = "v1"           # bump when the video's recipe changes: the cache is keyed on it


@dataclass(frozen=True)
class TeachVideo:
    """The fake camera's file, and a frame of each face lying still in it."""

    path: Path
    shots: dict[str, np.ndarray]  # by notation, small (see which_face)

    @classmethod
    def read(cls, path: Path) -> TeachVideo:
        from tools.synth.video_files import split_mjpeg

        truth = json.loads(path.with_suffix(".json").read_text())
        frames = split_mjpeg(path.read_bytes())
        shots = {shown["notation"]: small(frames[sum(shown["playback_frames"]) // 2]) for shown in truth["cards"]}
        return cls(path, shots)

    def which_face(self, sent: bytes) -> str:
        """The card in the picture the page sent: the one lying still in the
        frame it is closest to (each lies in its own place, a little turned)."""
        seen = small(sent)
        return min(self.shots, key=lambda notation: float(np.mean((self.shots[notation] - seen) ** 2)))


def small(jpeg: bytes) -> np.ndarray:
    image = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    return cv2.resize(image, (160, 120), interpolation=cv2.INTER_AREA).astype(np.float32)


def render_teach_video(path: Path) -> None:
    from tools.synth.cli import main

    partial = path.with_name(f"part-{path.name}")
    assert main(["teach-video", "--style", STYLE, "--seed", str(SEED), "--out", str(partial)]) == 0
    partial.with_suffix(".json").rename(path.with_suffix(".json"))
    partial.rename(path)  # last: the video's presence says both files are whole


@pytest.fixture(scope="module")
def teach_video() -> TeachVideo:
    """The video (about a minute to render the first time) and what it shows."""
    return TeachVideo.read(cached_video(f"teach-{STYLE}", f"{VIDEO_VERSION} {STYLE} {SEED}", render_teach_video))


# the pages --------------------------------------------------------------------------------------


def new_deck(page: Page, name: str, doubles: bool) -> int:
    """Create a deck on the Your cards page, which opens its teaching page; returns its number of faces."""
    page.goto("/")
    page.get_by_role("link", name="Your cards").click()
    expect(page.locator('li.deck-line[data-deck="standin"]')).to_contain_text("The camera uses this deck")
    page.locator("#new-deck input[name=name]").fill(name)
    page.locator("#new-deck input[name=doubles]").set_checked(doubles)
    page.get_by_role("button", name="Create and start teaching").click()
    total = 51 if doubles else 46
    expect(page.locator("#progress")).to_have_text(f"0 of {total} faces")
    return total


def progress(page: Page, taught: int, total: int) -> None:
    # a face is checked against every order taught before it (about 1.4 s of computer time with 40
    # orders), which on a busy 2-core machine takes longer than playwright's 5 s default
    expect(page.locator("#progress")).to_have_text(f"{taught} of {total} faces", timeout=30_000)


def suggested(page: Page) -> str | None:
    marked = page.locator("#pad-keys button.suggested")
    return marked.get_attribute("data-card") if marked.count() else None


def sent(deck_folder: Path, page: Page) -> bytes:
    """The picture the page sent whose face now waits for its card, as the server keeps it."""
    from companion.decks.pending import find

    token = page.locator("#capture-face").get_attribute("src").rsplit("/", 1)[1].removesuffix(".png")
    return find(deck_folder, token).original.read_bytes()


def name_captures(page: Page, video: TeachVideo, deck_folder: Path) -> None:
    """Name every face the camera captures until the deck is complete, as a
    player holding the card would: one tap on the highlighted card when it is
    the one, else on the card it is."""
    capture, taught = page.locator("#capture"), 0
    deadline = time.monotonic() + TEACH_TIMEOUT_SECONDS
    while taught < len(video.shots):
        assert time.monotonic() < deadline, f"{taught} of {len(video.shots)} faces taught in time"
        if not capture.is_visible():
            page.wait_for_timeout(100)
            continue
        true_card = video.which_face(sent(deck_folder, page))
        key = page.locator(f'#pad-keys button[data-card="{true_card}"]')
        if not key.count():  # captured again after it was taught: not a new face
            page.get_by_role("button", name="Skip this picture").click()
            continue
        if taught == 2:
            save_screenshot(page, "teach-camera")
        if suggested(page) == true_card:
            key = page.locator("#pad-keys button.suggested")
        key.click()
        taught += 1
        progress(page, taught, len(video.shots))


def test_a_deck_taught_from_chosen_photos(page: Page, tmp_path: Path, shoot) -> None:
    photos = {"salami.jpg": photo_jpeg("S"), "pineapple-blurred.jpg": photo_jpeg("A", blur=3),
              "pineapple.jpg": photo_jpeg("A"), "salami-again.jpg": photo_jpeg("S"),
              "pineapple-again.jpg": photo_jpeg("A"), "pepper.jpg": photo_jpeg("P")}
    for name, data in photos.items():
        (tmp_path / name).write_bytes(data)

    def choose(*names: str) -> None:
        page.locator("#photos").set_input_files([str(tmp_path / name) for name in names])

    total = new_deck(page, "Photos", doubles=False)
    capture = page.locator("#capture")
    choose("salami.jpg", "pineapple-blurred.jpg", "pineapple.jpg", "salami-again.jpg")
    expect(capture).to_contain_text("salami.jpg")
    assert suggested(page) == "S"  # the first card missing: one tap confirms it
    page.locator("#pad-keys button.suggested").click()
    progress(page, 1, total)

    refused = page.locator('#notes li.refused[data-problem="blurred"]')
    expect(refused).to_contain_text("pineapple-blurred.jpg: The picture is blurred. Hold the camera still")
    expect(capture).to_contain_text("pineapple.jpg")
    assert suggested(page) == "A"
    page.locator("#pad-keys button.suggested").click()
    progress(page, 2, total)

    # the salami again: the page says it looks like a face already taught; named the pepper by mistake
    expect(capture).to_contain_text("salami-again.jpg")
    expect(page.locator("#capture-advice")).to_contain_text("looks very much like a face already taught")
    expect(page.locator('#capture-advice [data-card="S"]')).to_have_count(1)
    assert suggested(page) == "M"
    shoot("teach")
    page.locator('#pad-keys button[data-card="P"]').click()
    progress(page, 3, total)
    alike = page.locator("#notes li.similar").first
    expect(alike).to_contain_text("Very much alike, the camera might confuse them:")
    expect(alike).to_contain_text("check that the cards really differ there")
    assert alike.locator("[data-card]").evaluate_all("cs => cs.map(c => c.dataset.card)") == ["P", "S"]
    expect(page.locator("#cam-status")).to_have_text("Every chosen photo has been read.")

    # retake the pepper: its face goes, and the pepper is highlighted before the mushroom missing since
    page.locator('#taught button[data-card="P"]').click()
    page.get_by_role("button", name="Remove and retake").click()
    progress(page, 2, total)
    expect(page.locator("#step")).to_contain_text("Lay this card again:")
    choose("pineapple-again.jpg", "pepper.jpg")
    expect(page.locator("#capture-advice")).to_contain_text("looks very much like a face already taught")
    page.get_by_role("button", name="Skip this picture").click()
    expect(capture).to_contain_text("pepper.jpg")
    assert suggested(page) == "P"
    page.locator("#pad-keys button.suggested").click()
    progress(page, 3, total)
    assert page.locator("#taught button").evaluate_all("bs => bs.map(b => b.dataset.card)") == ["S", "A", "P"]

    page.get_by_role("link", name="Your cards").click()
    line = page.locator("li.deck-line", has_text="Photos")
    expect(line).to_contain_text("3 of 46 faces")
    expect(line.get_by_role("link", name="Continue teaching")).to_be_visible()
    expect(line.get_by_role("button", name="Use this deck")).to_have_count(0)  # not complete
    shoot("cards")


def test_a_deck_taught_through_the_live_camera_plays_a_round(camera_page, teach_video, instance_folder) -> None:
    page = camera_page(teach_video.path)
    new_deck(page, "Our cards", doubles=True)
    page.locator("#cam-start").click()
    name_captures(page, teach_video, instance_folder / "decks" / "our-cards")

    expect(page.locator("#done")).to_be_visible()
    expect(page.locator("#pad")).to_be_hidden()
    page.get_by_role("button", name="Use this deck").click()
    expect(page.locator("#done-active")).to_contain_text("The camera uses this deck")
    # try it: the camera goes on, and says what it reads in the faces the video shows
    reading = page.locator('#readings li.reading:not([data-card=""])').first
    expect(reading).to_be_visible(timeout=30_000)
    assert reading.get_attribute("data-card") in teach_video.shots
    save_screenshot(page, "teach-try")
    page.locator("#cam-stop").click()

    page.get_by_role("link", name="Your cards").click()
    line = page.locator("li.deck-line", has_text="Our cards")
    expect(line).to_contain_text("51 of 51 faces")
    expect(line).to_contain_text("The camera uses this deck")
    expect(line.get_by_role("link", name="Faces and retakes")).to_be_visible()

    # a round through the live camera, filmed in the same art, read with the taught deck
    pile, decisions, _seed = ROUNDS[0]
    page = camera_page(round_video(1, STYLE))
    start_game(page, lambda *args, **kwargs: None)
    scan_round(page, pile, decisions)
    assert timeline(page) == pile.split()
    for order, verdict in VERDICTS[0].items():
        expect_verdict(page, order, verdict)
