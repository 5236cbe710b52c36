"""A second opinion from printed text, for matches the picture comparison is
unsure of.

The descriptor of :mod:`.identify` sees colours at low resolution, so faces
that differ only in a printed word (a special pizza's name, a "x2" on a double
ingredient) can come out close. Tesseract reads such words, but it is slow (a
process per call, a few hundred milliseconds), so it is asked only about
unsure detections, never on every frame.

Text is found and read the same way on enrolled faces and on scanned cards
(:mod:`.textread`). Which words tell cards apart is learnt from
the enrolled faces alone: a word printed on many faces (a heading) weighs
little, a word on few faces much (inverse document frequency).
"""
from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import pytesseract

from companion.engine import Card, card_from_json, card_to_json

from .config import DEFAULT_CONFIG, VisionConfig
from .decks import deck_folder, load_faces
from .textread import (
    DEFAULT_OCR, OcrConfig, at_read_size, line_crop, read_crops, read_detection, similarity, text_lines,
)
from .types import Detection, Match

INDEX_FILE = "ocr.json"
INDEX_VERSION = 1


# ---------------------------------------------------------------- the index


@dataclass(frozen=True)
class TextIndex:
    """The words read on each enrolled face, and how much each tells apart."""

    words: dict[Card, tuple[str, ...]]
    config: OcrConfig = DEFAULT_OCR
    fingerprint: str = ""
    weights: dict[str, float] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        # a word's document frequency counts the faces with a similar word
        vocabulary = {w for ws in self.words.values() for w in ws}
        count = len(self.words)
        weights = {}
        for word in vocabulary:
            frequency = sum(1 for ws in self.words.values()
                            if any(similarity(word, v) >= self.config.min_similarity for v in ws))
            weights[word] = math.log((count + 1) / (frequency + 0.5))
        object.__setattr__(self, "weights", weights)

    def support(self, card: Card, read: Sequence[str]) -> float:
        """How much of ``card``'s own text was read: the weights of its words,
        each scaled by its best similarity with a word read (too dissimilar: 0)."""
        total = 0.0
        for word in set(self.words.get(card, ())):
            best = max((similarity(word, r) for r in read), default=0.0)
            if best >= self.config.min_similarity:
                total += self.weights[word] * best
        return total

    def to_json(self) -> dict:
        return {"version": INDEX_VERSION, "fingerprint": self.fingerprint, "config": _config_json(self.config),
                "cards": [{"card": card_to_json(c), "words": list(ws)} for c, ws in self.words.items()]}

    @classmethod
    def from_json(cls, data: dict, config: OcrConfig = DEFAULT_OCR) -> TextIndex:
        words = {card_from_json(item["card"]): tuple(item["words"]) for item in data["cards"]}
        return cls(words, config, data.get("fingerprint", ""))


def _config_json(config: OcrConfig) -> dict:
    return json.loads(json.dumps(asdict(config)))


def faces_fingerprint(faces: Sequence[tuple[Card, np.ndarray]]) -> str:
    """A digest of the cards and their pixels: an index read from other faces is stale."""
    digest = hashlib.sha1()
    for card, image in faces:
        digest.update(json.dumps(card_to_json(card), sort_keys=True).encode())
        digest.update(str(image.shape).encode())
        digest.update(np.ascontiguousarray(image).tobytes())
    return digest.hexdigest()


def build_text_index(source: str | Path | None | Iterable[tuple[Card, np.ndarray]],
                     config: OcrConfig = DEFAULT_OCR) -> TextIndex:
    """Read every enrolled face: ``source`` is a deck folder (None: the stand-in
    deck) or (card, upright face) pairs. All faces' lines go to Tesseract in a
    few large calls rather than one per face."""
    faces = load_faces(source) if source is None or isinstance(source, (str, Path)) else list(source)
    per_face = []
    for _, image in faces:
        face = at_read_size(image, config)
        per_face.append([line_crop(face, line, config) for line in text_lines(face, config)])
    flat = [crop for crops in per_face for crop in crops]
    read: list[list[str]] = []
    for start in range(0, len(flat), 64):
        read += read_crops(flat[start:start + 64], config)
    words, at = {}, 0
    for (card, _), crops in zip(faces, per_face):
        words[card] = tuple(w for ws in read[at:at + len(crops)] for w in ws)
        at += len(crops)
    return TextIndex(words, config, faces_fingerprint(faces))


def save_text_index(index: TextIndex, folder: str | Path) -> Path:
    """Write ``folder/ocr.json`` (enrollment: the enrolled folder, beside its manifest)."""
    path = Path(folder) / INDEX_FILE
    path.write_text(json.dumps(index.to_json(), indent=1) + "\n", "utf-8")
    return path


def load_text_index(folder: str | Path | None = None, config: OcrConfig = DEFAULT_OCR,
                    write: bool = False) -> TextIndex:
    """The index of the deck in ``folder`` (as :func:`.decks.load_reference_deck`
    finds it): ``ocr.json`` when it was read from these very faces with these
    settings, else read afresh (tens of seconds) and, if ``write``, saved."""
    source = deck_folder(folder)
    faces = load_faces(folder)
    path = source / INDEX_FILE
    if path.is_file():
        try:
            data = json.loads(path.read_text("utf-8"))
            if (data.get("version") == INDEX_VERSION and data.get("config") == _config_json(config)
                    and data.get("fingerprint") == faces_fingerprint(faces)):
                return TextIndex.from_json(data, config)
        except (OSError, ValueError, KeyError, TypeError):
            pass  # unreadable or from another version: read the faces again
    index = build_text_index(faces, config)
    if write:
        save_text_index(index, source)
    return index


# ---------------------------------------------------------------- second opinion


@dataclass(frozen=True)
class Opinion:
    """What the text said about a detection: the words read (None: not read),
    the text support of the top card and of the runner-up, and the result."""

    detection: Detection
    read: tuple[str, ...] | None = None
    top_support: float = 0.0
    runner_up_support: float = 0.0


def consult(image: np.ndarray, detection: Detection, index: TextIndex,
            vision: VisionConfig = DEFAULT_CONFIG) -> Opinion:
    """:func:`second_opinion` with its evidence, for measuring and debugging."""
    config = index.config
    match = detection.match
    if vision.is_sure(match) or match.runner_up is None or match.margin > config.max_visual_margin:
        return Opinion(detection)
    try:
        read = read_detection(image, detection, config)
    except (RuntimeError, OSError, pytesseract.TesseractError):
        return Opinion(detection)  # no Tesseract, or it timed out: the picture's verdict stands
    top, runner = index.support(match.card, read), index.support(match.runner_up, read)
    if runner - top >= config.switch_margin:
        swapped = Match(match.runner_up, match.runner_up_confidence, match.upside_down,
                        match.card, match.confidence)
        detection = Detection(swapped, detection.corners)
    return Opinion(detection, tuple(read), top, runner)


def second_opinion(image: np.ndarray, detection: Detection, index: TextIndex,
                   vision: VisionConfig = DEFAULT_CONFIG) -> Detection:
    """``detection``, or its runner-up promoted when the detection is unsure and
    the printed text clearly favours the runner-up.

    Sure detections come back untouched without reading anything. After a
    promotion the match keeps the visual similarities, so its margin is
    negative: the card was decided by text. The corners stay as they were:
    text read well only upright, so reading the runner-up's words confirms
    the face's orientation too.
    """
    return consult(image, detection, index, vision).detection


__all__ = ["INDEX_FILE", "Opinion", "TextIndex", "build_text_index", "consult", "load_text_index",
           "save_text_index", "second_opinion"]
