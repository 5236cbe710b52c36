"""What the capture checks make of each first photo of a folder of
``python -m tools.synth enroll-photos``: whether the picture is refused (and
why) or taught, against how its outline lies on the card's true corners.

    python -m tools.synth enroll-photos --style hard --seed 2201 --out /tmp/hard-2201
    python -m tools.bench.capture_cuts /tmp/hard-2201 [/tmp/other ...]

Unlike :mod:`tools.bench.enroll_bench` it takes no retakes and runs no
command: each photo's :func:`vision.recognize.capture.capture` is judged at
once, so a check's false refusals (pictures cut well, refused) and misses
(pictures cut out over the table, taught) are counted on every photo. The
outline is judged from its corners directly: good when every corner is within
2 % of the card's width of the true one; otherwise inside or table by its area
against the card's, or off beyond a quarter of the width.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from vision.geometry import quad_area
from vision.recognize.capture import capture

GOOD, FAR = 0.02, 0.25


def verdict(outline: np.ndarray, truth: np.ndarray) -> str:
    """good, inside, table or off: ``outline`` (4, 2) against the true corners, either way up."""
    width = float(np.linalg.norm(truth[1] - truth[0]) + np.linalg.norm(truth[2] - truth[3])) / 2
    error = min(float(np.linalg.norm(np.roll(outline, k, axis=0) - truth, axis=1).max()) for k in range(4)) / width
    if error <= GOOD:
        return "good"
    if error > FAR:
        return "off"
    return "inside" if quad_area(outline) < quad_area(truth) else "table"


def judge(folder: Path) -> Counter:
    """(verdict, outcome) counts of the folder's photos; outcome is taught or the first problem's code."""
    counts: Counter = Counter()
    for item in json.loads((folder / "truth.json").read_text())["photos"]:
        image = cv2.imread(str(folder / item["image"]))
        found = capture(image, top=None if item["top"] == "top" else item["top"])
        if found.outline is None:
            counts[("none", found.problems[0].code)] += 1
            continue
        cut = verdict(found.outline.corners.astype(np.float64), np.array(item["corners"], np.float64))
        counts[(cut, found.problems[0].code if found.problems else "taught")] += 1
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folders", type=Path, nargs="+")
    args = parser.parse_args(argv)
    total: Counter = Counter()
    for folder in args.folders:
        counts = judge(folder)
        total += counts
        print(f"{folder}: " + ", ".join(f"{cut} {outcome} {n}" for (cut, outcome), n in sorted(counts.items())))
    print("all: " + ", ".join(f"{cut} {outcome} {n}" for (cut, outcome), n in sorted(total.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
