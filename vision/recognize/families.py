"""Families of close faces: the faces of a deck that look alike at low
resolution, registered in one frame, with the pixels where any two of them
differ (built once, when a deck is loaded; :mod:`.discern` compares readings
with them).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import cv2
import numpy as np

from .config import VisionConfig
from .paper import paper_balanced, print_sets_gains
from .leads import Sums, pair_sums
from .rectify import image_outline


@dataclass(frozen=True, eq=False)
class Looks:
    """A family's faces, seen against their paper, at the informative
    pixels, kept channel by channel: (k, 3, n), each channel a contiguous
    row (one pass over a channel of every member is what a weighing makes)."""

    planes: np.ndarray

    @classmethod
    def of(cls, faces: np.ndarray) -> Looks:
        """The looks of ``faces`` (k, n, 3)."""
        return cls(np.ascontiguousarray(faces.transpose(0, 2, 1), np.float32))

    @property
    def faces(self) -> np.ndarray:
        """(k, n, 3): each member's colour at each pixel (a view of ``planes``)."""
        return self.planes.transpose(0, 2, 1)

    @cached_property
    def sums(self) -> np.ndarray:
        """Each member's channels summed at each pixel: (k, n)."""
        return self.planes.sum(axis=1)

    @cached_property
    def squares(self) -> np.ndarray:
        """Each member's squared channels summed at each pixel: (k, n)."""
        return (self.planes * self.planes).sum(axis=1)


@dataclass(frozen=True, eq=False)
class Family:
    """Faces that look alike at low resolution, registered in one frame.

    ``members`` index the deck's cards. ``into_frame`` maps each member's own
    face (at ``config.fine_size``) into the frame. ``looks`` hold the
    members' colours, seen against their paper, at the frame's informative
    pixels (where any two members differ); ``differs`` says, for each two
    members, at which of them the two differ enough to be told apart (both
    faces cover it: a face cut a little inside its card lacks its rim);
    ``covered`` says where any member's face lies over the whole frame."""

    members: tuple[int, ...]
    into_frame: np.ndarray   # (k, 3, 3) float32: member face -> frame, a homography
    pixels: np.ndarray       # (n,) flat indices of the informative pixels
    looks: Looks
    close: np.ndarray        # (k, k) bool: the members whose descriptors correlate ``config.fine_close`` or more
    covered: np.ndarray      # (height, width) bool
    shifts: np.ndarray       # (k,) how far each member was moved into the frame (its corners, fine pixels)
    face: np.ndarray         # float32, at ``config.fine_align``'s size: the members' median gray face, registered
    placed: np.ndarray       # (3, 3): ``face`` -> frame
    differs: np.ndarray      # (k, k, n / 8) uint8: bits of the pixels where two members differ enough to tell them apart
    sums: tuple[Sums, ...]   # per member, its comparisons' sums over ``differs`` that no reading changes
    shared: np.ndarray       # (m,) flat indices of frame pixels every member prints alike, well inside the cut
    shared_colours: np.ndarray  # (3, m) float64: the members' colour there, seen against their paper, a channel to a row

    @property
    def frame_size(self) -> tuple[int, int]:
        return self.covered.shape[1], self.covered.shape[0]

    @cached_property
    def sets_gains(self) -> bool:
        """Whether the print the members share can even out a reading's
        channels (:func:`~.paper.print_sets_gains`)."""
        return print_sets_gains(self.shared_colours)

    def differs_of(self, member: int) -> np.ndarray:
        """(k, n) bool: the pixels where ``member`` and each member differ
        enough to tell them apart."""
        return _unpacked(self.differs[member], len(self.pixels))

    def differs_between(self, member: int, other: int) -> np.ndarray:
        """(n,) bool: the pixels where ``member`` and ``other`` differ enough
        to tell them apart."""
        return _unpacked(self.differs[member, other], len(self.pixels))


