"""The choreography of a teaching video, decided before any pixel is drawn.

A fixed camera looks at a table at a slight slant. The faces of a deck are
shown one at a time, in a shuffled order: each lies still for about
:data:`HOLD_SECONDS`, then leaves a short gap, the empty table or a hand
passing over it, before the next. The plan knows every face's frames, so
the truth never depends on rendering.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np

from companion.engine import Card, card_to_json

from tools.synth.camera_effects import CameraLook
from vision.geometry import CARD_MM, Camera, CardPose, card_quad

HOLD_SECONDS = 1.2
GAP_SECONDS = (0.4, 0.8)
HAND_SHARE = 0.5  # of the gaps a hand passes over the table
TABLES = ("plain", "wood", "cloth")


@dataclass(frozen=True)
class Showing:
    """One face lying still from frame ``first`` to frame ``last`` (inclusive)."""

    card: Card
    pose: CardPose
    first: int
    last: int


@dataclass(frozen=True)
class Gap:
    """Frames ``first`` to ``last`` with no card; ``hand`` says whether a hand
    passes, reaching in from below to ``reach_x`` (share of the width)."""

    first: int
    last: int
    hand: bool
    reach_x: float = 0.5


@dataclass(frozen=True)
class TeachPlan:
    size: tuple[int, int]
    fps: float
    table: str
    camera: Camera
    look: CameraLook
    showings: tuple[Showing, ...]
    gaps: tuple[Gap, ...]
    frame_count: int

    def showing_at(self, frame: int) -> Showing | None:
        return next((s for s in self.showings if s.first <= frame <= s.last), None)

    def gap_at(self, frame: int) -> Gap | None:
        return next((g for g in self.gaps if g.first <= frame <= g.last), None)


def _camera(size: tuple[int, int], rng: np.random.Generator) -> Camera:
    """Slightly slanted, the card about two thirds of the picture's height."""
    w, h = size
    focal = w * float(rng.uniform(0.8, 1.1))
    card_px = h * float(rng.uniform(0.55, 0.7))
    return Camera(size, focal, focal * CARD_MM[1] / card_px, tilt=float(rng.uniform(5, 15)),
                  tilt_axis=float(rng.uniform(-30, 30)), roll=float(rng.uniform(-4, 4)),
                  target=(w * float(rng.uniform(0.46, 0.54)), h * float(rng.uniform(0.46, 0.54))))


def _look(rng: np.random.Generator) -> CameraLook:
    """A webcam or tablet camera indoors: kept gentle, so the frames stay small."""
    return CameraLook(exposure=float(rng.uniform(0.92, 1.08)), gamma=float(rng.uniform(0.92, 1.08)),
                      light_gradient=float(rng.uniform(0.05, 0.3)), light_angle=float(rng.uniform(0, 360)),
                      vignette=float(rng.uniform(0, 0.25)),
                      cast=tuple(float(c) for c in rng.uniform(0.92, 1.08, 3)),  # type: ignore[arg-type]
                      blur="focus", blur_amount=float(rng.uniform(0.4, 0.9)), noise=float(rng.uniform(0.6, 1.2)),
                      jpeg_quality=int(rng.integers(70, 78)))


def _frames(seconds: float, fps: float) -> int:
    return max(1, round(seconds * fps))


def plan_teach_video(cards: Sequence[Card], rng: np.random.Generator, size: tuple[int, int] = (640, 480),
                     fps: float = 15.0) -> TeachPlan:
    """Show ``cards`` in a shuffled order, each still for :data:`HOLD_SECONDS`,
    a gap before each and one after the last."""
    camera = _camera(size, rng)
    order = [cards[int(k)] for k in rng.permutation(len(cards))]
    showings, gaps, frame = [], [], 0
    for card in order:
        gap = _frames(float(rng.uniform(*GAP_SECONDS)), fps)
        gaps.append(Gap(frame, frame + gap - 1, bool(rng.random() < HAND_SHARE), float(rng.uniform(0.35, 0.65))))
        frame += gap
        pose = CardPose(float(rng.normal(0, 4)), float(rng.normal(0, 4)), float(rng.normal(0, 4)))
        hold = _frames(HOLD_SECONDS, fps)
        showings.append(Showing(card, pose, frame, frame + hold - 1))
        frame += hold
    end = _frames(GAP_SECONDS[1], fps)
    gaps.append(Gap(frame, frame + end - 1, False))
    table = TABLES[int(rng.integers(len(TABLES)))]
    return TeachPlan(size, fps, table, camera, _look(rng), tuple(showings), tuple(gaps), frame + end)


def corners(plan: TeachPlan, showing: Showing, face_size: tuple[int, int]) -> np.ndarray:
    """Where the face's corners lie in the picture (TL, TR, BR, BL)."""
    return card_quad(plan.camera.table_to_image() @ showing.pose.face_to_table(face_size), face_size)


def truth_json(plan: TeachPlan, playback_frame: Callable[[int], int], face_size: tuple[int, int]) -> dict[str, Any]:
    """Each face's notation, corners and frames, in the video's frames and in
    the played file's (``playback_frame(i)``: the first played frame showing frame ``i``)."""
    def span(first: int, last: int) -> dict[str, Any]:
        return {"frames": [first, last], "seconds": [round(first / plan.fps, 3), round((last + 1) / plan.fps, 3)],
                "playback_frames": [playback_frame(first), playback_frame(last + 1) - 1]}

    def where(showing: Showing) -> list[list[float]]:
        return [[round(float(x), 2), round(float(y), 2)] for x, y in corners(plan, showing, face_size)]

    return {
        "size": list(plan.size), "fps": plan.fps, "frame_count": plan.frame_count, "table": plan.table,
        "cards": [{"notation": s.card.notation, "card": card_to_json(s.card), "corners": where(s),
                   **span(s.first, s.last)} for s in plan.showings],
        "gaps": [{"hand": g.hand, **span(g.first, g.last)} for g in plan.gaps],
        "notation": " ".join(s.card.notation for s in plan.showings),
    }
