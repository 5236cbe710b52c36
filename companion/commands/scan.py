"""Recognise the cards in photos of the table, or follow the oven pile
being flipped in a video or a live camera.

  mamma-mia scan IMAGE... [--deck DIR] [--json] [--annotate OUT_DIR]
  mamma-mia scan --sequence VIDEO_OR_FRAME_DIR [--deck DIR] [--fps N] [--json]
  mamma-mia scan --camera N [--deck DIR] [--evaluate --players green,red [--doubles]]

Photos: prints, per image, each face-up card found with its confidence
(0..1). With --json prints the contract other tools use:

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

--sequence reads a video file, or a folder of frames in name order, and
reports each card the moment it lands on the pile (a progress bar goes to
standard error). --fps gives the frame rate of a folder (default 15) or
overrides a video's own. With --json it prints

  {"sequence": [CARD, ...],
   "events": [{"frame": 31, "time": 2.067, "card": CARD, "confidence": 0.98,
               "runner_up": {"card": CARD, "confidence": 0.61}}]}

where frame is the index of the frame at which the card was reported.

--camera N watches webcam N (always the newest frame, so a slow machine
skips frames rather than lagging) and prints each card as it lands, until
the camera stops or Ctrl+C. --evaluate --players green,red (with
--sequence or --camera) also feeds each card to the engine's evaluation
phase and prints, at each order, whether the table fulfils it or what its
owner must add from hand (with --json: as "engine" in each event). The
camera cannot see hands, so it then assumes the owner adds it (the
cheapest option) and goes on.

Exit code 0 when every image was read, 1 when some could not be (each is
reported and the rest still scanned), 2 for a wrong combination of options,
a deck that cannot be used, an OUT_DIR that cannot be made, or a video,
folder or camera that cannot be read.
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
HELP = "recognise the cards in photos, or follow the pile flipped in a video or camera (JSON with --json)"
PROGRESS_ABOVE = 3  # more images than this get a progress bar on standard error
PROGRESS_EVERY = 10  # frames of a video between redraws of its progress bar


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("images", nargs="*", metavar="IMAGE", help="photos to scan (JPEG, PNG, ...)")
    parser.add_argument("--deck", type=Path, default=None, metavar="DIR",
                        help="deck folder to compare with (default: the bundled stand-in deck)")
    parser.add_argument("--json", action="store_true",
                        help="print the result as JSON (the contract); otherwise as text for people")
    parser.add_argument("--no-text", action="store_true",
                        help="photos: do not read the printed words of unsure cards (faster; see README)")
    parser.add_argument("--annotate", type=Path, default=None, metavar="OUT_DIR",
                        help="also write each image with the cards found drawn on it into OUT_DIR")
    track = parser.add_argument_group("following the pile as it is flipped")
    track.add_argument("--sequence", default=None, metavar="VIDEO_OR_FRAME_DIR",
                       help="a video file, or a folder of frames read in name order")
    track.add_argument("--camera", type=int, default=None, metavar="N", help="watch webcam N (0: the first)")
    track.add_argument("--fps", type=_positive, default=None, metavar="N",
                       help="frames per second of a frame folder (default 15) or instead of a video's own")
    track.add_argument("--evaluate", action="store_true",
                       help="also print the engine's verdict at each order (needs --players)")
    track.add_argument("--players", default=None, metavar="COLOURS",
                       help="the colours at the table for --evaluate, e.g. green,red")
    track.add_argument("--doubles", action="store_true", help="for --evaluate: the deck has double ingredients")


def _positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 < value <= 1000:
        raise argparse.ArgumentTypeError(f"{text} is not a frame rate (0 < N <= 1000)")
    return value


def run(args: argparse.Namespace) -> int:
    from vision.recognize.decks import DeckError, load_reference_deck
    from vision.recognize.pipeline import Recogniser

    problem = usage_problem(args)
    if problem is not None:
        print(f"scan: {problem}", file=sys.stderr)
        return 2
    try:
        recogniser = Recogniser(load_reference_deck(args.deck))
    except DeckError as error:
        print(f"scan: cannot use the deck: {error}", file=sys.stderr)
        return 2
    return MODES[mode(args)](args, recogniser)


def mode(args: argparse.Namespace) -> str:
    """Which kind of input the command was given; one entry of :data:`MODES`."""
    if args.sequence is not None:
        return "sequence"
    if args.camera is not None:
        return "camera"
    return "images"


def usage_problem(args: argparse.Namespace) -> str | None:
    """Why the options do not make one command, or None."""
    given = [name for name, present in (("photos", bool(args.images)), ("--sequence", args.sequence is not None),
                                        ("--camera", args.camera is not None)) if present]
    if len(given) != 1:
        what = "nothing" if not given else " and ".join(given)
        return f"give exactly one of: photos, --sequence VIDEO_OR_FRAME_DIR, --camera N (got {what})"
    tracking = mode(args) != "images"
    if args.annotate is not None and tracking:
        return "--annotate works with photos only"
    for flag, value in (("--fps", args.fps is not None), ("--evaluate", args.evaluate),
                        ("--players", args.players is not None), ("--doubles", args.doubles)):
        if value and not tracking:
            return f"{flag} needs --sequence or --camera"
    if args.evaluate != (args.players is not None):
        return "--evaluate and --players go together, e.g. --evaluate --players green,red"
    if args.fps is not None and mode(args) == "camera":
        return "--fps is for --sequence; a camera's frames carry their own times"
    if args.players is not None:
        from vision.track.narrate import parse_players

        try:
            parse_players(args.players)
        except ValueError as error:
            return f"--players: {error}"
    return None


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
    try:
        annotator = Annotator(args.annotate, recogniser.config) if args.annotate is not None else None
    except OSError as error:
        print(f"scan: cannot write annotated images to {args.annotate}: {error.strerror or error}",
              file=sys.stderr)
        return 2
    progress = Progress(len(args.images), sys.stderr, enabled=len(args.images) > PROGRESS_ABOVE)
    second = None if args.no_text else second_opinion_for(args.deck, recogniser, progress)
    results = []
    for path in args.images:
        progress.show(path)
        result, image = scan_image(path, recogniser, second)
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

    def advance(self, done: int, current: str) -> None:
        """Redraw at ``done`` items (for streams counted by the caller)."""
        self.done = done
        if self.total:
            self.show(current)
        elif self.enabled:
            self._draw(f"scan {current}")

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


def scan_sequence(args: argparse.Namespace, recogniser: Recogniser) -> int:
    """The cards revealed in a video or a folder of frames, in order."""
    from vision.track.sources import SourceError, open_sequence

    try:
        source = open_sequence(args.sequence, args.fps)
    except SourceError as error:
        print(f"scan: {error}", file=sys.stderr)
        return 2
    progress = Progress(source.total or 0, sys.stderr, enabled=True)
    return _track(args, recogniser, source, progress)


def scan_camera(args: argparse.Namespace, recogniser: Recogniser) -> int:
    """Each card revealed in front of the camera, printed as it lands."""
    from vision.track import sources

    try:
        source = sources.open_camera(args.camera)
    except sources.SourceError as error:
        print(f"scan: camera {args.camera}: {error}", file=sys.stderr)
        return 2
    return _track(args, recogniser, source, Progress(0, sys.stderr, enabled=False))


def _track(args: argparse.Namespace, recogniser: Recogniser, source, progress: Progress) -> int:  # noqa: ANN001
    from vision.track.follow import follow
    from vision.track.narrate import LiveEvaluation, describe_event, parse_players, sequence_json
    from vision.track.factory import tracker_for
    from vision.track.sources import SourceError

    evaluation = LiveEvaluation(parse_players(args.players), args.doubles) if args.evaluate else None
    events, verdicts = [], []  # verdicts: the engine's words per event, with --evaluate

    def on_frame(frame) -> None:  # noqa: ANN001
        if frame.index % PROGRESS_EVERY == 0:
            progress.advance(frame.index, f"frame {frame.index}")

    try:
        for event in follow(source, tracker_for(recogniser, fps=getattr(source, "fps", None)), on_frame):
            events.append(event)
            if not args.json:
                progress.say(describe_event(event, len(events), recogniser.config.is_sure(event.match)), sys.stdout)
            verdict = evaluation.reveal(event.card) if evaluation is not None else []
            verdicts.append(" ".join(line.strip() for line in verdict))
            for line in [] if args.json else verdict:
                progress.say(line, sys.stdout)
    except SourceError as error:
        progress.finish("stopped")
        print(f"scan: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # the player stops the camera: report what was seen
        source.close()
    progress.finish(f"{len(events)} cards revealed")
    if args.json:
        result = sequence_json(events, recogniser.config.is_sure)
        if evaluation is not None:
            for event, verdict in zip(result["events"], verdicts):
                event["engine"] = verdict or None
        print(json.dumps(result, indent=2))
    elif not events:
        print("no card was revealed")
    return 0


MODES: dict[str, Callable[[argparse.Namespace, Recogniser], int]] = {
    "images": scan_images, "sequence": scan_sequence, "camera": scan_camera}