def families(alike: np.ndarray, close: float) -> list[tuple[int, ...]]:
    """Groups of faces linked, directly or through others, by a likeness
    (``alike``, one row and column per face) of at least ``close``; only
    groups of two or more.

    >>> rows = np.eye(3, dtype=np.float32); rows[1] = [0.8, 0.6, 0]
    >>> families(rows @ rows.T, 0.7)
    [(0, 1)]
    """
    count = len(alike)
    parent = list(range(count))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, j in zip(*np.nonzero(np.triu(alike >= close, 1))):
        parent[root(int(i))] = root(int(j))
    groups: dict[int, list[int]] = {}
    for i in range(count):
        groups.setdefault(root(i), []).append(i)
    return [tuple(g) for g in groups.values() if len(g) > 1]


def build_family(members: tuple[int, ...], fine: list[np.ndarray], grays: list[np.ndarray], close: np.ndarray,
                  config: VisionConfig, ink_ceiling: float | None = None) -> Family:
    width, height = config.fine_size
    pad_x, pad_y = round(width * config.fine_pad), round(height * config.fine_pad)
    frame_size = (width + 2 * pad_x, height + 2 * pad_y)
    placed = np.float32([[1, 0, pad_x], [0, 1, pad_y], [0, 0, 1]])
    consensus = np.median(np.stack([grays[m] for m in members]), axis=0).astype(np.float32)
    consensus_frame = cv2.warpPerspective(consensus, placed, frame_size)
    consensus_valid = cv2.warpPerspective(np.ones(consensus.shape, np.uint8), placed, frame_size)
    warps = [_registered(grays[m], consensus_frame, consensus_valid, placed, config) for m in members]
    colours = np.stack([cv2.warpPerspective(fine[m], w, frame_size, flags=cv2.INTER_LINEAR)
                        for m, w in zip(members, warps)])
    valid = np.stack([_covered(grays[m].shape, w, frame_size) for m, w in zip(members, warps)])
    for k in range(len(members)):
        colours[k] = paper_balanced(colours[k], valid[k], config, ink_ceiling)
    flat, flat_valid = colours.reshape(len(members), -1, 3), valid.reshape(len(members), -1)
    flat = _agreed(flat, flat_valid, config.fine_agree)
    sides = _rim_sides(frame_size, (pad_x, pad_y), round(width * config.fine_rim)).ravel()
    inside = np.flatnonzero(sides < 0)
    telling = _telling(flat[:, inside], flat_valid[:, inside], config)
    pixels = _informative(flat, flat_valid, telling, _inside_cut(valid.any(axis=0), config.fine_cut_reach))
    looks = Looks.of(flat[:, pixels])
    round_rim = _round_rim(flat, flat_valid, telling, sides, config.fine_rim_round)
    differs = _differs(looks.faces, flat_valid[:, pixels], telling, sides[pixels] >= 0, round_rim)
    shared = _shared(valid, pixels, config.fine_cut_reach)
    return Family(members, np.stack(warps), pixels, looks, close,
                  valid.any(axis=0), np.array([_shift(w, placed, grays[0].shape) for w in warps], np.float32),
                  alignment_template(_common_face(members, grays, warps, placed, frame_size), config), placed,
                  differs, tuple(pair_sums(looks, m, _unpacked(differs[m], len(pixels))) for m in range(len(members))),
                  shared, np.ascontiguousarray(np.median(flat[:, shared], axis=0).T, np.float64))


def alignment_template(gray: np.ndarray, config: VisionConfig) -> np.ndarray:
    """``gray`` (a face at ``config.fine_size``) at the size readings are
    aligned with it (``config.fine_align``), made once when the deck is built."""
    width, height = config.fine_align.template
    if gray.shape[:2] == (height, width):
        return gray
    return cv2.resize(gray, (width, height), interpolation=cv2.INTER_AREA)


def _shared(valid: np.ndarray, pixels: np.ndarray, cut_reach: int) -> np.ndarray:
    """Flat indices of every ``SHARED_STEP``-th frame pixel that every
    member's face covers (``valid``: (k, height, width)), well in from the
    cut and a little away from the ``pixels`` where members differ (blur
    carries a difference a pixel or two beyond them): the print the members
    share, which shows how a reading's camera renders each channel."""
    height, width = valid.shape[1:]
    informative = np.zeros(height * width, np.uint8)
    informative[pixels] = 1
    near = cv2.dilate(informative.reshape(height, width), np.ones((5, 5), np.uint8)).astype(bool)
    inside = _inside_cut(valid.all(axis=0), cut_reach + 2)
    return np.flatnonzero((inside & ~near).ravel())[::SHARED_STEP]


