"""What a player's phone photo of one card shows, chosen from a seeded
generator: the card alone on a table, photographed by hand to teach the app
a deck.

A handheld phone is tilted a little (up to :data:`MAX_TILT` degrees) and
turned a little; the card fills 30 to 60 % of the picture; the picture is
3:4 portrait or 4:3 landscape. In a portrait the card stands upright; in a
landscape it stands upright (and is then smaller) or lies across, its top to
the left or right, as a player turning the phone would take it. The light is
uneven and a little coloured, focus and noise are mild and the JPEG is a
phone's (quality 80 to 90); there is no glare and no thumb.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from tools.synth.camera_effects import CameraLook
from tools.synth.photo_spec import card_fits
from vision.geometry import CARD_MM, Camera, CardPose, quad_area

LONG_SIDE = 1280  # pixels of the picture's long side
TABLES = ("plain", "wood", "cloth")
MAX_TILT = 15.0  # degrees away from looking straight down
SHARE = (0.3, 0.6)  # of the picture the card covers
UPRIGHT_IN_LANDSCAPE = 0.42  # the most an upright card can cover of a 4:3 landscape, with table around it
MARGIN = 0.04  # table left around the card at least, share of the picture's short side


@dataclass(frozen=True)
class CardShot:
    """One photo's choices: plain data, so a test can build one by hand."""

    size: tuple[int, int]
    table: str
    camera: Camera
    pose: CardPose
    look: CameraLook

    @property
    def orientation(self) -> str:
        return "portrait" if self.size[1] > self.size[0] else "landscape"


def phone_look(rng: np.random.Generator) -> CameraLook:
    """A phone's picture indoors: uneven, slightly coloured light, mild focus
    blur and noise, a phone's JPEG quality."""
    blurred = rng.random() < 0.6
    # the light may vary by up to about 15 % across the card (a lamp to one side), and the
    # phone's white balance leave a cast of up to 10 % in a channel
    return CameraLook(
        exposure=float(rng.uniform(0.9, 1.1)),
        gamma=float(rng.uniform(0.9, 1.1)),
        light_gradient=float(rng.uniform(0.05, 0.25)),
        light_angle=float(rng.uniform(0, 360)),
        vignette=float(rng.uniform(0, 0.25)),
        cast=tuple(float(c) for c in rng.uniform(0.9, 1.1, 3)),  # type: ignore[arg-type]
        blur="focus" if blurred else "none",
        blur_amount=float(rng.uniform(0.3, 1.1)) if blurred else 0.0,
        noise=float(rng.uniform(1.5, 4.0)),
        jpeg_quality=int(rng.integers(80, 91)),
    )


def _picture(rng: np.random.Generator) -> tuple[tuple[int, int], float, float]:
    """(size, card angle on the table, largest share) of a portrait or a landscape."""
    short = LONG_SIDE * 3 // 4
    if rng.random() < 0.6:
        return (short, LONG_SIDE), 0.0, SHARE[1]
    if rng.random() < 0.5:
        return (LONG_SIDE, short), 0.0, UPRIGHT_IN_LANDSCAPE
    return (LONG_SIDE, short), float(rng.choice([-90.0, 90.0])), SHARE[1]


def _distance(size: tuple[int, int], focal: float, share: float) -> float:
    """Camera distance (mm) at which a card seen square-on covers ``share`` of the picture."""
    area = share * size[0] * size[1]
    card_px = math.sqrt(area * CARD_MM[1] / CARD_MM[0])  # its long side
    return focal * CARD_MM[1] / card_px


def sample_card_shot(rng: np.random.Generator) -> CardShot:
    size, across, most = _picture(rng)
    w, h = size
    pose = CardPose(0.0, 0.0, across + float(rng.uniform(-6, 6)))
    share = float(rng.uniform(SHARE[0], most))
    for attempt in range(200):
        focal = LONG_SIDE * float(rng.uniform(0.8, 1.1))
        camera = Camera(size, focal, _distance(size, focal, share * 0.985 ** attempt),
                        tilt=float(rng.uniform(0, MAX_TILT)), tilt_axis=float(rng.uniform(0, 360)),
                        roll=float(rng.uniform(-5, 5)),
                        target=(w * float(rng.uniform(0.45, 0.55)), h * float(rng.uniform(0.45, 0.55))))
        if card_fits(camera, pose, MARGIN * min(size)):
            return CardShot(size, TABLES[int(rng.integers(len(TABLES)))], camera, pose, phone_look(rng))
    raise RuntimeError("no handheld pose fits the picture")


def card_share(corners: np.ndarray, size: tuple[int, int]) -> float:
    """Share of the picture a card with these corners covers."""
    return quad_area(np.asarray(corners, float)) / (size[0] * size[1])


def top_side(corners: np.ndarray) -> str:
    """The side of the picture the card's top edge faces (TL, TR, BR, BL corners).

    >>> top_side(np.array([[10, 0], [20, 0], [20, 30], [10, 30]]))
    'top'
    >>> top_side(np.array([[30, 10], [30, 20], [0, 20], [0, 10]]))
    'right'
    """
    corners = np.asarray(corners, float)
    dx, dy = (corners[0] + corners[1]) / 2 - corners.mean(axis=0)
    if abs(dy) >= abs(dx):
        return "top" if dy < 0 else "bottom"
    return "left" if dx < 0 else "right"

