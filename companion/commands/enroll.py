"""Teach the recogniser your own printed deck from pictures of its cards.

  mamma-mia enroll DIR

DIR/manifest.json lists one picture per distinct face, each with its card:

  {"cards": [{"image": "salami.jpg", "card": {"kind": "ingredient", "ingredient": "salami", "double": false}},
             {"image": "IMG_0042.jpg", "card": "g:4A+P"}, ...]}

(CARD as in the evaluate contract, or its notation.) A Maus au Chocolat deck
says so, and names each distinct face (colour x value x coins: 70 for the
stand-in spread) in Maus notation with its coins:

  {"game": "maus", "cards": [{"image": "IMG_0001.jpg", "card": "g5/3"}, ...]}

A picture may be a scan
cut to the card's edges, or a photo of the card alone on a plain table. The
card's top is taken to be the end nearest the top of the picture (a sideways
scan: its left side); add "top": "bottom", "left" or "right" to an entry
when that is wrong. The faces are straightened and written to DIR/enrolled/
(its manifest names the game too); for Mamma Mia! the words printed on each
face are read (with Tesseract, a few seconds per ten faces) into
DIR/enrolled/ocr.json: when a photo's card is unsure between two faces, its
printed text decides. Then
`mamma-mia scan --deck DIR PHOTO...` recognises cards of this deck, and
`mamma-mia serve --deck DIR` has the table app's camera use it.

Each picture's outcome is reported on standard error; a picture is refused
when teaching from the tablet would refuse it, or when its face does not
fit the deck's others (an order cut unlike the other orders). Exit code 0
when every face was enrolled, 1 when some failed (nothing is written then:
take those again and run again), 2 when DIR or its manifest cannot be used.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..report import counted

NAME = "enroll"
HELP = "learn your own printed deck from pictures of its cards (for scan --deck)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("folder", type=Path, metavar="DIR", help="folder with manifest.json and the pictures")


def run(args: argparse.Namespace) -> int:
    from vision.recognize.decks import MANIFEST, DeckError, read_manifest
    from vision.recognize.enroll import coverage_warnings, enroll_entries, write_enrolled

    from ..decks.games import MAMMA_MIA, manifest_game
    from ..engine import card_from_json

    try:
        try:
            game = manifest_game(args.folder)
        except ValueError as error:
            raise DeckError(f"{args.folder / MANIFEST}: {error}") from None
        # a Mamma Mia! card well written but not in the classic deck is warned about below, as always
        entries = read_manifest(args.folder, card_from_json if game.id == MAMMA_MIA else game.read)
    except DeckError as error:
        print(f"enroll: {error}", file=sys.stderr)
        return 2
    outcomes = []
    for outcome in enroll_entries(entries):
        print(f"  {outcome.status:<8} {outcome.entry.card.notation:<12} {outcome.entry.image.name}: {outcome.note}",
              file=sys.stderr, flush=True)
        outcomes.append(outcome)
    for warning in coverage_warnings((o.entry.card for o in outcomes), game.faces):
        print(f"enroll: warning: {warning}", file=sys.stderr)
    failed = [o for o in outcomes if o.status == "failed"]
    if not failed and game.id == MAMMA_MIA:  # the family check knows Mamma Mia!'s faces
        failed = _misfits(outcomes)
    if failed:
        print(f"enroll: {len(failed)} of {len(outcomes)} pictures failed; nothing was written "
              f"(fix them and run again)", file=sys.stderr)
        return 1
    faces = [(o.entry.card, o.face) for o in outcomes if o.status == "ok"]
    try:
        target = write_enrolled(args.folder, faces, game.slug, game.manifest_json)
    except OSError as error:
        print(f"enroll: cannot write {args.folder / 'enrolled'}: {error.strerror or error}", file=sys.stderr)
        return 1
    print(f"Enrolled {counted(len(faces), 'face')} into {target}.")
    if game.id != MAMMA_MIA:
        print(f"Play with it: mamma-mia serve --deck {args.folder} (the Maus au Chocolat camera then uses it)")
        return 0
    _read_text(args.folder)
    print(f"Scan with this deck: mamma-mia scan --deck {args.folder} PHOTO...")
    print(f"Play with it: mamma-mia serve --deck {args.folder}")
    return 0


def _misfits(outcomes: list) -> list:
    """The faces that do not fit the deck's others (each picture passed its
    own checks), reported and counted as failed."""
    from dataclasses import replace

    from vision.recognize.misfits import misfits_among

    taken = [o for o in outcomes if o.status == "ok"]
    wrong = misfits_among((o.entry.card, o.face) for o in taken)
    failed = [replace(o, status="failed", note=wrong[o.entry.card]) for o in taken if o.entry.card in wrong]
    for outcome in failed:
        print(f"  {outcome.status:<8} {outcome.entry.card.notation:<12} {outcome.entry.image.name}: {outcome.note}",
              file=sys.stderr, flush=True)
    return failed


def _read_text(folder: Path) -> None:
    """The text index for unsure matches; without it scanning still works, so a
    missing or failing Tesseract is a warning, not an error."""
    import pytesseract

    from vision.recognize.ocr import load_text_index

    print("Reading the printed text of each face...", file=sys.stderr, flush=True)
    try:
        load_text_index(folder, write=True)
    except (OSError, RuntimeError, pytesseract.TesseractError) as error:
        print(f"enroll: warning: the printed text could not be read ({error}); "
              f"scans will rely on the pictures alone", file=sys.stderr)
