"""Reading what a face prints: the sweet value (numerals learnt from the
taught faces, or Tesseract) and the coins (learnt from the taught faces).

Both number readers look at the same crop of an upright face
(``config.value_box`` at ``config.read_size``), in grey. The templates are
the taught faces' own crops, one per distinct colour and value (the coins are
printed elsewhere): a crop from a photo is compared with each by normalised
correlation, letting the numeral sit a few pixels off its taught place, and a
value scores as its best template. The coins are read the same way from
``config.coins_box``, among the faces of the card's colour and value. Nothing
here knows how the stand-in cards look.
"""
from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field, replace

import cv2
import numpy as np
import pytesseract

from companion.maus.engine import Card

from ..recognize.rectify import rectify
from ..recognize.types import Quad
from .config import DEFAULT_MAUS_CONFIG, MausVisionConfig
from .types import NumeralReading


def box_crop(face: np.ndarray, box: tuple[float, float, float, float], slack: float = 0.0,
             pad: float = 0.0) -> np.ndarray:
    """The grey ``box`` (x0, y0, x1, y1, shares of the card) of ``face``, grown
    by ``slack`` (share of the card's width) on every side. ``face`` shows
    ``pad`` of the card's width and height around the card on every side
    (see :func:`read_face`).

    >>> box_crop(np.zeros((156, 100), np.uint8), (0.3, 0.34, 0.7, 0.66)).shape
    (50, 40)
    """
    gray = face if face.ndim == 2 else cv2.cvtColor(face, cv2.COLOR_BGR2GRAY)
    height, width = (side / (1 + 2 * pad) for side in gray.shape)
    x0, y0, x1, y1 = box
    grow = slack * width
    top, left = round((pad + y0) * height - grow), round((pad + x0) * width - grow)
    return gray[max(0, top):round((pad + y1) * height + grow), max(0, left):round((pad + x1) * width + grow)]


def read_face(image: np.ndarray, quad: Quad, config: MausVisionConfig = DEFAULT_MAUS_CONFIG) -> np.ndarray:
    """The card inside ``quad`` upright at ``config.read_size``, with
    ``config.read_pad`` of its size around it on every side: an outline
    traced a little inside the card's edge (its printed frame) still leaves
    the corners' prints in view."""
    grow = 1 + 2 * config.read_pad
    width, height = config.read_size
    return rectify(image, quad.enlarged(grow), (round(width * grow), round(height * grow)))


def at_read_size(face: np.ndarray, config: MausVisionConfig = DEFAULT_MAUS_CONFIG) -> np.ndarray:
    return cv2.resize(face, config.read_size, interpolation=cv2.INTER_AREA)


