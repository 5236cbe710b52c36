"""How closely the flip tracker's recogniser outlines the card just laid,
against where the synthetic camera drew it.

    python -m tools.bench.outline_fit --set hard --seed 3931 --videos 4 --cards 18-24 --cache /tmp/vc3

For each card of each video, the frame after its hand left is read by the
tracker's recogniser (as ``mamma-mia scan --sequence`` reads it, on the
whole frame); the reading of that card nearest the card's true place is
judged as :func:`tools.bench.capture_cuts.verdict` judges an enrolment photo
(good: every corner within 2 % of the card's width; inside, table or off),
and its size is compared with the card's (the square root of the two areas'
ratio: 0.95 is an outline 5 % too small across). The tracker tells cards
apart by their outlines and by what lies just outside them, so an outline
that follows a frame printed inside the card shows here.
"""
from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from tools.bench.capture_cuts import verdict
from tools.bench.videocache import cached_frames, fill_cache
from tools.synth.datasets import Art, video_plan
from tools.synth.gestures import GesturePlan
from tools.synth.style import style_named
from tools.synth.video_sets import laid
from vision.recognize.decks import load_reference_deck
from vision.recognize.pipeline import Recogniser
from vision.track.factory import tracker_for


def true_corners(plan, flip, face: np.ndarray) -> np.ndarray:  # noqa: ANN001 (a video's plan and one of its flips)
    """The corners of ``flip``'s card in the frame, as the camera drew it."""
    height, width = face.shape[:2]
    outline = np.float32([[0, 0], [width, 0], [width, height], [0, height]])[None]
    camera = (plan.flips if isinstance(plan, GesturePlan) else plan).camera
    drawn = camera.table_to_image() @ flip.pose.face_to_table((width, height))
    return cv2.perspectiveTransform(outline, drawn)[0]


def measure(paths: list[Path], seed: int, cards: tuple[int, int], kind: str, style: str) -> tuple[Counter, list[float]]:
    """The verdicts and size ratios of every card read in the videos at ``paths``."""
    faces = Art.of(style_named(style)).faces
    tracker = tracker_for(Recogniser(load_reference_deck()))
    verdicts: Counter = Counter()
    ratios: list[float] = []
    for index, path in enumerate(paths):
        plan, _ = video_plan(seed, index, cards, kind=kind)
        after = {flip.hand_left + 1: flip for flip in laid(plan)}
        for number, image in enumerate(cached_frames(path)):
            flip = after.get(number)
            if flip is None:
                continue
            truth = true_corners(plan, flip, faces[flip.card])
            read = [s for s in tracker.recognise(image) if s.card == flip.card]
            if not read:
                verdicts["not read"] += 1
                continue
            nearest = min(read, key=lambda s: float(np.linalg.norm(s.center - truth.mean(axis=0))))
            verdicts[verdict(nearest.corners, truth)] += 1
            ratios.append(float(np.sqrt(cv2.contourArea(nearest.corners) / cv2.contourArea(truth))))
    return verdicts, ratios


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--set", dest="kind", default="hard", choices=("classic", "hard", "gestures", "nudges"))
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--videos", type=int, default=4)
    parser.add_argument("--cards", default="18-24", help="cards per video, MIN-MAX (default 18-24)")
    parser.add_argument("--style", default="default", help="the stand-in deck's style the videos show")
    parser.add_argument("--cache", type=Path, required=True, metavar="DIR", help="rendered videos (made if missing)")
    args = parser.parse_args(argv)
    low, high = (int(n) for n in args.cards.split("-"))
    paths = fill_cache(args.cache, args.videos, args.seed, (low, high), style=args.style, kind=args.kind)
    verdicts, ratios = measure(paths, args.seed, (low, high), args.kind, args.style)
    print("outlines: " + ", ".join(f"{name} {count}" for name, count in verdicts.most_common()))
    if ratios:
        median, low10, high90 = np.percentile(ratios, [50, 10, 90])
        print(f"size against the card: median {median:.3f}, p10 {low10:.3f}, p90 {high90:.3f} ({len(ratios)} cards)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
