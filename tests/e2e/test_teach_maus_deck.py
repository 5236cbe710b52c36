"""Teaching a printed Maus au Chocolat deck from the tablet, in a real
browser: the Your cards page's Maus list, a new Maus deck, phone photos
chosen at once and named on the pad of Maus faces (colour x value x coins),
a retake; then, the deck completed, trying it on a photo of a laid row."""
from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, expect

from companion.maus.engine import Card

from tools.synth.datasets import item_rng
from tools.synth.maus_art import maus_faces
from tools.synth.maus_enroll import maus_card_photo
from tools.synth.maus_photo import MausArt, left_to_right, random_laid_photo
from tools.synth.maus_style import DEFAULT_MAUS_STYLE
from vision.cvcompat import encode_jpeg

from ..web.test_decks_maus import FACES, maus_png

SEED = 7  # phone photos of these faces that teaching takes at once


def phone_photo(notation: str) -> bytes:
    card = Card.from_notation(notation)
    return maus_card_photo(DEFAULT_MAUS_STYLE, SEED, maus_faces().index(card), card).photo.jpeg


def progress(page: Page, taught: int) -> None:
    expect(page.locator("#progress")).to_have_text(f"{taught} of 70 faces", timeout=30_000)


def suggested(page: Page) -> str | None:
    marked = page.locator("#pad-keys button.suggested")
    return marked.get_attribute("data-card") if marked.count() else None


def test_a_maus_deck_taught_from_chosen_photos_and_tried(page: Page, tmp_path: Path) -> None:
    for notation in ("r3/3", "r3/4", "r4/2"):
        (tmp_path / f"{notation.replace('/', '-')}.jpg").write_bytes(phone_photo(notation))
    page.goto("/cards")
    page.get_by_role("link", name="Maus au Chocolat").click()
    expect(page.locator('li.deck-line[data-deck="maus-standin"]')).to_contain_text("70 of 70 faces")
    page.locator("#new-deck input[name=name]").fill("Maus club")
    expect(page.locator("#new-deck input[name=doubles]")).to_have_count(0)
    page.get_by_role("button", name="Create and start teaching").click()
    progress(page, 0)
    page.locator("#photos").set_input_files([str(tmp_path / n) for n in ("r3-3.jpg", "r4-2.jpg", "r3-4.jpg")])

    capture = page.locator("#capture")
    expect(capture).to_contain_text("r3-3.jpg")
    assert suggested(page) == "r3/3"  # the first face missing: one tap confirms it
    keys = page.locator("#pad-keys button[data-card]")
    assert keys.count() == 70 and keys.first.get_attribute("aria-label") == "red 3, coins: 3"
    expect(page.locator('#pad-keys button[data-card="g5/3"] .coins')).to_have_text("●●●")
    page.locator("#pad-keys button.suggested").click()
    progress(page, 1)

    expect(capture).to_contain_text("r4-2.jpg")
    assert suggested(page) == "r3/4"  # the next one missing; the player taps the card it is
    page.locator('#pad-keys button[data-card="r4/2"]').click()
    progress(page, 2)
    expect(capture).to_contain_text("r3-4.jpg")
    page.locator('#pad-keys button[data-card="r3/4"]').click()
    progress(page, 3)
    assert page.locator("#taught button").evaluate_all("bs => bs.map(b => b.dataset.card)") == [
        "r3/3", "r3/4", "r4/2"]

    page.locator('#taught button[data-card="r4/2"]').click()  # retake one
    page.get_by_role("button", name="Remove and retake").click()
    progress(page, 2)

    # the rest taught through the API (as the page does, one face at a time), then tried on the page
    deck = page.url.split("/cards/")[1].split("/")[0]
    for notation in FACES:
        if notation not in ("r3/3", "r3/4"):
            response = page.request.post(f"/api/decks/{deck}/faces?card={notation.replace('/', '%2F')}",
                                         data=maus_png(notation), headers={"Content-Type": "image/png"})
            assert response.status == 201, notation
    page.reload()
    expect(page.locator("#done")).to_be_visible()
    laid = random_laid_photo(MausArt.of(), item_rng(777, 0))
    (tmp_path / "row.jpg").write_bytes(encode_jpeg(laid.image, 92))
    page.locator("#photos").set_input_files(str(tmp_path / "row.jpg"))
    reading = page.locator("#readings li.reading").first
    expect(reading).to_contain_text("row.jpg")
    read = [Card.from_notation(n) for n in reading.get_attribute("data-cards").split()]
    assert [(c.ingredient, c.value) for c in read] == [(c.ingredient, c.value) for c in left_to_right(laid)]
    page.get_by_role("button", name="Use this deck").click()
    expect(page.locator("#done-active")).to_be_visible()
    page.goto("/cards?game=maus")
    expect(page.locator(f'li.deck-line[data-deck="{deck}"]')).to_contain_text("The camera uses this deck")
    page.goto("/cards")
    expect(page.locator('li.deck-line[data-deck="standin"]')).to_contain_text("The camera uses this deck")
