"""Finding and reading the printed text on a card face, whatever the edition.

Nothing here knows where any edition prints its text. Text is found the same
way on an enrolled face and on a scanned card: glyph-sized blobs of either
polarity (dark on light, light on dark) that line up with neighbours of the
same height form a text line; every line is cut out, normalised to dark text
on white at a fixed glyph height, and all lines of a face go to Tesseract in
one call, stacked into one image (starting Tesseract is most of its cost).
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import pytesseract

from ..sequences import edit_distance
from .rectify import rectify
from .types import Detection, Quad


@dataclass(frozen=True)
class OcrConfig:
    """Every threshold of the text reader and of the re-ranking, in one place."""

    # a face is read at this size (width, height); sizes below are shares of its height
    read_size: tuple[int, int] = (600, 936)
    glyph_height: tuple[float, float] = (0.012, 0.1)  # smallest and largest glyph
    # a blob this much wider than tall is read even alone (glyphs run together by blur),
    # up to word_aspect (a whole word as one blob)
    lone_aspect: float = 1.2
    word_aspect: float = 10.0
    glyph_fill: tuple[float, float] = (0.12, 1.0)  # blob pixels / its box
    threshold_window: float = 0.05  # adaptive threshold neighbourhood
    threshold_offset: float = 12.0  # grey levels darker (lighter) than around it
    word_gap: float = 1.0  # glyphs of a line are at most this many glyph heights apart
    height_ratio: float = 1.6  # glyphs of a line differ in height at most this much
    min_glyphs: int = 2  # a lone blob is an icon as often as a letter
    max_lines: int = 24  # most glyphs first: a busy picture yields many false lines
    text_px: int = 32  # glyph height of the crops handed to Tesseract
    tesseract: str = "--oem 1 --psm 6"
    timeout: float = 10.0  # seconds per Tesseract call
    min_word_confidence: float = 80.0  # Tesseract's 0..100 per word, on an enrolled face
    min_scene_confidence: float = 40.0  # the same on a scanned card (only words like enrolled ones count)
    min_token: int = 2  # shorter readings are noise more often than words
    # a read word counts for a reference word at this normalised edit similarity
    min_similarity: float = 0.75
    # re-rank only when the visual margin is at most this, and the runner-up's text
    # support exceeds the top's by this much (in inverse-document-frequency units)
    max_visual_margin: float = 0.15
    switch_margin: float = 1.0


DEFAULT_OCR = OcrConfig()


# ---------------------------------------------------------------- finding text


@dataclass(frozen=True)
class TextLine:
    """A run of glyph-sized blobs: its box in the face and the glyph height."""

    x: int
    y: int
    w: int
    h: int
    glyph: float
    glyphs: int
    dark: bool  # dark text on a lighter ground


def text_lines(face: np.ndarray, config: OcrConfig = DEFAULT_OCR) -> list[TextLine]:
    """Likely text lines of a face given at ``config.read_size``, most glyphs first."""
    gray = _stretched(cv2.cvtColor(face, cv2.COLOR_BGR2GRAY) if face.ndim == 3 else face)
    height = gray.shape[0]
    window = max(3, int(config.threshold_window * height) | 1)
    lines: list[TextLine] = []
    for dark in (True, False):
        mask = cv2.adaptiveThreshold(gray if dark else 255 - gray, 255, cv2.ADAPTIVE_THRESH_MEAN_C,
                                     cv2.THRESH_BINARY_INV, window, config.threshold_offset)
        lines += _group(_glyphs(mask, config), dark, config)
    lines.sort(key=lambda line: -line.glyphs)
    kept: list[TextLine] = []
    for line in lines:  # both polarities can find one line (letters and the holes in them)
        if not any(_overlap(line, other) > 0.5 for other in kept):
            kept.append(line)
    return kept[: config.max_lines]


def _stretched(gray: np.ndarray) -> np.ndarray:
    """Grey levels spread to the full range (2nd to 98th percentile), so the
    threshold offset means the same on a dim, hazy photo as on a scan."""
    low, high = np.percentile(gray, (2, 98))
    scale = 255.0 / max(high - low, 16.0)
    return cv2.convertScaleAbs(gray, alpha=scale, beta=-low * scale)


def _glyphs(mask: np.ndarray, config: OcrConfig) -> np.ndarray:
    """(x, y, w, h) rows of the blobs shaped like glyphs, not touching the border."""
    _, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    x, y, w, h, area = (stats[1:, i].astype(np.float32) for i in range(5))
    height, width = mask.shape
    low, high = config.glyph_height
    fill = area / np.maximum(w * h, 1)
    keep = ((h >= low * height) & (h <= high * height) & (w <= config.word_aspect * h)
            & (fill >= config.glyph_fill[0]) & (fill <= config.glyph_fill[1])
            & (x > 0) & (y > 0) & (x + w < width) & (y + h < height))
    return np.stack([x, y, w, h], axis=1)[keep]


def _group(boxes: np.ndarray, dark: bool, config: OcrConfig) -> list[TextLine]:
    """Blobs joined into lines: similar height, level centres, small gaps."""
    n = len(boxes)
    if n < config.min_glyphs:
        return []
    x, y, w, h = boxes.T
    cy = y + h / 2
    tall = np.maximum(h[:, None], h[None, :])
    gap = np.maximum(x[None, :] - (x + w)[:, None], x[:, None] - (x + w)[None, :])
    near = ((np.minimum(h[:, None], h[None, :]) * config.height_ratio >= tall)
            & (np.abs(cy[:, None] - cy[None, :]) <= 0.35 * tall)
            & (gap <= config.word_gap * tall) & (gap >= -0.5 * tall))
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, j in zip(*np.nonzero(np.triu(near, 1))):
        parent[root(int(i))] = root(int(j))
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(root(i), []).append(i)
    lines = []
    for members in groups.values():
        b = boxes[members]
        if len(members) < config.min_glyphs and b[0, 2] < config.lone_aspect * b[0, 3]:
            continue
        x0, y0 = b[:, 0].min(), b[:, 1].min()
        x1, y1 = (b[:, 0] + b[:, 2]).max(), (b[:, 1] + b[:, 3]).max()
        lines.append(TextLine(int(x0), int(y0), int(x1 - x0), int(y1 - y0), float(np.median(b[:, 3])),
                              len(members), dark))
    return lines


def _overlap(a: TextLine, b: TextLine) -> float:
    """Intersection over the smaller box."""
    ix = max(0, min(a.x + a.w, b.x + b.w) - max(a.x, b.x))
    iy = max(0, min(a.y + a.h, b.y + b.h) - max(a.y, b.y))
    return ix * iy / max(1, min(a.w * a.h, b.w * b.h))


def line_crop(face: np.ndarray, line: TextLine, config: OcrConfig = DEFAULT_OCR) -> np.ndarray:
    """The line as dark text on white at ``config.text_px`` glyph height, with a
    margin; grey levels stretched, not binarised (Tesseract read blurred text
    no worse so, and a threshold of our own would be one more to tune)."""
    gray = cv2.cvtColor(face, cv2.COLOR_BGR2GRAY) if face.ndim == 3 else face
    pad = round(0.3 * line.glyph)
    crop = gray[max(0, line.y - pad): line.y + line.h + pad, max(0, line.x - pad): line.x + line.w + pad]
    if not line.dark:
        crop = 255 - crop
    scale = config.text_px / max(1.0, line.glyph)
    crop = cv2.resize(crop, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC if scale > 1 else cv2.INTER_AREA)
    margin = config.text_px // 2
    return cv2.copyMakeBorder(_stretched(crop), margin, margin, margin, margin, cv2.BORDER_CONSTANT, value=255)


# ---------------------------------------------------------------- reading text


def read_crops(crops: Sequence[np.ndarray], config: OcrConfig = DEFAULT_OCR,
               min_confidence: float | None = None) -> list[list[str]]:
    """The words of each crop (normalised tokens), from a single Tesseract call.

    Tesseract's cost is mostly starting up, so the crops are stacked into one
    image; each word read goes back to the crop its centre lies in.
    """
    if not crops:
        return []
    width = max(c.shape[1] for c in crops)
    sheet = np.vstack([cv2.copyMakeBorder(c, 0, 0, 0, width - c.shape[1], cv2.BORDER_CONSTANT, value=255)
                       for c in crops])
    bottoms = np.cumsum([c.shape[0] for c in crops])
    data = pytesseract.image_to_data(sheet, config=config.tesseract, output_type=pytesseract.Output.DICT,
                                     timeout=config.timeout)
    words: list[list[str]] = [[] for _ in crops]
    least = config.min_word_confidence if min_confidence is None else min_confidence
    for text, conf, top, tall in zip(data["text"], data["conf"], data["top"], data["height"]):
        token = normalise(text)
        if len(token) < config.min_token or float(conf) < least:
            continue
        slot = int(np.searchsorted(bottoms, top + tall / 2, side="right"))
        words[min(slot, len(crops) - 1)].append(token)
    return words


def normalise(text: str) -> str:
    """Upper case letters, digits and '+' only: what survives printing and reading alike."""
    return re.sub(r"[^A-Z0-9+]", "", text.upper())


def read_face(face: np.ndarray, config: OcrConfig = DEFAULT_OCR, min_confidence: float | None = None) -> list[str]:
    """The words on a face (any size, upright): found, cut out and read in one call."""
    face = at_read_size(face, config)
    crops = [line_crop(face, line, config) for line in text_lines(face, config)]
    return [word for words in read_crops(crops, config, min_confidence) for word in words]


def read_detection(image: np.ndarray, detection: Detection, config: OcrConfig = DEFAULT_OCR) -> list[str]:
    """The words on the detected card, cut from the full image at reading size."""
    face = rectify(image, Quad(np.asarray(detection.corners, np.float32)), config.read_size, oversample=1)
    return read_face(face, config, config.min_scene_confidence)


def at_read_size(face: np.ndarray, config: OcrConfig) -> np.ndarray:
    if (face.shape[1], face.shape[0]) == config.read_size:
        return face
    shrink = face.shape[0] > config.read_size[1]
    return cv2.resize(face, config.read_size, interpolation=cv2.INTER_AREA if shrink else cv2.INTER_CUBIC)


def similarity(a: str, b: str) -> float:
    """1 - edit distance / longer length: robust to a letter misread or lost."""
    if a == b:
        return 1.0
    if not a or not b:
        return 0.0
    return 1.0 - edit_distance(a, b) / max(len(a), len(b))
