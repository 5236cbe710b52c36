"""Teaching a deck one picture at a time: the card found in a picture, its
face straightened, and what makes the picture a poor reference.

A face taught from a poor picture spoils every later reading of that card,
so :func:`capture` reports each problem it can see (:class:`Problem`), and
the caller refuses the picture with the reason and a hint. The picture is
expected to show one card alone on a table; a scan cut to the card's edges
is taken as it is. Which end is the card's top cannot be read from unknown
art: a card standing upright-ish in the picture is taken top up, and one
lying across with its top to the left. Either way the recogniser compares
faces both ways up, so only how the face is shown depends on it.

Nothing here knows how any deck's art looks. Every threshold is in
:class:`CaptureConfig`.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from ..geometry import inside_convex
from .config import DEFAULT_CONFIG
from .enroll import (FACE_SIZE, CardNotWhole, EnrollError, NoCardFound, is_scan, photo_outlines, refine_outline,
                     scan_face, upright)
from .rectify import image_outline, rectify
from .table_inside import table_inside
from .types import Quad


@dataclass(frozen=True)
class CaptureConfig:
    # long side / short side of the card the outline shows, seen in perspective by a camera whose
    # focal length is this many times the picture's long side (a phone's or a tablet's main
    # camera), against a card's 89 / 57: an outline this far off is not the card's
    focal_length: float = 0.9
    aspect_tolerance: float = 0.25
    # the face is measured at this size (width, height), about the size a card is seen at, so a
    # card photographed small is not called blurred for being enlarged; the border is left out
    measure_size: tuple[int, int] = (160, 250)
    measure_margin: float = 0.06
    # sharp enough: variance of the Laplacian of the grey face at measure_size (sharp photos of
    # the two synthetic decks measured 580 and more; blurred by 2.5 pixels, 70-160 for most)
    min_sharpness: float = 100.0
    # glare: a pixel is blown out when all its channels reach this level, and a face may have
    # this share of them. A card's printed white is blown out too in a bright photo, so only a
    # large washed-out patch is refused (in synthetic phone photos with a glare spot on the
    # card, the median share was 0.03-0.04; without one, nine in ten stayed below 0.03)
    blown_level: int = 250
    max_glare: float = 0.05
    # the strips along each side, as shares of the card's short side, where the edge is judged:
    # just outside the outline, and the table further out
    near_strip: tuple[float, float] = (0.015, 0.035)
    far_strip: tuple[float, float] = (0.10, 0.18)
    # two strips differ when their mean colours (CIE Lab, 0-255 scaled) are this far apart, and
    # further than this many times their texture (a wood grain's colours vary within a strip)
    strip_difference: float = 14.0
    strip_texture: float = 1.0
    # cut inside a printed frame: on at least this many sides, a strip of something that is not
    # the table lies between the outline and the table
    framed_sides: int = 2
    # the table inside the outline: a strip just inside each side (shares of the short side,
    # inwards; of its depths, the one most even all round is taken for the card's paper) is
    # compared, at this many places along the side, with the paper there (a plane fitted round
    # the card, as light falls unevenly) and with the table beside the outline, from
    # table_strip[0] out to table_strip[1]. A place shows the table when its strip is this far
    # from the paper (CIE Lab, 0-255 scaled) and nearer than that, and than table_alike, to some
    # colour of the table nearby. A side along which the table runs this share of its length
    # is refused (in phone photos of the three styles, tuned on seeds 2190-2192: well-cut sides
    # reached 0.25, six places of 24; outlines out over a cloth mostly 0.3 to 0.9)
    inner_strip: tuple[float, float] = (0.005, 0.012)
    table_strip: tuple[float, float] = (0.015, 0.12)
    side_samples: int = 24
    paper_difference: float = 14.0
    table_alike: float = 14.0
    table_run: float = 0.28
    # an outline taking in the table may have followed a cloth's lines past the card's edge while
    # the card's own outline was found too: up to this many smaller outlines around the same
    # place, of at least this share of its area, are tried before the picture is refused
    other_outlines: int = 3
    other_outline_area: float = 0.7
    # taught faces this alike (descriptor correlation, either way up) might be confused
    similar: float = 0.93
    # a new picture this alike to a taught face is most likely that card again
    same: float = 0.97


DEFAULT_CAPTURE = CaptureConfig()


@dataclass(frozen=True)
class Problem:
    """Why a picture is refused (``code``, stable for programs), said for a player, with a fix."""

    code: str
    message: str
    hint: str


PROBLEMS = {problem.code: problem for problem in (
    Problem("no_card", "no card found in the picture",
            "lay the card alone on a plain table, whole, in focus and filling a good part of the picture"),
    Problem("not_whole", "the card is not whole in the picture",
            "keep the whole card in view, with some table all around it"),
    Problem("aspect", "the outline found does not have a card's shape",
            "hold the camera straight above the card, and keep other cards and objects away from it"),
    Problem("cut_inside", "the outline found lies inside the card, along a printed frame",
            "lay the card on a table that differs from the card's border, so its outer edge stands out"),
    Problem("table_inside", "the outline found does not follow the card's edge: it takes in some of the table, "
            "or cuts into the card",
            "lay the card on a plain table without checks or lines, one that differs from the card's border"),
    Problem("blurred", "the picture is blurred",
            "hold the camera still and let it focus on the card"),
    Problem("glare", "part of the card is washed out by glare or too much light",
            "tilt the card or move the light so that nothing shines on it"),
)}


@dataclass(frozen=True, eq=False)
class Capture:
    """A picture's card: its ``face`` (upright, :data:`~.enroll.FACE_SIZE`),
    its ``outline`` in the picture (top-left, top-right, bottom-right,
    bottom-left of the face) and the problems found; ``face`` and ``outline``
    are None when no card was found."""

    face: np.ndarray | None
    outline: Quad | None
    problems: tuple[Problem, ...]

    @property
    def ok(self) -> bool:
        return not self.problems


def capture(image: np.ndarray, config: CaptureConfig = DEFAULT_CAPTURE, top: str | None = None) -> Capture:
    """The card in ``image`` (BGR) as a face to teach, and what is wrong with
    it; ``top``, when given, is the side of the picture the card's top edge
    faces (as a deck manifest's entry may say)."""
    if is_scan(image):
        face, _ = scan_face(image, top)
        height, width = image.shape[:2]
        # no glare check: a scan lies flat under even light, and its printed white is blown out
        return Capture(face, Quad(image_outline(width, height)), _face_problems(face, config, glare=False))
    try:
        outlines = photo_outlines(image)
    except CardNotWhole:
        return Capture(None, None, (PROBLEMS["not_whole"],))
    except NoCardFound:
        return Capture(None, None, (PROBLEMS["no_card"],))
    outline, problems = _best_outline(image, outlines, top, config)
    face = rectify(image, outline, FACE_SIZE)
    return Capture(face, outline, problems + _face_problems(face, config))


def _best_outline(image: np.ndarray, outlines: list[Quad], top: str | None,
                  config: CaptureConfig) -> tuple[Quad, tuple[Problem, ...]]:
    """The largest outline, snapped to the card's edges, and its problems;
    when it takes in the table, the first smaller outline within it that
    passes the checks (the card's own, where the largest followed a cloth's
    lines past its edge), or else the largest with its problems."""
    first = _checked(image, outlines[0], top, config)
    if first[1] != (PROBLEMS["table_inside"],):
        return first
    largest = outlines[0]
    within = [q for q in outlines[1:] if q.area >= config.other_outline_area * largest.area
              and inside_convex(largest.corners, q.center[None])[0]]
    for quad in within[:config.other_outlines]:
        outline = _oriented(refine_outline(image, quad), top)
        # a smaller outline may as well be a printed frame's: it must have the table close
        # around it on every side, and the card's paper all along its inside
        if not _outline_problems(image, outline, config) and framed_sides(image, outline, config) == 0 \
                and max(table_inside(image, outline, config)) == 0:
            return outline, ()
    return first


def _checked(image: np.ndarray, quad: Quad, top: str | None, config: CaptureConfig) -> tuple[Quad, tuple[Problem, ...]]:
    outline = _oriented(refine_outline(image, quad), top)
    return outline, _outline_problems(image, outline, config)


def _oriented(quad: Quad, top: str | None) -> Quad:
    return upright(quad, top) if top else _upright(quad)




def _upright(quad: Quad) -> Quad:
    try:
        return upright(quad, "top")
    except EnrollError:  # lying across: either reading is the other turned over
        return upright(quad, "left")


def _outline_problems(image: np.ndarray, outline: Quad, config: CaptureConfig) -> tuple[Problem, ...]:
    focal = config.focal_length * max(image.shape[:2])
    if not abs(card_aspect(outline, image.shape, focal) / DEFAULT_CONFIG.card_aspect - 1) <= config.aspect_tolerance:
        return (PROBLEMS["aspect"],)
    if framed_sides(image, outline, config) >= config.framed_sides:
        return (PROBLEMS["cut_inside"],)
    if max(table_inside(image, outline, config)) >= config.table_run:
        return (PROBLEMS["table_inside"],)
    return ()


def _face_problems(face: np.ndarray, config: CaptureConfig, glare: bool = True) -> tuple[Problem, ...]:
    inner = _measured(face, config)
    problems = []
    if sharpness(inner) < config.min_sharpness:
        problems.append(PROBLEMS["blurred"])
    if glare and blown_share(inner, config.blown_level) > config.max_glare:
        problems.append(PROBLEMS["glare"])
    return tuple(problems)


def _measured(face: np.ndarray, config: CaptureConfig) -> np.ndarray:
    small = cv2.resize(face, config.measure_size, interpolation=cv2.INTER_AREA)
    width, height = config.measure_size
    mx, my = round(width * config.measure_margin), round(height * config.measure_margin)
    return small[my:height - my, mx:width - mx]


def sharpness(face: np.ndarray) -> float:
    """Variance of the Laplacian of the grey face: fine detail left in it."""
    grey = cv2.cvtColor(face, cv2.COLOR_BGR2GRAY)
    return float(cv2.Laplacian(grey, cv2.CV_64F).var())


def blown_share(face: np.ndarray, level: int) -> float:
    """The share of the face's pixels blown out (every channel at ``level`` or above)."""
    return float((face.min(axis=2) >= level).mean())


def card_aspect(outline: Quad, shape: tuple[int, ...], focal: float) -> float:
    """Long side over short side of the rectangle that ``outline`` (first
    side short) shows, seen by a camera of focal length ``focal`` (pixels)
    looking through the picture's centre: the outline freed of perspective
    (Zhang and He, "Whiteboard scanning and image enhancement", 2007)."""
    m1, m2, m4, m3 = (np.array([x, y, 1.0]) for x, y in outline.corners.tolist())
    k2 = np.dot(np.cross(m1, m4), m3) / np.dot(np.cross(m2, m4), m3)
    k3 = np.dot(np.cross(m1, m4), m2) / np.dot(np.cross(m3, m4), m2)
    camera = np.array([[focal, 0, shape[1] / 2], [0, focal, shape[0] / 2], [0, 0, 1]])
    across, along = np.linalg.solve(camera, np.stack([k2 * m2 - m1, k3 * m3 - m1], axis=1)).T
    return float(np.linalg.norm(along) / max(1e-9, np.linalg.norm(across)))


def framed_sides(image: np.ndarray, outline: Quad, config: CaptureConfig = DEFAULT_CAPTURE) -> int:
    """On how many sides something other than the table lies just outside
    the outline: the strip there differs from the table further out. Along a
    card's true edge both are table (or the card's shadow on it); an outline
    traced along a frame printed inside the card has the card's own border
    just outside it."""
    # only the strips' pixels are turned into Lab: the whole picture in float Lab would be
    # twelve bytes a pixel (190 MB for a 16-megapixel photo) for a few hundred samples
    smooth = cv2.GaussianBlur(image, (0, 0), 1.0)
    corners = outline.corners.astype(np.float32)
    short = float(np.linalg.norm(corners[1] - corners[0]) + np.linalg.norm(corners[2] - corners[3])) / 2
    count = 0
    for k in range(4):
        near = _strip(smooth, corners, k, config.near_strip, short)
        far = _strip(smooth, corners, k, config.far_strip, short)
        if near is not None and far is not None and _card_beside(near, far, config):
            count += 1
    return count


STRIP_SAMPLES = (24, 4)  # points along the side's middle part, and offsets across the strip


def _strip(image: np.ndarray, corners: np.ndarray, side: int, strip: tuple[float, float],
           short: float) -> np.ndarray | None:
    """The pixels of ``image`` (BGR) in a strip along ``side`` at ``strip``
    (shares of the short side, outwards), in Lab, or None when most of it
    lies outside the picture."""
    a, b = corners[side], corners[(side + 1) % 4]
    centre = corners.mean(axis=0)
    along = b - a
    normal = np.array([along[1], -along[0]], np.float32) / (np.linalg.norm(along) + 1e-9)
    if np.dot((a + b) / 2 - centre, normal) < 0:
        normal = -normal
    bases = a + np.linspace(0.2, 0.8, STRIP_SAMPLES[0], dtype=np.float32)[:, None] * along
    offsets = np.linspace(strip[0], strip[1], STRIP_SAMPLES[1], dtype=np.float32) * short
    points = np.rint(bases[:, None, :] + offsets[None, :, None] * normal).reshape(-1, 2).astype(int)
    height, width = image.shape[:2]
    inside = (points[:, 0] >= 0) & (points[:, 0] < width) & (points[:, 1] >= 0) & (points[:, 1] < height)
    if inside.mean() < 0.5:
        return None
    samples = image[points[inside, 1], points[inside, 0]].reshape(-1, 1, 3)
    return cv2.cvtColor(samples, cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float32)


def _card_beside(near: np.ndarray, far: np.ndarray, config: CaptureConfig) -> bool:
    """Whether the ``near`` strip is something other than the ``far`` table:
    further from it in colour than the table's own texture explains, and not
    merely its shadow (darker, with the table's hue). A card's border as dark
    as the table's shadow cannot be told from it."""
    near_mean, far_mean = near.mean(axis=0), far.mean(axis=0)
    texture = float(max(near.std(axis=0).mean(), far.std(axis=0).mean()))
    if float(np.linalg.norm(near_mean - far_mean)) <= max(config.strip_difference, config.strip_texture * texture):
        return False
    darker = near_mean[0] / max(1.0, far_mean[0])
    shade = (far_mean[1:] - LAB_NEUTRAL) * darker + LAB_NEUTRAL  # the table's colour in shadow
    return bool(darker >= 1.0 or np.linalg.norm(near_mean[1:] - shade) > config.strip_difference / 2)


LAB_NEUTRAL = 128.0  # OpenCV's 8-bit Lab puts grey at a = b = 128
