"""Every threshold of the Maus au Chocolat camera, in one object."""
from __future__ import annotations

from dataclasses import dataclass, replace

from ..recognize.config import DEFAULT_CONFIG, AlignStep, VisionConfig


@dataclass(frozen=True)
class MausVisionConfig:
    """How laid Maus cards are found, read and judged sure.

    Finding a card and naming its face are the Mamma Mia! stages
    (``recognise``): they know nothing of either game, only of the taught
    faces. What this object adds is reading the printed sweet value as a
    second opinion, and when each part of a card counts as sure.
    """

    # a face the recogniser names with enough similarity stands without alignment however
    # close its runner-up: a Maus face's runners-up are mostly the faces of its colour
    # that differ in a small print (value, coins), which the readers below judge; aligning
    # each card to tell those apart would cost most of the time a photo takes
    recognise: VisionConfig = replace(DEFAULT_CONFIG, sure_margin=0.0)
    # the face is read at this size (width, height); the sweet value is printed in this box
    # (x0, y0, x1, y1 as shares of the face: the sheet puts the value in the card's centre)
    # the cards a row implies (vision.maus.row): a single card's neighbours are looked for
    # this many card widths from it along its top edge; a longer row's beyond its ends at
    # these shares of the spacing before them, and between two cards spaced more than
    # row_gap times the usual
    row_spacings: tuple[float, ...] = (1.05, 1.15, 1.25, 1.35, 1.5)
    row_spacing_tries: tuple[float, ...] = (0.95, 1.0, 1.05)
    row_gap: float = 1.7
    row_margin: float = 4.0  # pixels: an implied card must lie this far inside the picture
    # the outlines of a place named with at least this similarity, the likeliest few, are
    # aligned with their face by ECC (the outline is a guess, its perspective carried on
    # from the cards found), and the first then named with at least row_confidence is kept;
    # a card found so may imply the next
    row_attempt: float = 0.15
    row_looks: int = 2
    row_align: AlignStep = AlignStep(1, (64, 100), 30, 0.2)
    row_confidence: float = 0.8
    row_rounds: int = 3
    read_size: tuple[int, int] = (100, 156)
    # ... with this share of its width and height around it on every side: an outline may
    # be traced along the frame printed inside a card rather than along its edge
    read_pad: float = 0.1
    value_box: tuple[float, float, float, float] = (0.3, 0.34, 0.7, 0.66)
    # a numeral may sit this far off its taught place (share of the card's width): an outline
    # traced along a printed frame, or a printing cut a little differently
    value_slack: float = 0.08
    # which reader the value's second opinion comes from: "templates" (numerals learnt from
    # the taught faces) or "tesseract"; the benchmark measures both (docs/maus.md)
    number_reader: str = "templates"
    # the coins are printed in the upper corners: this box, read the same way
    coins_box: tuple[float, float, float, float] = (0.04, 0.03, 0.96, 0.42)
    coins_slack: float = 0.08
    # the coins' box is placed at each of these scales (an outline traced along a frame
    # printed inside the card shows the card larger than taught), and both it and the
    # taught coins are smoothed by this many pixels first (a blurred photo's coins meet
    # templates as soft as themselves)
    coins_scales: tuple[float, ...] = (0.88, 0.94, 1.0, 1.06)
    coins_blur: float = 2.0
    # how blurred the coins' box looks is the step here whose smoothing of the taught
    # print matches it best; from coins_too_blurred on, coins are never sure (on the
    # alt style nearly all coins read one short, and sure, were that blurred)
    coins_blur_steps: tuple[float, ...] = (0.5, 1.0, 1.5, 2.0, 3.0)
    coins_too_blurred: float = 2.0
    # a numeral is read sure when its best value's correlation reaches this and leads the
    # next value's by this much (on the stand-in deck a right reading leads by 0.09 and
    # more in 99 cards of 100: 3, 5 and 6 share much of their shape)
    sure_numeral: float = 0.6
    sure_numeral_margin: float = 0.05
    # likewise the coins, among the taught faces of the card's colour and value, where what
    # is compared is what sets each face apart from the others (so scores run lower); and
    # each half of the box that differs must read the same count. Chosen on photos of
    # seeds 51 and 52 (docs/maus.md): at 0.15 a few blurred alt-style cards were read one
    # coin short, and sure
    sure_coins: float = 0.25
    sure_coins_margin: float = 0.25
    # a face named with at least this similarity is sure of a part when it leads every
    # face differing in that part by this much: the colour's lead is large (a face of
    # another colour differs everywhere); faces of another value or coin count differ only
    # in a small print, which the readers above judge, so there the face need only lead
    sure_confidence: float = 0.75
    sure_colour_margin: float = 0.04
    sure_print_margin: float = 0.0

    def __post_init__(self) -> None:
        if self.number_reader not in NUMBER_READERS:
            raise ValueError(f"number_reader must be one of {', '.join(NUMBER_READERS)}, not {self.number_reader!r}")


NUMBER_READERS = ("templates", "tesseract")
DEFAULT_MAUS_CONFIG = MausVisionConfig()