@dataclass(frozen=True, eq=False)
class PrintTemplates:
    """One box of the taught faces (where the value or the coins are
    printed), cut out of each face that prints something different there."""

    cards: tuple[Card, ...]            # the first taught face of each template
    templates: tuple[np.ndarray, ...]  # float32 grey crops at ``config.read_size``
    box: tuple[float, float, float, float]
    slack: float  # how far a print may lie off its taught place, share of the card's width
    pad: float    # the card's surroundings shown by the faces read (``config.read_pad``)

    @classmethod
    def learn(cls, faces: Iterable[tuple[Card, np.ndarray]], box: tuple[float, float, float, float], slack: float,
              printed: Callable[[Card], Hashable], config: MausVisionConfig = DEFAULT_MAUS_CONFIG) -> PrintTemplates:
        """``printed(card)`` says what a face prints in ``box``: faces printing
        the same keep one template, the first."""
        seen: dict[Hashable, tuple[Card, np.ndarray]] = {}
        for card, image in faces:
            seen.setdefault(printed(card), (card, box_crop(at_read_size(image, config), box).astype(np.float32)))
        return cls(tuple(c for c, _ in seen.values()), tuple(t for _, t in seen.values()), box, slack,
                   config.read_pad)

    def scores(self, face: np.ndarray, label: Callable[[Card], Hashable],
               among: Callable[[Card], bool] = lambda card: True) -> dict[Hashable, float]:
        """For each ``label`` of the templates ``among`` those taught, its best
        correlation with ``face`` (upright, at the read size), letting the print
        sit up to the slack off its taught place."""
        area = box_crop(face, self.box, self.slack, self.pad).astype(np.float32)
        best: dict[Hashable, float] = {}
        for card, template in zip(self.cards, self.templates):
            if not among(card) or area.shape[0] < template.shape[0] or area.shape[1] < template.shape[1]:
                continue
            score = float(cv2.matchTemplate(area, template, cv2.TM_CCOEFF_NORMED).max())
            best[label(card)] = max(score, best.get(label(card), -1.0))
        return best


    def differences(self, face: np.ndarray, among: Callable[[Card], bool], scales: tuple[float, ...] = (1.0,),
                    blur: float = 0.0, steps: tuple[float, ...] = ()) -> CoinLook:
        """For each template ``among`` those taught (all of one size: faces
        alike but for this box), how well ``face`` matches what sets it apart
        from the others: the box is first placed where it best fits their mean
        (at each of ``scales``: an outline traced along a frame printed inside
        the card shows it larger), then, with the mean taken away, correlated
        with each template's own difference from it. Where the faces differ in
        a few small marks (the coins), the shared print no longer drowns them.
        Both sides are smoothed by ``blur`` (pixels) first, so a blurred photo
        meets templates as soft as itself.

        The answers: the whole box, its left half and its right half (a half
        where the templates do not differ is left out: empty), which a print
        shown twice (the coins in both upper corners) lets check each other;
        and, with ``steps``, how blurred the box looks (:func:`_softness`)."""
        raw = [(card, t) for card, t in zip(self.cards, self.templates) if among(card)]
        chosen = [(card, _standard(_soft(t, blur))) for card, t in raw]
        unsoftened = box_crop(face, self.box, self.slack, self.pad).astype(np.float32)
        area = _soft(unsoftened, blur)
        if len(chosen) < 2 or any(t.shape != chosen[0][1].shape for _, t in chosen) or \
                area.shape[0] < chosen[0][1].shape[0] or area.shape[1] < chosen[0][1].shape[1]:
            return CoinLook({card: score for card, score in self.scores(face, lambda c: c, among).items()})  # type: ignore[misc]
        mean = np.mean([t for _, t in chosen], axis=0)
        place = _placement(area, mean, scales)
        seen = _standard(_at(area, place, mean.shape)) - mean
        def softness() -> float:  # computed only when asked: most readings are decided without it
            return _softness(_scaled(unsoftened, place[0]), [t for _, t in raw], steps) if steps else 0.0

        width = mean.shape[1]
        owns = [(card, template - mean) for card, template in chosen]
        total = sum(float(np.sum(own ** 2)) for _, own in owns)
        result = []
        for part in (slice(None), slice(0, width // 2), slice(width // 2, None)):
            if sum(float(np.sum(own[:, part] ** 2)) for _, own in owns) < HALF_SHARE * total:
                result.append({})
                continue
            look = seen[:, part] / (float(np.linalg.norm(seen[:, part])) + 1e-6)
            result.append({card: float(np.sum(look * own[:, part]) / (np.linalg.norm(own[:, part]) + 1e-6))
                           for card, own in owns})
        return CoinLook(*result, blurred=softness)


HALF_SHARE = 0.2  # a half holding less of what sets the templates apart says nothing of its own


def _soft(image: np.ndarray, blur: float) -> np.ndarray:
    return cv2.GaussianBlur(image, (0, 0), blur) if blur > 0 else image


@dataclass(frozen=True)
class CoinLook:
    """What :meth:`PrintTemplates.differences` saw: each face's score over
    the whole box and over each half (empty: the half says nothing), and how
    blurred the box looks, worked out when asked."""

    whole: dict[Card, float]
    left: dict[Card, float] = field(default_factory=dict)
    right: dict[Card, float] = field(default_factory=dict)
    blurred: Callable[[], float] = lambda: 0.0  # how blurred the box looks, in pixels


Placement = tuple[float, int, int]  # scale, x, y


def _placement(area: np.ndarray, mean: np.ndarray, scales: tuple[float, ...]) -> Placement:
    """Where in ``area``, at the one of ``scales`` where it fits best, ``mean`` fits best."""
    best: tuple[float, Placement] | None = None
    for scale in scales:
        shown = _scaled(area, scale)
        if shown.shape[0] < mean.shape[0] or shown.shape[1] < mean.shape[1]:
            continue
        _, fit, _, (x, y) = cv2.minMaxLoc(cv2.matchTemplate(shown, mean, cv2.TM_CCOEFF_NORMED))
        if best is None or fit > best[0]:
            best = (fit, (scale, x, y))
    if best is None:
        raise AssertionError("unreachable: scale 1 fits, the area being at least the mean's size")
    return best[1]


def _at(area: np.ndarray, place: Placement, shape: tuple[int, ...]) -> np.ndarray:
    scale, x, y = place
    return _scaled(area, scale)[y:y + shape[0], x:x + shape[1]]


def _scaled(area: np.ndarray, scale: float) -> np.ndarray:
    if scale == 1:
        return area
    return cv2.resize(area, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)


def _softness(area: np.ndarray, templates: list[np.ndarray], steps: tuple[float, ...]) -> float:
    """How blurred ``area`` looks: the step of ``steps`` by which the
    templates' mean (the print all of them share), smoothed, best matches it
    where it fits best (a sharp print needs the exact place). Noise does not
    look sharp this way (it does not match the print), so a blurred photo's
    grainy box is still found blurred."""
    mean = np.mean([_standard(t) for t in templates], axis=0)
    fits = [float(cv2.matchTemplate(area, _soft(mean, step), cv2.TM_CCOEFF_NORMED).max()) for step in steps]
    return steps[int(np.argmax(fits))]


def _standard(image: np.ndarray) -> np.ndarray:
    """``image`` with zero mean and unit spread: light and contrast cancel out."""
    return (image - image.mean()) / (image.std() + 1e-6)


def _value(card: Card) -> int:
    return card.value


def _colour_value(card: Card) -> tuple[str, int]:
    return card.ingredient.value, card.value


@dataclass(frozen=True, eq=False)
class NumeralTemplates:
    """The sweet values as the taught faces print them: one template per
    colour and value (the coins are printed elsewhere)."""

    prints: PrintTemplates
    config: MausVisionConfig = DEFAULT_MAUS_CONFIG

    @classmethod
    def learn(cls, faces: Iterable[tuple[Card, np.ndarray]],
              config: MausVisionConfig = DEFAULT_MAUS_CONFIG) -> NumeralTemplates:
        prints = PrintTemplates.learn(faces, config.value_box, config.value_slack, _colour_value, config)
        if len({card.value for card in prints.cards}) < 2:
            raise ValueError("numerals are learnt from faces of at least two sweet values")
        return cls(prints, config)

    def read(self, face: np.ndarray, card: Card) -> NumeralReading:
        """The value printed on ``face`` (:func:`read_face`), among the numerals
        of ``card``'s colour as taught (its colour is read far more surely
        than its value: a face of another colour differs everywhere)."""
        scores = self.prints.scores(face, _value, lambda other: other.ingredient is card.ingredient)
        return _reading(scores, self.config.sure_numeral, self.config.sure_numeral_margin)  # type: ignore[arg-type]


@dataclass(frozen=True, eq=False)
class CoinTemplates:
    """The coins as the taught faces print them in their upper corners, one
    template per face."""

    prints: PrintTemplates
    config: MausVisionConfig = DEFAULT_MAUS_CONFIG

    @classmethod
    def learn(cls, faces: Iterable[tuple[Card, np.ndarray]],
              config: MausVisionConfig = DEFAULT_MAUS_CONFIG) -> CoinTemplates:
        return cls(PrintTemplates.learn(faces, config.coins_box, config.coins_slack, lambda card: card, config), config)

    def read(self, face: np.ndarray, card: Card) -> NumeralReading:
        """The coins on ``face`` (:func:`read_face`), among the
        taught faces of ``card``'s colour and value: elsewhere on the face
        they are alike, so the coins alone tell them apart. Sure only when
        the count also leads in each half of the box where the faces differ
        (both upper corners, on a deck printing the coins twice), and the box
        is not blurred so much that a coin could melt into its neighbour."""
        def among(other: Card) -> bool:
            return other.ingredient is card.ingredient and other.value == card.value

        config = self.config
        look = self.prints.differences(face, among, config.coins_scales, config.coins_blur, config.coins_blur_steps)
        reading = _reading(_by_count(look.whole), config.sure_coins, config.sure_coins_margin)
        agree = all(_reading(_by_count(half), 0.0, 0.0).value == reading.value for half in (look.left, look.right)
                    if half)
        if reading.sure and agree and look.blurred() < config.coins_too_blurred:
            return reading
        return replace(reading, sure=False)


def _by_count(scores: dict[Card, float]) -> dict[int, float]:
    counts: dict[int, float] = {}
    for other, score in scores.items():
        counts[other.coins] = max(score, counts.get(other.coins, -1.0))  # type: ignore[index]
    return counts


def _reading(scores: dict[int, float], least: float, lead: float) -> NumeralReading:
    if not scores:
        return NumeralReading(None, 0.0, 0.0, False)
    ranked = sorted(scores.items(), key=lambda item: -item[1])
    value, score = ranked[0]
    # one template only (a deck whose faces of a colour and value all show the same coins)
    margin = score - ranked[1][1] if len(ranked) > 1 else 1.0
    score = max(0.0, score)
    return NumeralReading(value, score, max(0.0, margin), score >= least and margin >= lead)


@dataclass(frozen=True)
class TesseractNumerals:
    """Tesseract asked for one character among the deck's values.

    It starts a process per call (tens of milliseconds at least), so it reads
    a card's value only where the templates are not used.
    """

    values: tuple[int, ...] = (3, 4, 5, 6, 7)
    config: MausVisionConfig = DEFAULT_MAUS_CONFIG

    def read(self, face: np.ndarray, card: Card | None = None) -> NumeralReading:
        """The value printed on ``face`` (:func:`read_face`); ``card`` is not needed."""
        crop = box_crop(face, self.config.value_box, 0.0, self.config.read_pad)
        big = cv2.resize(crop, None, fx=3, fy=3, interpolation=cv2.INTER_CUBIC)
        _, ink = cv2.threshold(big, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        if np.count_nonzero(ink) < ink.size / 2:  # Tesseract reads dark on light
            ink = 255 - ink
        allowed = "".join(str(v) for v in self.values)
        data = pytesseract.image_to_data(ink, config=f"--psm 10 -c tessedit_char_whitelist={allowed}",
                                         output_type=pytesseract.Output.DICT)
        read = [(text.strip(), float(conf)) for text, conf in zip(data["text"], data["conf"])
                if text.strip() in {str(v) for v in self.values}]
        if not read:
            return NumeralReading(None, 0.0, 0.0, False)
        text, conf = max(read, key=lambda item: item[1])
        score = max(0.0, conf) / 100
        return NumeralReading(int(text), score, score, score >= self.config.sure_numeral)  # no runner-up to lead
