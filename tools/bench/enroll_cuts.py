"""How well enrollment cut each face out of its photo, judged against where
the card really lies (the ``truth.json`` of ``python -m tools.synth
enroll-photos``).

The enrolled face is aligned with the face cut out at the true corners (ECC,
a homography, on grey faces at a quarter of their size), both ways up; where
its corners then land says how far the cut strayed: inside the card's outer
edge (along a printed frame, say), out over the table, or the wrong way up.
A cut so far off that no alignment within :data:`FAR` of the card holds is
"off": its error is beyond measuring this way.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.geometry import is_convex, quad_area
from vision.recognize.decks import ENROLLED, MANIFEST
from vision.recognize.enroll import FACE_SIZE
from vision.recognize.rectify import rectify
from vision.recognize.types import Quad

GOOD = 0.02  # a corner further than this share of the card's width from the true one is a mis-cut
FAR = 0.25  # an alignment moving a corner further than this is not trusted
_SMALL = (FACE_SIZE[0] // 4, FACE_SIZE[1] // 4)


@dataclass(frozen=True)
class Cut:
    """One enrolled face against the truth. ``corner_error``: the largest
    distance of a corner from where it should be, per card width; ``area``:
    the cut's area per the card's (below 1: cut inside the card)."""

    image: str
    notation: str
    aligned: bool
    turned: bool = False
    corner_error: float = float("nan")
    area: float = float("nan")

    @property
    def verdict(self) -> str:
        if not self.aligned:
            return "off"
        if self.turned:
            return "turned"
        if self.corner_error <= GOOD:
            return "good"
        return "inside" if self.area < 1 else "table"

    def as_json(self) -> dict:
        return {"image": self.image, "notation": self.notation, "verdict": self.verdict,
                "corner_error": round(self.corner_error, 4), "area": round(self.area, 4)}


def _grey(face: np.ndarray) -> np.ndarray:
    small = cv2.resize(face, _SMALL, interpolation=cv2.INTER_AREA)
    return cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32)


def _align(truth: np.ndarray, cut: np.ndarray) -> tuple[float, np.ndarray] | None:
    """(correlation, homography from truth to cut coordinates), or None."""
    warp = np.eye(3, dtype=np.float32)
    criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 200, 1e-6)
    try:
        score, warp = cv2.findTransformECC(truth, cut, warp, cv2.MOTION_HOMOGRAPHY, criteria, None, 5)
    except cv2.error:
        return None
    return float(score), warp


def measure_cut(photo: np.ndarray, corners: np.ndarray, enrolled: np.ndarray, image: str = "",
                notation: str = "") -> Cut:
    """Compare ``enrolled`` (a face at :data:`FACE_SIZE`) with the face at the true ``corners`` of ``photo``."""
    truth = _grey(rectify(photo, Quad(np.float32(corners)), FACE_SIZE))
    for turned in (False, True):  # upright first: a symmetric face aligns both ways
        placed = _placed(truth, _grey(cv2.rotate(enrolled, cv2.ROTATE_180) if turned else enrolled))
        if placed is not None:
            error, area = placed
            return Cut(image, notation, True, turned, error, area)
    return Cut(image, notation, aligned=False)


def _placed(truth: np.ndarray, cut: np.ndarray) -> tuple[float, float] | None:
    """(largest corner error per width, area per the card's) of the cut's
    outline on the card, when an alignment holds."""
    aligned = _align(truth, cut)
    if aligned is None:
        return None
    w, h = _SMALL
    outline = np.float32([[-0.5, -0.5], [w - 0.5, -0.5], [w - 0.5, h - 0.5], [-0.5, h - 0.5]])
    placed = cv2.perspectiveTransform(outline[None], np.linalg.inv(aligned[1]))[0]
    error = float(np.linalg.norm(placed - outline, axis=1).max()) / w
    if error > FAR or not is_convex(placed):
        return None
    return error, quad_area(placed) / (w * h)


def measure_cuts(folder: str | Path) -> list[Cut]:
    """Every enrolled face of ``folder`` (photos, ``truth.json`` and, after
    ``mamma-mia enroll``, ``enrolled/``) against its photo's truth."""
    folder = Path(folder)
    truth = json.loads((folder / "truth.json").read_text())["photos"]
    enrolled = json.loads((folder / ENROLLED / MANIFEST).read_text())["cards"]
    faces = {json.dumps(item["card"], sort_keys=True): folder / ENROLLED / item["image"] for item in enrolled}
    cuts = []
    for item in truth:
        face = faces.get(json.dumps(item["card"], sort_keys=True))
        if face is None:
            continue
        photo = cv2.imread(str(folder / item["image"]))
        cuts.append(measure_cut(photo, np.float32(item["corners"]), cv2.imread(str(face)), item["image"],
                                item["notation"]))
    return cuts
