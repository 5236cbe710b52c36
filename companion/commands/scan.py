"""Recognise the cards in photos of the table.

  mamma-mia scan IMAGE... [--deck DIR] [--json] [--annotate OUT_DIR]

Prints, per image, each face-up card found with its confidence (0..1). With
--json prints the contract other tools use:

  {"images": [{"path": "photo.jpg", "ms": 12.3,
               "cards": [{"card": CARD, "confidence": 0.97,
                          "corners": [[x, y], [x, y], [x, y], [x, y]],
                          "runner_up": {"card": CARD, "confidence": 0.41}}]},
              {"path": "broken.jpg", "error": "truncated image: ..."}]}

CARD is the JSON form of the evaluate contract, or {"kind": "mamma_mia"};
corners are the face's top-left, top-right, bottom-right and bottom-left
corners in image pixels; runner_up is the next most likely card (or null);
ms is the recognition time, file decoding excluded.

--deck DIR compares with the deck in DIR (after mamma-mia enroll DIR: the
enrolled faces) instead of the bundled stand-in deck. --annotate OUT_DIR
writes each image with the cards outlined and labelled (a dot marks each
face's top-left corner; green: sure, amber: unsure).

Exit code 0 when every image was read, 1 when some could not be (each is
reported and the rest still scanned), 2 when the deck cannot be used or
OUT_DIR cannot be made.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, TextIO

if TYPE_CHECKING:  # the heavy modules load inside run(), so `mamma-mia evaluate` starts fast
    import numpy as np

    from vision.recognize.config import VisionConfig
    from vision.recognize.pipeline import Recogniser
    from vision.recognize.types import Detection

NAME = "scan"
HELP = "recognise the cards in photos (JSON with --json)"
PROGRESS_ABOVE = 3  # more images than this get a progress bar on standard error


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("images", nargs="+", metavar="IMAGE", help="photos to scan (JPEG, PNG, ...)")
    parser.add_argument("--deck", type=Path, default=None, metavar="DIR",
                        help="deck folder to compare with (default: the bundled stand-in deck)")
    parser.add_argument("--json", action="store_true",
                        help="print the result as JSON (the contract); otherwise as text for people")
    parser.add_argument("--annotate", type=Path, default=None, metavar="OUT_DIR",
                        help="also write each image with the cards found drawn on it into OUT_DIR")


def run(args: argparse.Namespace) -> int:
    from vision.recognize.decks import DeckError, load_reference_deck
    from vision.recognize.pipeline import Recogniser

    try:
        recogniser = Recogniser(load_reference_deck(args.deck))
    except DeckError as error:
        print(f"scan: cannot use the deck: {error}", file=sys.stderr)
        return 2
    return MODES[mode(args)](args, recogniser)


def mode(args: argparse.Namespace) -> str:
    """Which kind of input the command was given; one entry of :data:`MODES`."""
    return "images"


@dataclass
class ImageScan:
    """The outcome for one image: its detections, or why it could not be read."""

    path: str
    detections: list[Detection] = field(default_factory=list)
    ms: float = 0.0
    error: str | None = None

    def as_json(self) -> dict[str, Any]:
        if self.error is not None:
            return {"path": self.path, "error": self.error}
        return {"path": self.path, "ms": round(self.ms, 1), "cards": [detection_json(d) for d in self.detections]}


def detection_json(detection: Detection) -> dict[str, Any]:
    from companion.engine import card_to_json

    runner_up = detection.match.runner_up
    return {
        "card": card_to_json(detection.card),
        "confidence": round(float(detection.confidence), 3),
        "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in detection.corners],
        "runner_up": None if runner_up is None else {
            "card": card_to_json(runner_up),
            "confidence": round(float(detection.match.runner_up_confidence), 3)},
    }


def scan_images(args: argparse.Namespace, recogniser: Recogniser) -> int:
    """Each IMAGE in turn; a file that fails is reported and the rest go on."""
    try:
        annotator = Annotator(args.annotate, recogniser.config) if args.annotate is not None else None
    except OSError as error:
        print(f"scan: cannot write annotated images to {args.annotate}: {error.strerror or error}",
              file=sys.stderr)
        return 2
    progress = Progress(len(args.images), sys.stderr, enabled=len(args.images) > PROGRESS_ABOVE)
    results = []
    for path in args.images:
        progress.show(path)
        result, image = scan_image(path, recogniser)
        if annotator is not None and image is not None and result.error is None:
            result.error = annotator.write(path, image, result.detections)
        if result.error is not None:
            progress.say(f"scan: {path}: {result.error}")
        elif not args.json:
            progress.say(describe_scan(result, recogniser.config), sys.stdout)
        results.append(result)
    failed = sum(r.error is not None for r in results)
    progress.finish(f"{len(results)} images scanned" + (f", {failed} could not be read" if failed else ""))
    if args.json:
        print(json.dumps({"images": [r.as_json() for r in results]}, indent=2))
    return 1 if failed else 0


def scan_image(path: str, recogniser: Recogniser) -> tuple[ImageScan, np.ndarray | None]:
    """Read and recognise one image; the time counts recognition only."""
    from vision.recognize.imagefile import ImageFileError, read_image

    try:
        image = read_image(path)
    except ImageFileError as error:
        return ImageScan(path, error=str(error)), None
    start = time.perf_counter()
    try:
        detections = recogniser.recognise(image)
    except Exception as error:  # one image the recogniser chokes on must not end the batch
        return ImageScan(path, error=f"recognition failed ({type(error).__name__}: {error})"), image
    return ImageScan(path, detections, (time.perf_counter() - start) * 1000), image


def describe_scan(result: ImageScan, config: VisionConfig) -> str:
    """One line for people: each card in words with its confidence."""
    from companion.engine import describe_card
    from vision.recognize.annotate import is_sure

    if not result.detections:
        return f"{result.path}: no card found"
    parts = []
    for d in result.detections:
        text = f"{describe_card(d.card)} {d.confidence:.2f}"
        if not is_sure(d, config) and d.match.runner_up is not None:
            text += f" (unsure; perhaps {describe_card(d.match.runner_up)} {d.match.runner_up_confidence:.2f})"
        parts.append(text)
    return f"{result.path}: " + ", ".join(parts)


class Annotator:
    """Writes OUT_DIR/NAME-annotated.jpg per image (never over an input file);
    two inputs with the same name get -2, -3, ... appended."""

    def __init__(self, out_dir: Path, config: VisionConfig) -> None:
        """Makes ``out_dir`` (OSError when it cannot be made)."""
        out_dir.mkdir(parents=True, exist_ok=True)
        self.out_dir, self.config = out_dir, config
        self.used: set[str] = set()

    def write(self, path: str, image: np.ndarray, detections: list[Detection]) -> str | None:
        """Writes the annotated image; returns an error message or None."""
        from vision.cvcompat import encode_jpeg
        from vision.recognize.annotate import annotate

        target = self.out_dir / self._name(Path(path).stem)
        try:
            target.write_bytes(encode_jpeg(annotate(image, detections, self.config), 90))
        except OSError as error:
            return f"cannot write the annotated image {target}: {error.strerror or error}"
        return None

    def _name(self, stem: str) -> str:
        name, count = f"{stem}-annotated.jpg", 1
        while name in self.used:
            count += 1
            name = f"{stem}-annotated-{count}.jpg"
        self.used.add(name)
        return name


class Progress:
    """A one-line bar redrawn with a carriage return; other lines are printed
    above it (the bar is cleared first) so the two never garble each other."""

    WIDTH = 24

    def __init__(self, total: int, stream: TextIO, enabled: bool = True) -> None:
        self.total, self.stream, self.enabled = total, stream, enabled
        self.done = 0
        self.line = ""

    def show(self, current: str) -> None:
        if self.enabled:
            filled = round(self.WIDTH * self.done / max(1, self.total))
            bar = "#" * filled + "-" * (self.WIDTH - filled)
            self._draw(f"scan [{bar}] {self.done}/{self.total} {Path(current).name}")
        self.done += 1

    def say(self, text: str, stream: TextIO | None = None) -> None:
        line = self.line
        self._clear()
        print(text, file=stream or self.stream, flush=True)
        if line:
            self._draw(line)

    def finish(self, summary: str) -> None:
        if self.enabled:
            self._clear()
            print(f"scan [{'#' * self.WIDTH}] {summary}", file=self.stream, flush=True)

    def _draw(self, line: str) -> None:
        self._clear()
        self.stream.write("\r" + line)
        self.stream.flush()
        self.line = line

    def _clear(self) -> None:
        if self.line:
            self.stream.write("\r" + " " * len(self.line) + "\r")
            self.stream.flush()
            self.line = ""


MODES: dict[str, Callable[[argparse.Namespace, Recogniser], int]] = {"images": scan_images}
