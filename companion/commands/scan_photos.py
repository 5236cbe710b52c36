"""``mamma-mia scan IMAGE...``: the cards in still photos, as text for people
or as the JSON contract, optionally drawn onto copies of the photos."""
from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from ..report import counted

if TYPE_CHECKING:  # the heavy modules load when a scan runs, so `mamma-mia evaluate` starts fast
    import numpy as np

    from vision.recognize.config import VisionConfig
    from vision.recognize.pipeline import Recogniser
    from vision.recognize.types import Detection

    from .scan_progress import Progress

PROGRESS_ABOVE = 3  # more images than this get progress reporting on standard error


@dataclass
class ImageScan:
    """The outcome for one image: its detections, or why it could not be read."""

    path: str
    detections: list[Detection] = field(default_factory=list)
    ms: float = 0.0
    error: str | None = None

    def as_json(self, config: VisionConfig) -> dict[str, Any]:
        if self.error is not None:
            return {"path": self.path, "error": self.error}
        return {"path": self.path, "ms": round(self.ms, 1),
                "cards": [detection_json(d, config.is_sure(d.match)) for d in self.detections]}


def detection_json(detection: Detection, sure: bool) -> dict[str, Any]:
    from companion.engine import card_to_json

    runner_up = detection.match.runner_up
    return {
        "card": card_to_json(detection.card),
        "confidence": round(float(detection.confidence), 3),
        "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in detection.corners],
        "runner_up": None if runner_up is None else {
            "card": card_to_json(runner_up),
            "confidence": round(float(detection.match.runner_up_confidence), 3)},
        "sure": sure,
    }


def scan_images(args: argparse.Namespace, recogniser: Recogniser) -> int:
    """Each IMAGE in turn; a file that fails is reported and the rest go on."""
    from .scan_progress import Progress

    try:
        annotator = Annotator(args.annotate, recogniser.config) if args.annotate is not None else None
    except OSError as error:
        print(f"scan: cannot write annotated images to {args.annotate}: {error.strerror or error}",
              file=sys.stderr)
        return 2
    progress = Progress(len(args.images), sys.stderr, enabled=len(args.images) > PROGRESS_ABOVE, unit="image")
    second = None if args.no_text else second_opinion_for(args.deck, recogniser, progress)
    results = []
    for path in args.images:
        progress.show(Path(path).name)
        result, image = scan_image(path, recogniser, second)
        if annotator is not None and image is not None and result.error is None:
            result.error = annotator.write(path, image, result.detections)
        results.append(result)
        progress.advance(len(results))
        if result.error is not None:
            progress.say(f"scan: {path}: {result.error}")
        elif not args.json:
            progress.say(describe_scan(result, recogniser.config), sys.stdout)
    failed = sum(r.error is not None for r in results)
    progress.finish(f"{counted(len(results), 'image')} scanned" + (f", {failed} could not be read" if failed else ""))
    if args.json:
        print(json.dumps({"images": [r.as_json(recogniser.config) for r in results]}, indent=2))
    return 1 if failed else 0


def second_opinion_for(deck: Path | None, recogniser: Recogniser,
                       progress: Progress) -> Callable[[np.ndarray, Detection], Detection] | None:
    """The printed-text check for unsure detections, or None (with a warning)
    when the deck's words cannot be read: the pictures alone still work."""
    import pytesseract

    from vision.recognize.ocr import load_text_index, second_opinion

    try:
        index = load_text_index(deck)
    except (OSError, RuntimeError, pytesseract.TesseractError) as error:
        progress.say(f"scan: warning: printed words not used ({error})")
        return None
    return lambda image, detection: second_opinion(image, detection, index, recogniser.config)


def scan_image(path: str, recogniser: Recogniser,
               second: Callable[[np.ndarray, Detection], Detection] | None = None) -> tuple[ImageScan, np.ndarray | None]:
    """Read and recognise one image, asking ``second`` about each detection;
    the time counts recognition (and the second opinion) only."""
    from vision.recognize.imagefile import ImageFileError, read_image

    try:
        image = read_image(path)
    except ImageFileError as error:
        return ImageScan(path, error=str(error)), None
    start = time.perf_counter()
    try:
        detections = recogniser.recognise(image)
        if second is not None:
            detections = [second(image, d) for d in detections]
    except Exception as error:  # one image the recogniser chokes on must not end the batch
        return ImageScan(path, error=f"recognition failed ({type(error).__name__}: {error})"), image
    return ImageScan(path, detections, (time.perf_counter() - start) * 1000), image


def describe_scan(result: ImageScan, config: VisionConfig) -> str:
    """One line for people: each card in words with its confidence."""
    from companion.engine import describe_card

    if not result.detections:
        return f"{result.path}: no card found"
    parts = []
    for d in result.detections:
        text = f"{describe_card(d.card)} {d.confidence:.2f}"
        if not config.is_sure(d.match) and d.match.runner_up is not None:
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