# a third of the shared print is plenty to fit three gains, at a third of the cost
SHARED_STEP = 3


def _differs(faces: np.ndarray, valid: np.ndarray, telling: np.ndarray, rim: np.ndarray,
             round_rim: np.ndarray) -> np.ndarray:
    """For each two members, the pixels that tell them apart: where both
    faces cover the pixel and their colours differ by ``telling``, on the
    rim only where they differ all round it; as bits (``np.packbits`` along
    the pixels: a family of 40 orders at 128 x 200 would otherwise keep
    23 MB of them)."""
    rows = []
    for i in range(len(faces)):
        row = (_squared_differences(faces, i) >= telling[i][:, None] ** 2) & valid & valid[i] & \
            (round_rim[i][:, None] | ~rim)
        rows.append(np.packbits(row, axis=-1))
    return np.stack(rows)


def _unpacked(bits: np.ndarray, count: int) -> np.ndarray:
    """The ``count`` booleans along the last axis of ``bits`` (``np.packbits``'d).

    >>> _unpacked(np.packbits(np.array([[True, False, True]]), axis=-1), 3).tolist()
    [[True, False, True]]
    """
    return np.unpackbits(bits, axis=-1, count=count).view(bool)


def _rim_sides(frame_size: tuple[int, int], pad: tuple[int, int], reach: int) -> np.ndarray:
    """For each pixel of the frame, the side of the faces' rim it lies on
    (0 left, 1 right, 2 top, 3 bottom: within ``reach`` pixels of where the
    faces were placed, inside or out), or -1 inside.

    >>> _rim_sides((6, 6), (1, 1), 1)[:, 3].tolist()
    [2, 2, -1, -1, 3, 3]
    """
    width, height = frame_size
    x, y = np.meshgrid(np.arange(width), np.arange(height))
    gaps = np.stack([x - pad[0], width - 1 - pad[0] - x, y - pad[1], height - 1 - pad[1] - y])
    nearest = gaps.argmin(axis=0)
    return np.where(gaps.min(axis=0) < reach, nearest, -1)


def _round_rim(faces: np.ndarray, valid: np.ndarray, telling: np.ndarray, sides: np.ndarray,
               share: float) -> np.ndarray:
    """For each two members, whether they differ along every side of their
    rim (at least ``share`` of each side's pixels): a frame printed in
    another colour runs all the way round, while a face cut a little out
    over the table, or glare on one edge, shows on a side or two. Where the
    rim differences do not go round, they do not tell the two apart."""
    on_rim = np.flatnonzero(sides >= 0)
    faces, valid, side = np.ascontiguousarray(faces[:, on_rim]), valid[:, on_rim], sides[on_rim]
    count = len(faces)
    result = np.zeros((count, count), bool)
    for i in range(count):
        both = valid[i] & valid
        differ = (_squared_differences(faces, i) >= telling[i][:, None] ** 2) & both
        shares = [differ[:, side == s].sum(axis=1) / np.maximum(both[:, side == s].sum(axis=1), 1) for s in range(4)]
        result[i] = np.min(shares, axis=0) >= share
    return result


def _common_face(members: tuple[int, ...], grays: list[np.ndarray], warps: list[np.ndarray], placed: np.ndarray,
                 frame_size: tuple[int, int]) -> np.ndarray:
    """The members' median gray face, each as registered in the frame, cut
    back out where ``placed`` put the faces. A reading is aligned with it
    rather than with the face it was taken for: that face would pull the
    outline towards itself where the members differ (a topping drawn a
    little to one side), and so towards the reading being that face."""
    height, width = grays[members[0]].shape
    frames = np.stack([cv2.warpPerspective(grays[m], w, frame_size, flags=cv2.INTER_LINEAR)
                       for m, w in zip(members, warps)])
    common = np.median(frames, axis=0).astype(np.float32)
    return cv2.warpPerspective(common, np.linalg.inv(placed), (width, height), flags=cv2.INTER_LINEAR)


