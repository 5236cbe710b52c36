"""Make synthetic card images with known answers.

  python -m tools.synth deck [--style default|alt|hard] [--out DIR]
      render all 51 faces, manifest.json and a contact sheet
  python -m tools.synth photos --count N --seed S [--kind top|layout|empty] [--out DIR]
      table photos (JPEG) with photos.json: each card's identity, face
      corners (TL, TR, BR, BL in pixels), top flag and visible share
  python -m tools.synth videos --count N --seed S [--set classic|hard|gestures|nudges] [--cards 20-60]
                                [--fake-camera] [--out DIR]
      flip videos (MJPEG AVI + JPEG frames) with the true card sequence;
      --set hard lays runs, doubles and cards almost on the last one, with
      hands from any side; --set gestures adds hands passing, nudges, lifts
      and hands resting that lay no card, --set nudges only nudges of the
      pile; --fake-camera also writes a .mjpeg
      for Chromium's --use-file-for-fake-video-capture
  python -m tools.synth enroll-photos [--style S] --seed S [--no-doubles] [--out DIR]
      a phone photo of each face alone on a table, manifest.json for
      `mamma-mia enroll DIR`, and truth.json with each card's true corners
  python -m tools.synth teach-video [--style S] --seed S [--no-doubles] [--size 640x480] [--out FILE.mjpeg]
      the faces shown one at a time on a table, as Chromium's fake-camera
      .mjpeg, with FILE.json: each face's notation, corners and frames
  python -m tools.synth maus-deck [--style default|alt] [--out DIR]
      the 70 distinct Maus au Chocolat faces and manifest.json (Maus notation)
  python -m tools.synth maus-photos --count N --seed S [--style S] [--out DIR]
      photos of 3-4 Maus cards laid in a row, with photos.json (cards left to right)
  python -m tools.synth maus-enroll-photos --seed S [--style S] [--out DIR]
      a phone photo of each of the 70 Maus faces alone, with manifest.json ("game": "maus")
  python -m tools.synth samples [--out DIR]
      rewrite the small curated set in sample_images/

Everything is seeded: the same command gives the same bytes. Big sets go to
sample_images/generated/ by default (not committed).
"""
from __future__ import annotations

import argparse
from pathlib import Path
from typing import Sequence


SAMPLES = Path("sample_images")
VIDEO_SET_NAMES = ("classic", "hard", "gestures", "nudges")  # tools.synth.video_sets.VIDEO_SETS, without importing cv2
GENERATED = SAMPLES / "generated"


def _size(text: str) -> tuple[int, int]:
    width, _, height = text.lower().partition("x")
    try:
        return int(width), int(height)
    except ValueError:
        raise argparse.ArgumentTypeError(f"size must look like 1280x720, not {text!r}") from None


