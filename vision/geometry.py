"""Where things are: the table plane, a pinhole camera looking at it, and the
quadrilateral a card covers in the image.

Table-plane coordinates are in millimetres. A card's face corners are listed
top-left, top-right, bottom-right, bottom-left *of the face as drawn*, so the
order says which way up the card lies. Image coordinates follow OpenCV: the
centre of the top-left pixel is (0, 0).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

CARD_MM = (57.0, 89.0)  # width, height of a real card


def rotation_z(deg: float) -> np.ndarray:
    r = math.radians(deg)
    return np.array([[math.cos(r), -math.sin(r), 0], [math.sin(r), math.cos(r), 0], [0, 0, 1.0]])


def rotation_x(deg: float) -> np.ndarray:
    r = math.radians(deg)
    return np.array([[1.0, 0, 0], [0, math.cos(r), -math.sin(r)], [0, math.sin(r), math.cos(r)]])


def translation(dx: float, dy: float) -> np.ndarray:
    return np.array([[1.0, 0, dx], [0, 1.0, dy], [0, 0, 1.0]])


def apply_homography(matrix: np.ndarray, points: np.ndarray) -> np.ndarray:
    p = np.asarray(points, np.float64).reshape(-1, 2)
    q = np.hstack([p, np.ones((len(p), 1))]) @ matrix.T
    return q[:, :2] / q[:, 2:3]


@dataclass(frozen=True)
class Camera:
    """A pinhole camera above the table: ``tilt`` degrees away from looking
    straight down (about the axis ``tilt_axis`` degrees in the image), turned
    ``roll`` degrees about its optical axis, ``distance`` mm from the point of
    the table it looks at, which lands on image point ``target``."""

    size: tuple[int, int]
    focal: float
    distance: float
    tilt: float = 0.0
    tilt_axis: float = 0.0
    roll: float = 0.0
    target: tuple[float, float] | None = None

    def table_to_image(self) -> np.ndarray:
        """Homography from table millimetres (origin under ``target``) to pixels."""
        rotation = rotation_z(self.roll) @ rotation_z(self.tilt_axis) @ rotation_x(self.tilt) @ rotation_z(-self.tilt_axis)
        tx, ty = self.target if self.target is not None else (self.size[0] / 2, self.size[1] / 2)
        k = np.array([[self.focal, 0, tx], [0, self.focal, ty], [0, 0, 1.0]])
        extrinsic = np.column_stack([rotation[:, 0], rotation[:, 1], [0.0, 0.0, self.distance]])
        return k @ extrinsic

    def mm_per_pixel_at_target(self) -> float:
        return self.distance / self.focal


@dataclass(frozen=True)
class CardPose:
    """A card lying on the table: centre (mm) and rotation (degrees)."""

    x: float
    y: float
    angle: float
    lift: float = 1.0  # >1: nearer the camera, as when held above the pile

    def face_to_table(self, face_size: tuple[int, int]) -> np.ndarray:
        """Homography from face pixels (pixel-centre convention) to table mm."""
        fw, fh = face_size
        scale = CARD_MM[0] / fw * self.lift
        centre = translation(-(fw - 1) / 2, -(fh - 1) / 2)
        rz = rotation_z(self.angle)
        return translation(self.x, self.y) @ rz @ np.diag([scale, scale, 1.0]) @ centre


def face_corners(face_size: tuple[int, int]) -> np.ndarray:
    """The outer edge corners of a face image, TL TR BR BL, in pixel-centre coordinates."""
    fw, fh = face_size
    return np.array([[-0.5, -0.5], [fw - 0.5, -0.5], [fw - 0.5, fh - 0.5], [-0.5, fh - 0.5]])


def card_quad(face_to_image: np.ndarray, face_size: tuple[int, int]) -> np.ndarray:
    return apply_homography(face_to_image, face_corners(face_size))


def quad_inside(quad: np.ndarray, size: tuple[int, int], margin: float = 0.0) -> bool:
    w, h = size
    return bool(np.all(quad[:, 0] >= margin) and np.all(quad[:, 0] <= w - 1 - margin)
                and np.all(quad[:, 1] >= margin) and np.all(quad[:, 1] <= h - 1 - margin))


def quad_areas(quads: np.ndarray) -> np.ndarray:
    """The areas of quadrilaterals (..., 4, 2): half the cross product of
    their diagonals (the shoelace formula for four corners).

    >>> quad_areas(np.array([[[0, 0], [4, 0], [4, 2], [0, 2]], [[0, 0], [2, 2], [0, 4], [-2, 2]]])).tolist()
    [8.0, 8.0]
    """
    first, second = quads[..., 2, :] - quads[..., 0, :], quads[..., 3, :] - quads[..., 1, :]
    return np.abs(first[..., 0] * second[..., 1] - first[..., 1] * second[..., 0]) / 2


def quad_area(quad: np.ndarray) -> float:
    return float(quad_areas(np.asarray(quad, np.float64)))


def is_convex(quad: np.ndarray) -> bool:
    edges = np.roll(quad, -1, axis=0) - quad
    cross = edges[:, 0] * np.roll(edges, -1, axis=0)[:, 1] - edges[:, 1] * np.roll(edges, -1, axis=0)[:, 0]
    return bool(np.all(cross > 0) or np.all(cross < 0))


def inside_convex(quad: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Which of ``points`` (n, 2) lie inside or on the convex ``quad`` (4, 2):
    on the same side of all four edges. For a stack of quads (m, 4, 2) the
    answer is (m, n), a row per quad.

    >>> square = np.float32([[0, 0], [2, 0], [2, 2], [0, 2]])
    >>> inside_convex(square, np.float32([[1, 1], [3, 1]])).tolist()
    [True, False]
    >>> inside_convex(np.stack([square, square + 2]), np.float32([[3, 3]])).tolist()
    [[False], [True]]
    """
    edges = quad[..., _NEXT_CORNER, :] - quad                             # (..., 4, 2)
    to_point = points[:, None, :] - quad[..., None, :, :]                 # (..., n, 4, 2)
    cross = edges[..., None, :, 0] * to_point[..., 1] - edges[..., None, :, 1] * to_point[..., 0]
    return (cross.min(axis=-1) >= 0) | (cross.max(axis=-1) <= 0)


_NEXT_CORNER = np.array([1, 2, 3, 0])  # indexing is several times quicker than np.roll on four points
