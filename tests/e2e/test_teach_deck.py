"""Teaching a deck from the tablet, in a real browser.

Chromium's fake camera plays a video of a deck's faces, each laid alone on a
plain table in turn, after an empty table and a blurred card that the page
must refuse with the reason and a hint. The test does what a player does: it
names each face the page captures by tapping it on the pad (the player knows
the card in their hand; here a comparison with the deck's art stands in for
that, and the page's highlighted suggestion is checked against it), makes the
deck the camera's, tries it, then plays a round through the live camera with
it. The other test teaches from chosen photo files, the path of phones
without live video: refusals, a face like one already taught, a warning about
two alike faces, a retake.

The deck is the stand-in deck's art without the doubles (46 faces); the round
videos of test_camera_game show the same art, so they check the taught deck.
"""
from __future__ import annotations

import hashlib
import os
import tempfile
import time
import urllib.request
from pathlib import Path

import cv2
import numpy as np
import pytest
from playwright.sync_api import Page, expect

from companion.decks.store import cards_of

from ..web.decks_support import photo_jpeg
from .conftest import save_screenshot
from .test_camera_game import ROUNDS, VERDICTS, round_videos, scan_round  # noqa: F401 (round_videos: a fixture)
from .test_manual_game import expect_verdict, start_game, timeline

BASE = [card.notation for card in cards_of(doubles=False)]
VIDEO_SIZE = (960, 540)
SOURCE_FPS = 10.0
LEAD_IN_SECONDS = 1.5          # an empty table: refused, there is no card
BLURRED_SECONDS = 1.5          # a card out of focus: refused, with the hint to hold still
FACE_SECONDS = 2.0             # each face lies still this long, then the next one is laid
TEACH_TIMEOUT_SECONDS = 240.0  # a face missed comes round again when the video loops
VIDEO_VERSION = "v1"           # bump when the rendering below changes: the cache is keyed on it


# the video and the player's eye ---------------------------------------------------------------


def art_faces() -> dict[str, np.ndarray]:
    from tools.synth.deck_files import render_deck

    return {face.card.notation: face.image for face in render_deck() if face.card.notation in BASE}


def laid(face: np.ndarray | None, rng: np.random.Generator) -> bytes:
    """A JPEG of ``face`` lying on a plain table, somewhere near the middle and
    a little turned (no card: the empty table). The table is smooth, not
    noisy: the fake camera repeats each JPEG 30 times a second, and a noisy
    one would make the file several times larger."""
    from tools.synth.backgrounds import plain
    from tools.synth.compose import composite_card, new_labels
    from vision.cvcompat import perspective

    w, h = VIDEO_SIZE
    scene = plain(VIDEO_SIZE, np.random.default_rng(7))  # the same table throughout
    if face is not None:
        height = h * rng.uniform(0.72, 0.84)
        centre = np.array([w / 2 + rng.uniform(-120, 120), h / 2 + rng.uniform(-12, 12)])
        turn = np.radians(rng.uniform(-5, 5))
        corners = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * [height * 57 / 89 / 2, height / 2]
        quad = corners @ np.array([[np.cos(turn), np.sin(turn)], [-np.sin(turn), np.cos(turn)]]) + centre
        fh, fw = face.shape[:2]
        composite_card(scene, new_labels(VIDEO_SIZE), 0, face,
                       perspective([[0, 0], [fw, 0], [fw, fh], [0, fh]], quad.tolist()))
    return cv2.imencode(".jpg", scene, [cv2.IMWRITE_JPEG_QUALITY, 85])[1].tobytes()


def render_teach_video(faces: dict[str, np.ndarray], path: Path) -> None:
    """A fake-camera ``.mjpeg``: the empty table, a blurred card, then each face in the pad's order."""
    from tools.synth.video_files import fake_camera_repeats

    rng = np.random.default_rng(21)
    blurred = cv2.GaussianBlur(next(iter(faces.values())), (0, 0), 6)
    shots = [(laid(None, rng), LEAD_IN_SECONDS), (laid(blurred, rng), BLURRED_SECONDS)]
    shots += [(laid(faces[notation], rng), FACE_SECONDS) for notation in BASE]
    partial, index = path.with_suffix(".part"), 0
    with partial.open("wb") as out:
        for jpeg, seconds in shots:
            for _ in range(round(seconds * SOURCE_FPS)):
                out.write(jpeg * fake_camera_repeats(index, SOURCE_FPS))
                index += 1
    partial.rename(path)