def _range(text: str) -> tuple[int, int]:
    low, _, high = text.partition("-")
    try:
        result = int(low), int(high or low)
    except ValueError:
        raise argparse.ArgumentTypeError(f"card count must look like 20-60, not {text!r}") from None
    if not 1 <= result[0] <= result[1]:
        raise argparse.ArgumentTypeError(f"card count range {text!r} is empty")
    return result


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    deck = actions.add_parser("deck", help="render the 51 faces, manifest and contact sheet")
    deck.add_argument("--style", default="default", help="art style: default, alt or hard (default: default)")
    deck.add_argument("--out", type=Path, default=None,
                      help="folder (default: sample_images/deck, or sample_images/generated/deck-STYLE)")

    photos = actions.add_parser("photos", help="table photos with ground truth")
    photos.add_argument("--count", type=int, default=20, help="number of photos (default 20)")
    photos.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    photos.add_argument("--kind", choices=["top", "layout", "empty", "mixed"], default="mixed",
                        help="top card of a pile, several laid-out cards, an empty table, or a mix (default)")
    photos.add_argument("--size", type=_size, default=(1280, 720), help="WIDTHxHEIGHT (default 1280x720)")
    photos.add_argument("--style", default="default", help="art style (default: default)")
    photos.add_argument("--out", type=Path, default=GENERATED / "photos", help="folder (default: %(default)s)")

    videos = actions.add_parser("videos", help="flip videos with the true card sequence")
    videos.add_argument("--count", type=int, default=3, help="number of videos (default 3)")
    videos.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    videos.add_argument("--cards", type=_range, default=(20, 60), help="cards per video, MIN-MAX (default 20-60)")
    videos.add_argument("--size", type=_size, default=(960, 540), help="WIDTHxHEIGHT (default 960x540)")
    videos.add_argument("--fps", type=float, default=15.0, help="frames per second (default 15)")
    videos.add_argument("--set", dest="video_set", choices=VIDEO_SET_NAMES, default="classic",
                        help="which videos: classic (default), hard, gestures or nudges")
    videos.add_argument("--no-frames", action="store_true", help="skip the folder of JPEG frames")
    videos.add_argument("--fake-camera", action="store_true",
                        help="also write NAME.mjpeg for Chromium's --use-file-for-fake-video-capture")
    videos.add_argument("--style", default="default", help="art style (default: default)")
    videos.add_argument("--out", type=Path, default=GENERATED / "videos", help="folder (default: %(default)s)")

    enroll = actions.add_parser("enroll-photos", help="phone photos of single cards to enroll a deck from")
    enroll.add_argument("--style", default="default", help="art style (default: default)")
    enroll.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    enroll.add_argument("--no-doubles", action="store_true", help="leave out the five doubles (46 faces)")
    enroll.add_argument("--out", type=Path, default=None,
                        help="folder (default: sample_images/generated/enroll-STYLE-sSEED)")

    teach = actions.add_parser("teach-video", help="a fake-camera video showing each face in turn")
    teach.add_argument("--style", default="default", help="art style (default: default)")
    teach.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    teach.add_argument("--no-doubles", action="store_true", help="leave out the five doubles (46 faces)")
    teach.add_argument("--size", type=_size, default=(640, 480), help="WIDTHxHEIGHT (default 640x480)")
    teach.add_argument("--fps", type=float, default=15.0, help="frames per second rendered (default 15)")
    teach.add_argument("--out", type=Path, default=None,
                       help="the .mjpeg (default: sample_images/generated/teach-STYLE-sSEED.mjpeg)")

    maus_deck = actions.add_parser("maus-deck", help="render the 70 Maus au Chocolat faces and their manifest")
    maus_deck.add_argument("--style", default="default", help="Maus art style: default or alt (default: default)")
    maus_deck.add_argument("--out", type=Path, default=None,
                           help="folder (default: sample_images/maus_deck, or sample_images/generated/maus-deck-STYLE)")

    maus_photos = actions.add_parser("maus-photos", help="photos of Maus cards laid in a row, with truth")
    maus_photos.add_argument("--count", type=int, default=20, help="number of photos (default 20)")
    maus_photos.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    maus_photos.add_argument("--style", default="default", help="Maus art style (default: default)")
    maus_photos.add_argument("--out", type=Path, default=GENERATED / "maus-photos", help="folder (default: %(default)s)")

    maus_enroll = actions.add_parser("maus-enroll-photos", help="a phone photo of each Maus face, for mamma-mia enroll")
    maus_enroll.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    maus_enroll.add_argument("--style", default="default", help="Maus art style (default: default)")
    maus_enroll.add_argument("--out", type=Path, default=None,
                             help="folder (default: sample_images/generated/maus-enroll-STYLE-sSEED)")

    samples = actions.add_parser("samples", help="rewrite the curated set kept in sample_images/")
    samples.add_argument("--out", type=Path, default=SAMPLES, help="folder (default: %(default)s)")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.synth", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(parser)
    return run(parser.parse_args(argv))


def run(args: argparse.Namespace) -> int:
    from tools.synth.style import style_named

    if args.action == "deck":
        return _deck(args, style_named(args.style))
    if args.action == "photos":
        return _photos(args, style_named(args.style))
    if args.action == "videos":
        return _videos(args, style_named(args.style))
    if args.action == "enroll-photos":
        return _enroll_photos(args, style_named(args.style))
    if args.action == "teach-video":
        return _teach_video(args, style_named(args.style))
    if args.action == "maus-deck":
        return _maus_deck(args)
    if args.action == "maus-photos":
        return _maus_photos(args)
    if args.action == "maus-enroll-photos":
        return _maus_enroll_photos(args)
    return _samples(args)


def _maus_enroll_photos(args: argparse.Namespace) -> int:
    from tools.synth.maus_enroll import write_maus_enroll_photos
    from tools.synth.maus_style import maus_style_named

    out = args.out or GENERATED / f"maus-enroll-{args.style}-s{args.seed}"
    manifest = write_maus_enroll_photos(out, maus_style_named(args.style), args.seed)
    print(f"wrote the photos and {manifest}; enroll them: mamma-mia enroll {out}")
    return 0


