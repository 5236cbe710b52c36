"""The Maus camera's stages joined: a photo of cards laid in a row in, each
card's colour, sweet value and coins out, left to right.

1. find and name the faces: the Mamma Mia! recogniser
   (:class:`vision.recognize.pipeline.Recogniser`: detect, rectify, identify),
   which knows only the taught faces, so it serves any deck; then the cards
   the row implies beside them (:func:`completed_row`);
2. read each card (:func:`read_card`): how far its face leads every face of
   another colour, value or coin count, and the printed value read again by
   the number reader, which must agree for the value to be sure;
3. order them left to right (:func:`left_to_right`).

>>> from vision.maus import MausReader
>>> reader = MausReader.standin()
>>> reader.read(np.zeros((480, 640, 3), np.uint8)).cards
()
"""
from __future__ import annotations

from typing import Callable, Iterable

import numpy as np

from companion.maus.engine import Card

from ..geometry import inside_convex
from ..recognize.identify import card_scores
from ..recognize.imagefile import WORK_PIXELS, decode_image
from ..recognize.pipeline import Recogniser
from ..threads import one_thread
from ..recognize.rectify import rectify
from ..recognize.refine import align
from ..recognize.types import Detection, Quad
from .config import DEFAULT_MAUS_CONFIG, MausVisionConfig
from .deck import MausDeck, load_maus_deck
from .numbers import TesseractNumerals, read_face
from .row import neighbour_outlines
from .types import LaidCard, NumeralReading, PartReading, TableReading

NumberReader = Callable[[np.ndarray, Card], NumeralReading]  # (face, the card it was named as)


class BadImage(ValueError):
    """An image the reader cannot look at; the message says why."""


class MausReader:
    """Reads photos of laid Maus cards against one deck."""

    def __init__(self, deck: MausDeck, config: MausVisionConfig = DEFAULT_MAUS_CONFIG) -> None:
        self.deck = deck
        self.config = config
        self.recogniser = Recogniser(deck.reference, config.recognise)
        values = tuple(sorted({card.value for card in deck.cards}))
        self.numbers: NumberReader = deck.numerals.read if config.number_reader == "templates" \
            else TesseractNumerals(values, config).read

    @classmethod
    def standin(cls, config: MausVisionConfig = DEFAULT_MAUS_CONFIG) -> MausReader:
        """A reader of the stand-in deck the app ships."""
        return cls(load_maus_deck(None, config), config)

    def read(self, image: np.ndarray) -> TableReading:
        """The cards in ``image`` (BGR, 8 bits), left to right; :class:`BadImage` for
        anything that is not such an image."""
        check_image(image)
        with one_thread():
            found = completed_row(image, self.recogniser.recognise(image), self.recogniser, self.config)
            return TableReading(left_to_right(read_card(image, d, self.deck, self.numbers, self.config)
                                              for d in found))

    def read_bytes(self, data: bytes) -> TableReading:
        """The cards in an image file's bytes (JPEG, PNG, ...); a file that is not a
        usable image raises :class:`vision.recognize.imagefile.ImageFileError` saying why."""
        return self.read(decode_image(data, work_pixels=WORK_PIXELS))


def check_image(image: object) -> None:
    if not isinstance(image, np.ndarray):
        raise BadImage(f"expected an image array, not {type(image).__name__}")
    if image.dtype != np.uint8 or image.ndim != 3 or image.shape[2] != 3:
        raise BadImage(f"expected an 8-bit colour image (height, width, 3), not {image.dtype} {image.shape}")
    if min(image.shape[:2]) < 16:
        raise BadImage(f"{image.shape[1]} x {image.shape[0]} pixels is too small to show a card")


def completed_row(image: np.ndarray, found: list[Detection], recogniser: Recogniser,
                  config: MausVisionConfig = DEFAULT_MAUS_CONFIG) -> list[Detection]:
    """``found`` and the cards beside them that the row implies (:mod:`.row`)."""
    size = (image.shape[1], image.shape[0])
    found = list(found)
    for _ in range(config.row_rounds if found else 0):
        implied = [_implied(image, place, recogniser, config) for place in neighbour_outlines(found, size, config)]
        added = [card for card in implied if card is not None and not _overlaps(card, found)]
        if not added:
            break
        found += added
    return found


