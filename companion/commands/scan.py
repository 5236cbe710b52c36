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
reports each card the moment it lands on the pile. --fps gives the frame
rate of a folder (default 15) or overrides a video's own. With --json it
prints

  {"sequence": [CARD, ...],
   "events": [{"frame": 31, "time": 2.067, "card": CARD, "confidence": 0.98,
               "runner_up": {"card": CARD, "confidence": 0.61}}]}

where frame is the index of the frame at which the card was reported.

Progress goes to standard error for a video, a folder of frames or more than
three photos: a bar on a terminal, and always a summary line at the end
("scan: 10 images scanned", "scan: 7 cards revealed").

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
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from .scan_photos import scan_images
from .scan_sequence import scan_camera, scan_sequence

if TYPE_CHECKING:  # the heavy modules load inside run(), so `mamma-mia evaluate` starts fast
    from vision.recognize.pipeline import Recogniser

NAME = "scan"
HELP = "recognise the cards in photos, or follow the pile flipped in a video or camera (JSON with --json)"


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


MODES: dict[str, Callable[[argparse.Namespace, Recogniser], int]] = {
    "images": scan_images, "sequence": scan_sequence, "camera": scan_camera}