def _deck(args: argparse.Namespace, style) -> int:
    from tools.synth.deck_files import load_deck, write_contact_sheet, write_deck

    out = args.out or (SAMPLES / "deck" if style.name == "default" else GENERATED / f"deck-{style.name}")
    entries = write_deck(out, style)
    sheet = write_contact_sheet(load_deck(out), out.parent / f"{out.name}_contact_sheet.png")
    print(f"wrote {len(entries)} faces, {out / 'manifest.json'} and {sheet}")
    return 0


def _photos(args: argparse.Namespace, style) -> int:
    from tools.synth.datasets import Art, write_photo_set
    from tools.synth.photo_spec import PHOTO_KINDS

    kinds = PHOTO_KINDS if args.kind == "mixed" else (args.kind,)
    index = write_photo_set(args.out, args.count, args.seed, kinds, Art.of(style), args.size)
    print(f"wrote {args.count} photos to {args.out} (truth: {index})")
    return 0


def _videos(args: argparse.Namespace, style) -> int:
    from tools.synth.datasets import Art, write_video_set

    files = write_video_set(args.out, args.count, args.seed, args.cards, Art.of(style), args.size, args.fps,
                            frames=not args.no_frames, fake_camera=args.fake_camera, kind=args.video_set)
    for f in files:
        extras = [str(p) for p in (f.frames_dir, f.mjpeg) if p]
        print(f"wrote {f.avi} ({f.frame_count} frames), truth {f.truth}" + (f"; {', '.join(extras)}" if extras else ""))
    return 0


def _enroll_photos(args: argparse.Namespace, style) -> int:
    from tools.synth.enroll_photos import enroll_faces, write_enroll_photos

    out = args.out or GENERATED / f"enroll-{style.name}-s{args.seed}"
    manifest = write_enroll_photos(out, style, args.seed, doubles=not args.no_doubles)
    count = len(enroll_faces(doubles=not args.no_doubles))
    print(f"wrote {count} photos and {manifest}; enroll them: mamma-mia enroll {out}")
    return 0


def _teach_video(args: argparse.Namespace, style) -> int:
    from tools.synth.enroll_photos import enroll_faces
    from tools.synth.teach_video import write_teach_video

    out = args.out or GENERATED / f"teach-{style.name}-s{args.seed}.mjpeg"
    cards = [card for _, card in enroll_faces(doubles=not args.no_doubles)]
    video, truth = write_teach_video(out, style, args.seed, cards, args.size, args.fps)
    print(f"wrote {video} ({len(cards)} faces; Chromium: --use-file-for-fake-video-capture={video}) and {truth}")
    return 0


def _maus_deck(args: argparse.Namespace) -> int:
    from tools.synth.deck_files import write_contact_sheet
    from tools.synth.maus_art import render_maus_deck, write_maus_deck
    from tools.synth.maus_style import maus_style_named

    style = maus_style_named(args.style)
    out = args.out or (SAMPLES / "maus_deck" if style.name == "default" else GENERATED / f"maus-deck-{style.name}")
    manifest = write_maus_deck(out, style)
    sheet = write_contact_sheet(render_maus_deck(style), GENERATED / f"maus-deck-{style.name}_contact_sheet.png")
    print(f"wrote {manifest} and its faces; contact sheet {sheet}")
    return 0


def _maus_photos(args: argparse.Namespace) -> int:
    import json

    from tools.synth.maus_photo import MausArt, laid_photo_stream, truth_json
    from tools.synth.maus_style import maus_style_named
    from vision.cvcompat import write_bytes

    truths = []
    for index, photo in enumerate(laid_photo_stream(MausArt.of(maus_style_named(args.style)), args.count, args.seed)):
        name = f"laid-{index:05d}.jpg"
        write_bytes(args.out / name, photo.jpeg)
        truths.append(truth_json(photo, name))
    index_path = args.out / "photos.json"
    index_path.write_text(json.dumps({"seed": args.seed, "style": args.style, "photos": truths}, indent=1) + "\n")
    print(f"wrote {args.count} photos to {args.out} (truth: {index_path})")
    return 0


def _samples(args: argparse.Namespace) -> int:
    from tools.synth.samples import write_samples

    files = write_samples(args.out)
    print(f"wrote {files.deck}, {files.contact_sheet}, {files.photos}, {files.photo_preview}, {files.video_truth}")
    return 0