def _shift(warp: np.ndarray, placed: np.ndarray, shape: tuple[int, ...]) -> float:
    """How far ``warp`` puts a face's corners from where ``placed`` does."""
    outline = image_outline(shape[1], shape[0]).reshape(-1, 1, 2).astype(np.float64)
    moved = cv2.perspectiveTransform(outline, warp.astype(np.float64))
    return float(np.abs(moved - cv2.perspectiveTransform(outline, placed.astype(np.float64))).max())


def _agreed(faces: np.ndarray, valid: np.ndarray, radius: float) -> np.ndarray:
    """``faces`` (k, n, 3) with each member's colour at each pixel replaced
    by the mean of the members whose colours lie within ``radius`` of it
    there. Each face was taught from its own photo, with its own light,
    glare and blur, and what sets one apart where the print is the same (a
    pizza all the orders share, the green frame of the eight green orders)
    would otherwise count as a difference between two faces; where the print
    differs (a green frame and a red one), the groups stay apart. Done in
    place, a block of pixels at a time (each block's means come from that
    block alone): a family of 40 is some 15 MB of colours at 128 x 200."""
    for start in range(0, faces.shape[1], AGREE_BLOCK):
        block, shown = faces[:, start:start + AGREE_BLOCK], valid[:, start:start + AGREE_BLOCK]
        gaps = np.sqrt(((block[:, None] - block[None]) ** 2).sum(axis=-1))   # (k, k, pixels)
        near = ((gaps <= radius) & shown[None] & shown[:, None]).astype(np.float32)
        total = near.sum(axis=1)
        mean = np.einsum("kjp,jpc->kpc", near, block) / np.maximum(total, 1)[..., None]
        faces[:, start:start + AGREE_BLOCK] = np.where((total > 0)[..., None], mean, block)
    return faces


AGREE_BLOCK = 256  # pixels compared at once: (k, k, 256, 3) differences, 5 MB for 40 members


def _telling(faces: np.ndarray, valid: np.ndarray, config: VisionConfig) -> np.ndarray:
    """For each two members, the difference a pixel needs to count as one
    where they differ: ``config.fine_share`` of their strongest differences
    (the 99th percentile, over every fourth pixel), and at least
    ``config.fine_floor``. Faces taught from photos differ a little
    everywhere (JPEG, light, a cut a pixel off); what tells two faces apart
    stands well above that. ``faces`` are the pixels inside the rim: a face cut
    a little out over the table differs most along its edge, and would hide
    a small topping's difference beneath that."""
    count = len(faces)
    telling = np.full((count, count), np.inf, np.float32)
    sample = np.ascontiguousarray(faces[:, ::4]), valid[:, ::4]
    for i in range(count):
        squared = _squared_differences(sample[0], i)
        squared[~(sample[1][i] & sample[1])] = 0
        strongest = np.sqrt(np.quantile(squared, 0.99, axis=1))
        telling[i] = np.maximum(config.fine_floor, config.fine_share * strongest)
    np.fill_diagonal(telling, np.inf)
    return np.minimum(telling, telling.T)


def _informative(faces: np.ndarray, valid: np.ndarray, telling: np.ndarray, inside: np.ndarray) -> np.ndarray:
    """Flat indices of the frame's pixels ``inside`` (a mask of the frame)
    where some two members differ as ``telling`` asks."""
    chosen, differing = inside.ravel(), np.zeros(faces.shape[1], bool)
    for i in range(len(faces)):
        squared = _squared_differences(faces, i)
        differing |= ((squared >= telling[i][:, None] ** 2) & valid[i] & valid).any(axis=0)
    return np.flatnonzero(chosen & differing)


def _inside_cut(covered: np.ndarray, reach: int) -> np.ndarray:
    """The pixels of ``covered`` (a mask) at least ``reach`` pixels in from
    its edge, across or along (a square's reach).

    >>> _inside_cut(np.ones((5, 6), bool), 1).astype(int).sum(axis=0).tolist()
    [0, 3, 3, 3, 3, 0]
    """
    if reach <= 0:
        return covered
    square = np.ones((2 * reach + 1, 2 * reach + 1), np.uint8)
    return cv2.erode(covered.astype(np.uint8), square, borderType=cv2.BORDER_CONSTANT, borderValue=0).astype(bool)