@pytest.fixture(scope="module")
def faces() -> dict[str, np.ndarray]:
    return art_faces()


@pytest.fixture(scope="module")
def teach_video(faces) -> Path:
    """The teaching video, rendered once and kept between runs."""
    cache = Path(os.environ.get("MAMMA_MIA_E2E_CACHE", Path(tempfile.gettempdir()) / "mamma-mia-e2e-camera"))
    cache.mkdir(parents=True, exist_ok=True)
    key = hashlib.sha1(f"{VIDEO_VERSION} {VIDEO_SIZE} {FACE_SECONDS} {' '.join(BASE)}".encode()).hexdigest()[:10]
    path = cache / f"teach-{key}.mjpeg"
    if not path.exists():
        render_teach_video(faces, path)
    return path


def which_face(png: bytes, faces: dict[str, np.ndarray]) -> str:
    """The card a straightened face shows: the art it is closest to."""
    def small(image: np.ndarray) -> np.ndarray:
        return cv2.resize(image, (50, 78), interpolation=cv2.INTER_AREA).astype(np.float32)

    seen = small(cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR))
    return min(faces, key=lambda notation: float(np.mean((small(faces[notation]) - seen) ** 2)))


# the pages --------------------------------------------------------------------------------------


def new_deck(page: Page, name: str) -> None:
    """Create a deck without the doubles on the Your cards page, which opens its teaching page."""
    page.goto("/")
    page.get_by_role("link", name="Your cards").click()
    expect(page.locator('li.deck-line[data-deck="standin"]')).to_contain_text("The camera uses this deck")
    page.locator("#new-deck input[name=name]").fill(name)
    page.locator("#new-deck input[name=doubles]").uncheck()
    page.get_by_role("button", name="Create and start teaching").click()
    expect(page.locator("#progress")).to_have_text("0 of 46 faces")


def progress(page: Page, taught: int) -> None:
    expect(page.locator("#progress")).to_have_text(f"{taught} of 46 faces")


def suggested(page: Page) -> str | None:
    marked = page.locator("#pad-keys button.suggested")
    return marked.get_attribute("data-card") if marked.count() else None


def name_captures(page: Page, server: str, faces: dict[str, np.ndarray]) -> int:
    """Name every face the camera captures until the deck is complete, as a
    player holding the card would; returns how often the page's highlighted
    suggestion was that card."""
    capture, taught, right = page.locator("#capture"), 0, 0
    deadline = time.monotonic() + TEACH_TIMEOUT_SECONDS
    while taught < len(BASE):
        assert time.monotonic() < deadline, f"{taught} of {len(BASE)} faces taught in time"
        if not capture.is_visible():
            page.wait_for_timeout(100)
            continue
        picture = urllib.request.urlopen(server + page.locator("#capture-face").get_attribute("src")).read()
        true_card = which_face(picture, faces)
        key = page.locator(f'#pad-keys button[data-card="{true_card}"]')
        if not key.count():  # captured again after it was taught: not a new face
            page.locator("#skip").click()
            continue
        right += suggested(page) == true_card
        if taught == 2:
            save_screenshot(page, "teach-camera")
        key.click()
        taught += 1
        progress(page, taught)
    return right


