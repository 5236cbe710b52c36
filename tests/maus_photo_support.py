"""Photos of chosen Maus au Chocolat cards laid side by side, made at test
time by the synthetic camera (tools/synth/maus_photo.py) with the stand-in
art the app reads: the web and browser tests upload them."""
from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from companion.maus.engine import Card
from tools.synth.camera_effects import CameraLook
from tools.synth.datasets import item_rng
from tools.synth.maus_photo import MausArt, left_to_right, sample_laid_spec
from tools.synth.photo_spec import PlacedCard
from tools.synth.synth_photo import render_table_photo


@lru_cache(maxsize=1)
def art() -> MausArt:
    return MausArt.of()


def laid_photo(notations: list[str], seed: int) -> bytes:
    """A JPEG of these cards (with their coins: ``"g5/3"``) in a row, left to
    right as given: a clear photo, the row at a slant, the camera tilted."""
    cards = [Card.from_notation(n) for n in notations]
    faces = art()
    for attempt in range(30):  # a row seen from across the table comes out right to left: try another
        spec = sample_laid_spec(item_rng(seed, attempt), list(faces.faces), count=len(cards))
        placed = tuple(PlacedCard(card, laid.pose) for card, laid in zip(cards, spec.cards))
        spec = replace(spec, cards=placed, look=CameraLook(noise=2.0, jpeg_quality=90))
        photo = render_table_photo(faces.faces, spec, item_rng(seed, 1000 + attempt), faces.back)
        if left_to_right(photo) == cards:
            return photo.jpeg
    raise RuntimeError("no photo with the cards left to right")