def _implied(image: np.ndarray, place: list[Quad], recogniser: Recogniser,
             config: MausVisionConfig) -> Detection | None:
    """The card at one place the row implies, if any: its likeliest outlines,
    each aligned with the face it looks like, either way up (a look this
    faint says little of which way up a card lies), then with the face it
    looks like once aligned, if another, until one is named surely enough."""
    looks = sorted((recogniser.examine(image, quad) for quad in place), key=lambda d: -d.confidence)
    for look in looks[:config.row_looks]:
        if look.confidence < config.row_attempt:
            break
        for corners in (look.corners, look.corners[[2, 3, 0, 1]]):
            seen = _aligned(image, Quad(corners), look.card, recogniser, config)
            if seen is not None and seen.confidence >= config.row_confidence:
                return seen
    return None


def _aligned(image: np.ndarray, quad: Quad, card: Card, recogniser: Recogniser,
             config: MausVisionConfig) -> Detection | None:
    seen = None
    for _ in range(2):
        aligned = align(image, quad, recogniser.deck.templates_of(card)[-1], config.row_align, config.recognise)
        if aligned is None:
            return seen
        seen = recogniser.examine(image, aligned)
        if seen.card == card:
            break
        quad, card = Quad(seen.corners), seen.card
    return seen


def _overlaps(card: Detection, found: list[Detection]) -> bool:
    return any(inside_convex(other.corners, card.center[None])[0] or inside_convex(card.corners, other.center[None])[0]
               for other in found)


def read_card(image: np.ndarray, detection: Detection, deck: MausDeck, numbers: NumberReader,
              config: MausVisionConfig = DEFAULT_MAUS_CONFIG) -> LaidCard:
    """One found card read. Its colour is sure when its face is named with
    enough similarity and leads every taught face of another colour clearly;
    its value when the face leads those of other values and the number reader
    reads the same value, sure; its coins likewise with the coins' reader,
    whose count is reported (it compares the coins alone)."""
    named: Card = detection.card  # type: ignore[assignment]
    quad = Quad(detection.corners)
    scores = card_scores(rectify(image, quad, config.recognise.face_size), deck.reference)
    own = min(float(scores[deck.cards.index(named)]), detection.confidence)
    face = read_face(image, quad, config)
    numeral, coins = numbers(face, named), deck.coins.read(face, named)
    card = named if coins.value is None else Card(named.ingredient, named.value, coins.value)

    def part(differs: Callable[[Card], bool], margin: float, reading: NumeralReading | None = None) -> PartReading:
        lead = own - max((float(s) for other, s in zip(deck.cards, scores) if differs(other)), default=-1.0)
        confidence = min(own, 0.5 + lead) if reading is None else min(own, 0.5 + lead, reading.score)
        agrees = reading is None or reading.sure
        return PartReading(round(max(0.0, confidence), 4),
                           agrees and own >= config.sure_confidence and lead >= margin)

    return LaidCard(
        card,
        part(lambda other: other.ingredient is not named.ingredient, config.sure_colour_margin),
        part(lambda other: other.value != named.value, config.sure_print_margin, _agreeing(numeral, named.value)),
        part(lambda other: other.coins != named.coins, config.sure_print_margin, _agreeing(coins, named.coins)),
        numeral,
        tuple((float(x), float(y)) for x, y in detection.corners),
    )


def _agreeing(reading: NumeralReading, named: int | None) -> NumeralReading:
    """``reading`` as support for the face's ``named`` number: none unless it reads the same."""
    return reading if reading.value == named else NumeralReading(reading.value, 0.0, 0.0, False)


def left_to_right(cards: Iterable[LaidCard]) -> tuple[LaidCard, ...]:
    """The cards ordered by where their centres lie across the photo."""
    return tuple(sorted(cards, key=lambda card: card.centre[0]))