def test_a_deck_taught_from_chosen_photos(page: Page, tmp_path: Path, shoot) -> None:
    photos = {"salami.jpg": photo_jpeg("S"), "pineapple-blurred.jpg": photo_jpeg("A", blur=3),
              "pineapple.jpg": photo_jpeg("A"), "salami-again.jpg": photo_jpeg("S"),
              "pineapple-again.jpg": photo_jpeg("A"), "pepper.jpg": photo_jpeg("P")}
    for name, data in photos.items():
        (tmp_path / name).write_bytes(data)

    def choose(*names: str) -> None:
        page.locator("#photos").set_input_files([str(tmp_path / name) for name in names])

    new_deck(page, "Photos")
    capture = page.locator("#capture")
    choose("salami.jpg", "pineapple-blurred.jpg", "pineapple.jpg", "salami-again.jpg")
    expect(capture).to_contain_text("salami.jpg")
    assert suggested(page) == "S"  # the first card missing: one tap confirms it
    page.locator("#pad-keys button.suggested").click()
    progress(page, 1)

    refused = page.locator('#notes li.refused[data-problem="blurred"]')
    expect(refused).to_contain_text("pineapple-blurred.jpg: The picture is blurred. Hold the camera still")
    expect(capture).to_contain_text("pineapple.jpg")
    assert suggested(page) == "A"
    page.locator("#pad-keys button.suggested").click()
    progress(page, 2)

    # the salami again: the page says it looks like a face already taught; named the pepper by mistake
    expect(capture).to_contain_text("salami-again.jpg")
    expect(page.locator("#capture-advice")).to_contain_text("looks very much like a face already taught")
    expect(page.locator('#capture-advice [data-card="S"]')).to_have_count(1)
    assert suggested(page) == "M"
    shoot("teach")
    page.locator('#pad-keys button[data-card="P"]').click()
    progress(page, 3)
    alike = page.locator("#notes li.similar").first
    expect(alike).to_contain_text("Very much alike, the camera might confuse them:")
    expect(alike).to_contain_text("check that the two cards really differ there")
    assert alike.locator("[data-card]").evaluate_all("cs => cs.map(c => c.dataset.card)") == ["P", "S"]
    expect(page.locator("#cam-status")).to_have_text("Every chosen photo has been read.")

    # retake the pepper: its face goes, and the pepper is highlighted before the mushroom missing since
    page.locator('#taught button[data-card="P"]').click()
    page.get_by_role("button", name="Remove and retake").click()
    progress(page, 2)
    expect(page.locator("#step")).to_contain_text("Lay this card again:")
    choose("pineapple-again.jpg", "pepper.jpg")
    expect(page.locator("#capture-advice")).to_contain_text("looks very much like a face already taught")
    page.get_by_role("button", name="Skip this picture").click()
    expect(capture).to_contain_text("pepper.jpg")
    assert suggested(page) == "P"
    page.locator("#pad-keys button.suggested").click()
    progress(page, 3)
    assert page.locator("#taught button").evaluate_all("bs => bs.map(b => b.dataset.card)") == ["S", "A", "P"]

    page.get_by_role("link", name="Your cards").click()
    line = page.locator("li.deck-line", has_text="Photos")
    expect(line).to_contain_text("3 of 46 faces")
    expect(line.get_by_role("link", name="Continue teaching")).to_be_visible()
    expect(line.get_by_role("button", name="Use this deck")).to_have_count(0)  # not complete
    shoot("cards")


def test_a_deck_taught_through_the_live_camera_plays_a_round(camera_page, teach_video, round_videos,
                                                             faces, server) -> None:
    page = camera_page(teach_video)
    new_deck(page, "Our cards")
    page.locator("#cam-start").click()
    # the empty table, then the blurred card: refused, each with what to do
    expect(page.locator('#step.refused[data-problem="no_card"]')).to_contain_text(
        "No card found in the picture. Lay the card alone on a plain table")
    expect(page.locator('#step.refused[data-problem="blurred"]')).to_contain_text(
        "The picture is blurred. Hold the camera still")
    right = name_captures(page, server, faces)
    assert right >= len(BASE) - 3, f"the highlighted suggestion was the card only {right} times of {len(BASE)}"

    expect(page.locator("#done")).to_be_visible()
    expect(page.locator("#pad")).to_be_hidden()
    page.get_by_role("button", name="Use this deck").click()
    expect(page.locator("#done-active")).to_contain_text("The camera uses this deck")
    # try it: the camera goes on, and reads the faces the video shows
    reading = page.locator('#readings li.reading[data-sure="true"]').first
    expect(reading).to_be_visible(timeout=30_000)
    assert reading.get_attribute("data-card") in BASE
    save_screenshot(page, "teach-try")
    page.locator("#cam-stop").click()

    page.get_by_role("link", name="Your cards").click()
    line = page.locator("li.deck-line", has_text="Our cards")
    expect(line).to_contain_text("46 of 46 faces")
    expect(line).to_contain_text("The camera uses this deck")
    expect(line.get_by_role("link", name="Faces and retakes")).to_be_visible()

    # a round through the live camera, read with the taught deck
    pile, decisions, _seed = ROUNDS[0]
    page = camera_page(round_videos[0])
    start_game(page, lambda *args, **kwargs: None)
    scan_round(page, pile, decisions)
    assert timeline(page) == pile.split()
    for order, verdict in VERDICTS[0].items():
        expect_verdict(page, order, verdict)
