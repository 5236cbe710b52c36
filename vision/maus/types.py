"""What the Maus camera reports: small frozen dataclasses."""
from __future__ import annotations

from dataclasses import dataclass

from companion.maus.engine import Card, Ingredient


@dataclass(frozen=True)
class PartReading:
    """How sure the camera is of one part of a card (its colour, value or coins)."""

    confidence: float  # 0..1
    sure: bool


@dataclass(frozen=True)
class NumeralReading:
    """A printed sweet value as a number reader saw it."""

    value: int | None  # None: nothing legible
    score: float       # 0..1
    margin: float      # over the next likeliest value
    sure: bool


@dataclass(frozen=True)
class LaidCard:
    """One card of the row: what it is, how sure each part is, and where it
    lies (corners top-left, top-right, bottom-right, bottom-left of the face
    as printed, in image pixels).

    ``sure`` speaks for colour and value, what a combination needs; a bid
    needs ``coins.sure`` as well.
    """

    card: Card  # with its coins
    colour: PartReading
    value: PartReading
    coins: PartReading
    numeral: NumeralReading  # the value reader's own opinion
    corners: tuple[tuple[float, float], ...]

    @property
    def ingredient(self) -> Ingredient:
        return self.card.ingredient

    @property
    def confidence(self) -> float:
        return min(self.colour.confidence, self.value.confidence)

    @property
    def sure(self) -> bool:
        return self.colour.sure and self.value.sure

    @property
    def centre(self) -> tuple[float, float]:
        xs, ys = zip(*self.corners)
        return sum(xs) / 4, sum(ys) / 4

    def __repr__(self) -> str:
        sure = "sure" if self.sure else "unsure"
        return f"<LaidCard {self.card.notation} {self.confidence:.2f} {sure}>"


@dataclass(frozen=True)
class TableReading:
    """The cards laid in a photo, left to right."""

    cards: tuple[LaidCard, ...]

    @property
    def sure(self) -> bool:
        """Every card found is sure of its colour and value (and some were found)."""
        return bool(self.cards) and all(card.sure for card in self.cards)

    @property
    def notation(self) -> str:
        """The cards in Maus card notation, coins included: ``g5/3 b4/2 r6/1``."""
        return " ".join(card.card.notation for card in self.cards)