def _squared_differences(faces: np.ndarray, i: int) -> np.ndarray:
    """|faces[i] - faces[k]|^2 at each pixel, for every k: (k, n)."""
    squared = np.zeros(faces.shape[:2], np.float32)
    for c in range(3):
        step = faces[:, :, c] - faces[i, :, c]
        squared += step * step
    return squared


def _covered(shape: tuple[int, ...], warp: np.ndarray, frame_size: tuple[int, int]) -> np.ndarray:
    """Where a face of ``shape`` lands in the frame, a pixel in from its cut."""
    inside = cv2.warpPerspective(np.ones(shape[:2], np.uint8), warp, frame_size, flags=cv2.INTER_NEAREST)
    return cv2.erode(inside, np.ones((3, 3), np.uint8)).astype(bool)


def _registered(gray: np.ndarray, frame: np.ndarray, frame_valid: np.ndarray, placed: np.ndarray,
                config: VisionConfig) -> np.ndarray:
    """:func:`_register` made at the size readings are aligned at
    (``config.fine_align``), which may be coarser than the frame: a face's
    cut is found as surely there, at a little over half the cost."""
    scale = config.fine_align.template[0] / gray.shape[1]
    if scale >= 1.0:
        return _register(gray, frame, frame_valid, placed, config)
    # pixel centres: x at full size is (x + 0.5) * scale - 0.5 reduced
    down = np.array([[scale, 0, 0.5 * scale - 0.5], [0, scale, 0.5 * scale - 0.5], [0, 0, 1]])
    small_size = (round(frame.shape[1] * scale), round(frame.shape[0] * scale))
    small = alignment_template(gray, config)
    small_frame = cv2.resize(frame, small_size, interpolation=cv2.INTER_AREA)
    small_valid = (cv2.resize(frame_valid, small_size, interpolation=cv2.INTER_NEAREST) > 0).astype(np.uint8)
    warp = _register(small, small_frame, small_valid, (down @ placed @ np.linalg.inv(down)).astype(np.float32), config)
    return (np.linalg.inv(down) @ warp @ down).astype(np.float32)


def _register(gray: np.ndarray, frame: np.ndarray, frame_valid: np.ndarray, placed: np.ndarray,
              config: VisionConfig) -> np.ndarray:
    """Where a member's face lies in the family's frame: as it was cut
    (``placed``), unless a move (ECC, a homography: a cut may be askew) onto the members' consensus
    (their median face, as cut) fits it clearly better. Most faces are cut
    along the card's edge and are left as they are, so a pale frame or a
    small topping that ECC barely sees cannot pull them askew; a face cut a
    little inside its card, or out over the table, is moved."""
    criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 30, 1e-4)
    try:
        _, warp = cv2.findTransformECC(gray, frame, placed.copy(), cv2.MOTION_HOMOGRAPHY, criteria, frame_valid, 3)
    except cv2.error:
        return placed
    moved = warp.astype(np.float32)
    height, width = gray.shape
    outline = image_outline(width, height).reshape(-1, 1, 2)
    shift = cv2.perspectiveTransform(outline, moved) - cv2.perspectiveTransform(outline, placed)
    if not np.isfinite(shift).all() or np.abs(shift).max() > FARTHEST_MOVE * width or np.abs(shift).max() < 1.0:
        return placed
    before, after = (_correlation(gray, warp, frame, frame_valid) for warp in (placed, moved))
    return moved if after - before >= config.fine_register_gain * (1 - before) else placed


# a face cut a sixth of its width out over the table is moved (and so found a misfit); beyond a
# quarter, ECC has slid onto another part of the card rather than found the cut
FARTHEST_MOVE = 0.25


def _correlation(gray: np.ndarray, warp: np.ndarray, frame: np.ndarray, frame_valid: np.ndarray) -> float:
    """The correlation of ``gray`` put into ``frame`` by ``warp`` with it,
    where both are defined."""
    size = (frame.shape[1], frame.shape[0])
    placed = cv2.warpPerspective(gray, warp, size)
    where = (cv2.warpPerspective(np.ones(gray.shape, np.uint8), warp, size, flags=cv2.INTER_NEAREST) > 0) & \
        (frame_valid > 0)
    a, b = placed[where], frame[where]
    a, b = a - a.mean(), b - b.mean()
    return float((a * b).sum() / (np.sqrt((a * a).sum() * (b * b).sum()) + 1e-6))
